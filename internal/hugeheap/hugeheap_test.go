package hugeheap

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/matryer/is"
)

// Below the threshold Prepare must cost nothing: it advises no range,
// and so allocates and collects nothing, even where advice would help.
// (Counting collections instead would race with the runtime's own.)
func TestPrepareBelowThresholdDoesNothing(t *testing.T) {
	is := is.New(t)
	first, last := prepare(Threshold-1, []byte("always [madvise] never\n"))
	is.Equal(first, last)
}

func TestHeapForFiles(t *testing.T) {
	is := is.New(t)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	is.NoErr(os.WriteFile(a, make([]byte, 1000), 0o644))
	is.NoErr(os.WriteFile(b, make([]byte, 234), 0o644))
	is.Equal(heapFor(a, b, filepath.Join(dir, "missing")), int64(1234*HeapPerFileByte))
	is.Equal(heapFor(), int64(0))
}
