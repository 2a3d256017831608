package hugeheap

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/matryer/is"
)

func TestHeapForFiles(t *testing.T) {
	is := is.New(t)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	is.NoErr(os.WriteFile(a, make([]byte, 1000), 0o644))
	is.NoErr(os.WriteFile(b, make([]byte, 234), 0o644))
	is.Equal(heapFor(a, b, filepath.Join(dir, "missing")), int64(1234*HeapPerFileByte))
	is.Equal(heapFor(), int64(0))
}
