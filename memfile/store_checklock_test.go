package memfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gofrs/flock"
	"github.com/matryer/is"
)

func TestCheckLock(t *testing.T) {
	is := is.New(t)
	s, err := OpenStore(t.TempDir(), DefaultConfig(), 50*time.Millisecond)
	is.NoErr(err)

	is.NoErr(s.CheckLock()) // free
	_, err = os.Stat(s.Path(MemoryName))
	is.True(errors.Is(err, fs.ErrNotExist)) // CheckLock creates no bimri.md
	is.NoErr(s.CheckLock())                 // and lets go of the lock it took

	held := flock.New(filepath.Join(s.StatePath(), "lock"))
	ok, err := held.TryLock()
	is.NoErr(err)
	is.True(ok)
	defer held.Unlock()
	is.True(errors.Is(s.CheckLock(), ErrBusy)) // held by another
}

func TestWriteFileAtomic(t *testing.T) {
	is := is.New(t)
	path := filepath.Join(t.TempDir(), "settings.json")
	is.NoErr(os.WriteFile(path, []byte("old"), 0o600))

	is.NoErr(WriteFileAtomic(path, []byte("new\n")))
	got, err := os.ReadFile(path)
	is.NoErr(err)
	is.Equal(string(got), "new\n")
	info, err := os.Stat(path)
	is.NoErr(err)
	is.Equal(info.Mode().Perm(), fs.FileMode(0o600)) // keeps its permissions
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), tempPrefix+"*"))
	is.Equal(len(left), 0) // no temporary file left
}
