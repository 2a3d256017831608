package hooks_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/hooks"
	"github.com/matryer/is"
)

// TestStdinNeverHangs: an input stream that never ends is cut off by the
// bounded wait, not waited on forever.
func TestStdinNeverHangs(t *testing.T) {
	is := is.New(t)
	r, w, err := os.Pipe()
	is.NoErr(err)
	defer w.Close()
	defer r.Close()
	_, err = hooks.ReadInput(r, 50*time.Millisecond)
	is.True(err != nil)
	is.True(strings.Contains(err.Error(), "no hook input on stdin after"))
}
