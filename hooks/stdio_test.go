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

// A character device (a terminal, /dev/null) is refused at once with a
// line saying what to do, not waited on.
func TestStdinFromADeviceIsRefused(t *testing.T) {
	dev, err := os.Open(os.DevNull)
	if err != nil {
		t.Skip(err)
	}
	defer dev.Close()
	if info, err := dev.Stat(); err != nil || info.Mode()&os.ModeCharDevice == 0 {
		t.Skipf("%s is not a character device here", os.DevNull)
	}
	if _, err := hooks.ReadInput(dev, time.Minute); err == nil || !strings.Contains(err.Error(), "bimri-hook simulate") {
		t.Fatalf("read from %s: %v", os.DevNull, err)
	}
}

// An answer is one JSON object on one line, its keys sorted so the bytes
// are the same every time, and the context not HTML-escaped: the model
// reads "<private>" as written.
func TestOutputWriteIsOneLine(t *testing.T) {
	is := is.New(t)
	var b strings.Builder
	out := hooks.Output{JSON: map[string]any{
		"hookSpecificOutput": map[string]any{"hookEventName": "SessionStart", "additionalContext": "a <private> & b\nline 2"},
		"b":                  "x",
	}}
	is.NoErr(out.Write(&b))
	is.Equal(b.String(), `{"b":"x","hookSpecificOutput":{"additionalContext":"a <private> & b\nline 2","hookEventName":"SessionStart"}}`+"\n")
	b.Reset()
	is.NoErr(hooks.Output{Text: "plain"}.Write(&b))
	is.Equal(b.String(), "plain\n")
	b.Reset()
	is.NoErr(hooks.Output{}.Write(&b))
	is.Equal(b.String(), "")
}
