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
	s, err := OpenStore(t.TempDir(), DefaultConfig(), StoreOptions{LockTimeout: 50 * time.Millisecond})
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
