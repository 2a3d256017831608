package store

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/gofrs/flock"
	"github.com/matryer/is"
)

func TestCheckLock(t *testing.T) {
	is := is.New(t)
	s, err := OpenStore(t.TempDir(), memfile.DefaultConfig(), StoreOptions{LockTimeout: 50 * time.Millisecond})
	is.NoErr(err)

	is.NoErr(s.CheckLock()) // free
	_, err = os.Stat(s.Path(memfile.MemoryName))
	is.True(errors.Is(err, fs.ErrNotExist)) // CheckLock creates no bimri.md
	is.NoErr(s.CheckLock())                 // and lets go of the lock it took

	held := flock.New(filepath.Join(s.StatePath(), "lock"))
	ok, err := held.TryLock()
	is.NoErr(err)
	is.True(ok)
	defer held.Unlock()
	is.True(errors.Is(s.CheckLock(), ErrBusy)) // held by another
}

// A writer whose state folder is removed while it holds the lock (git
// clean -fdX) lets a newcomer in on a new lock file: it takes the lock
// again before its rename, waiting for the newcomer, and then sees what
// the newcomer wrote, so both records are kept and neither write fails
// (the newcomer swept the first writer's temporary file as left over).
func TestLockTakenAgainWhenItsFolderIsRemoved(t *testing.T) {
	is := is.New(t)
	s := backupStore(t)
	var once sync.Once
	newcomer := make(chan error, 1)
	testStep = func() {
		once.Do(func() {
			is.NoErr(os.RemoveAll(s.StatePath()))
			in := make(chan struct{})
			go func() {
				_, err := s.Update(func(tx *Tx) error {
					close(in)
					time.Sleep(100 * time.Millisecond) // still writing when the first one goes on
					_, _, err := tx.File.Add(memfile.NewEntry{Tier: 2, Importance: 3, Date: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC), Text: "The newcomer's record."})
					return err
				})
				newcomer <- err
			}()
			<-in // the newcomer holds a new lock file
		})
	}
	defer func() { testStep = nil }()
	remember(t, s, "The first writer's record.")
	is.NoErr(<-newcomer)
	memory := read(t, s.Path(memfile.MemoryName))
	is.True(strings.Contains(memory, "The first writer's record."))
	is.True(strings.Contains(memory, "The newcomer's record."))
}
