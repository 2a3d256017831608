package store

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

// An entry left pending without the lock is recorded by the next
// transaction, whatever it does, marked recorded here, and removed once
// bimri.md holds it; the file it waits in holds no secret.
func TestPendingEntryIsRecordedByTheNextTransaction(t *testing.T) {
	is := is.New(t)
	s := backupStore(t)
	day := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	_, err := s.Update(func(tx *Tx) error {
		tx.Maintain(day, memfile.DefaultConfig(), memfile.Options{})
		return nil
	})
	is.NoErr(err)

	secret := "ghp_" + "FAKEq8Rz2LmW7vXc0NbT5yHs3JkD9pGa4UeQ"
	for _, text := range []string{"Session: set up the deploy with " + secret, "Session: a second one"} {
		is.NoErr(s.Pend("session-s1", memfile.NewEntry{Tier: 2, Importance: 2, Date: day, Tags: []string{"auto"}, Text: text}))
	}
	files, _ := filepath.Glob(filepath.Join(s.StatePath(), "pending", "*.json"))
	is.Equal(len(files), 2) // two ends of one session: both kept
	for _, f := range files {
		is.True(!strings.Contains(read(t, f), secret))
	}

	_, err = s.Update(func(tx *Tx) error { return nil }) // a transaction that changes nothing itself
	is.NoErr(err)
	memory := read(t, s.Path(memfile.MemoryName))
	is.True(strings.Contains(memory, "Session: set up the deploy with"))
	is.True(strings.Contains(memory, "Session: a second one"))
	is.True(!strings.Contains(memory, secret))
	_, err = os.Stat(filepath.Join(s.StatePath(), "pending"))
	is.True(os.IsNotExist(err)) // removed, with its folder
	is.Equal(s.Foreign(), nil)  // recorded here

	_, err = s.Update(func(tx *Tx) error { return nil })
	is.NoErr(err)
	is.Equal(strings.Count(read(t, s.Path(memfile.MemoryName)), "Session: a second one"), 1) // once
}

// A transaction that fails leaves the pending entry for the next one.
func TestPendingEntryOutlivesAFailedTransaction(t *testing.T) {
	is := is.New(t)
	s := backupStore(t)
	day := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	is.NoErr(s.Pend("session-s1", memfile.NewEntry{Tier: 2, Importance: 2, Date: day, Text: "Session: kept."}))
	_, err := s.Update(func(tx *Tx) error { return os.ErrInvalid })
	is.True(err != nil)
	is.True(!strings.Contains(read(t, s.Path(memfile.MemoryName)), "Session: kept."))
	remember(t, s, "Next.")
	is.True(strings.Contains(read(t, s.Path(memfile.MemoryName)), "Session: kept."))
}
