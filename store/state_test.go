package store

import (
	"os"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

// A state blob set to the bytes it already holds is not written again
// (its file keeps its inode: a write replaces it by a rename); one that
// changes is.
func TestUnchangedStateIsNotRewritten(t *testing.T) {
	is := is.New(t)
	s, err := OpenStore(t.TempDir(), memfile.DefaultConfig(), StoreOptions{LockTimeout: time.Second, NoSync: true})
	is.NoErr(err)
	set := func(data string) {
		_, err := s.Update(func(tx *Tx) error {
			tx.State("session")
			tx.SetState("session", []byte(data))
			return nil
		})
		is.NoErr(err)
	}
	set(`{"counted":true}`)
	before, err := os.Stat(s.statePath("session"))
	is.NoErr(err)

	set(`{"counted":true}`)
	same, err := os.Stat(s.statePath("session"))
	is.NoErr(err)
	is.True(os.SameFile(before, same)) // not replaced

	set(`{"counted":false}`)
	is.Equal(string(s.ReadState("session")), `{"counted":false}`)
}

// The lock makes the state folder when a transaction begins, and state
// writes do not check it again; one that has gone by then is made again.
func TestStateFolderGoneMidTransaction(t *testing.T) {
	is := is.New(t)
	s, err := OpenStore(t.TempDir(), memfile.DefaultConfig(), StoreOptions{LockTimeout: time.Second, NoSync: true})
	is.NoErr(err)
	_, err = s.Update(func(tx *Tx) error {
		is.NoErr(os.RemoveAll(s.StatePath()))
		tx.SetState("session", []byte(`{"counted":true}`))
		return nil
	})
	is.NoErr(err)
	is.Equal(string(s.ReadState("session")), `{"counted":true}`)
}
