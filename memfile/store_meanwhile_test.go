package memfile

import (
	"errors"
	"os"
	"testing"
	"time"

	"github.com/matryer/is"
)

// Meanwhile's function runs once, after the transaction function, while
// the file is written: it sees the transaction's File, and Update
// returns only once it has finished, whether the write succeeds or not.
// A transaction function that fails starts nothing.
func TestMeanwhile(t *testing.T) {
	is := is.New(t)
	s, err := OpenStore(t.TempDir(), DefaultConfig(), StoreOptions{LockTimeout: time.Second})
	is.NoErr(err)
	day := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	update := func(text string, fail error) (ran int, saw int, err error) {
		_, err = s.Update(func(tx *Tx) error {
			if _, _, err := tx.File.Remember(NewEntry{Tier: 2, Importance: 3, Date: day, Text: text}, DefaultConfig()); err != nil {
				return err
			}
			f := tx.File
			tx.Meanwhile(func() {
				time.Sleep(20 * time.Millisecond) // finishes after the write: Update must wait
				ran++
				saw = len(f.Entries(2))
			})
			return fail
		})
		return ran, saw, err
	}

	ran, saw, err := update("First.", nil)
	is.NoErr(err)
	is.Equal(ran, 1)
	is.Equal(saw, 1) // the transaction's file

	ran, _, err = update("Second.", errors.New("refused"))
	is.True(err != nil)
	is.Equal(ran, 0) // the transaction failed: nothing was started

	// The write fails (bimri.md is read-only): the function has still run
	// to its end when Update returns the error.
	is.NoErr(os.Chmod(s.Path(MemoryName), 0o444))
	defer os.Chmod(s.Path(MemoryName), 0o644)
	ran, saw, err = update("Third.", nil)
	is.True(errors.Is(err, errReadOnly))
	is.Equal(ran, 1)
	is.Equal(saw, 2)
}
