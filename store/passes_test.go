package store

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

// passStore is a store on a bimri.md holding texts, as Tier 2 entries of
// importance 4 dated day.
func passStore(t *testing.T, day time.Time, texts ...string) *Store {
	t.Helper()
	is := is.New(t)
	f := memfile.New(memfile.DefaultConfig())
	for _, text := range texts {
		_, _, err := f.Add(memfile.NewEntry{Tier: 2, Importance: 4, Date: day, Tags: []string{"long"}, Text: text})
		is.NoErr(err)
	}
	dir := t.TempDir()
	is.NoErr(os.WriteFile(filepath.Join(dir, memfile.MemoryName), memfile.Render(f), 0o644))
	s, err := OpenStore(dir, memfile.DefaultConfig(), StoreOptions{LockTimeout: time.Second})
	is.NoErr(err)
	return s
}

// A second pass on the same day, in a transaction of its own, leaves
// bimri.md as the first wrote it: the store writes nothing.
func TestRepeatedPassWritesNothing(t *testing.T) {
	is := is.New(t)
	today := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	s := passStore(t, today.AddDate(0, 0, -3), "Chose PostgreSQL for the invoices.", "Added retries to the upload loop.")
	pass := func() (Result, memfile.Report) {
		var rep memfile.Report
		res, err := s.Update(func(tx *Tx) error {
			rep = tx.Maintain(today, memfile.DefaultConfig(), memfile.Options{})
			return nil
		})
		is.NoErr(err)
		return res, rep
	}
	res, _ := pass()
	is.True(res.Changed) // the first pass weighs the entries
	maintained := read(t, s.Path(memfile.MemoryName))
	res, rep := pass()
	is.True(!res.Changed)
	is.Equal(len(rep.Removed), 0)
	is.Equal(read(t, s.Path(memfile.MemoryName)), maintained)
}
