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

// A bimri.md that is, byte for byte, what a pass left today under the
// same config is settled: SessionStart skips its pass, and the
// transaction renders nothing (so a change to File is not written).
// Another day or config, one byte changed, or an entry pending, and it is
// not; the pass that runs then stamps what it leaves.
func TestSettled(t *testing.T) {
	is := is.New(t)
	today := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	cfg := memfile.DefaultConfig()
	s := passStore(t, today.AddDate(0, 0, -3), "Chose PostgreSQL for the invoices.", "Added retries to the upload loop.")
	path := s.Path(memfile.MemoryName)
	update := func(fn func(tx *Tx)) Result {
		res, err := s.Update(func(tx *Tx) error { fn(tx); return nil })
		is.NoErr(err)
		return res
	}
	settled := func(day time.Time, cfg memfile.Config) (ok bool) {
		update(func(tx *Tx) { ok = tx.Settled(day, cfg) })
		return ok
	}
	pass := func() { update(func(tx *Tx) { tx.Maintain(today, cfg, memfile.Options{}) }) }

	is.True(!settled(today, cfg)) // no pass yet
	pass()
	is.True(settled(today, cfg))
	is.True(!settled(today.AddDate(0, 0, 1), cfg))
	other := cfg
	other.DeepEvery++
	is.True(!settled(today, other))

	maintained := read(t, path)
	res := update(func(tx *Tx) {
		is.True(tx.Settled(today, cfg))
		tx.File.Header.Sessions = 99
	})
	is.True(!res.Changed)
	is.Equal(read(t, path), maintained)

	is.NoErr(os.WriteFile(path, []byte(strings.Replace(maintained, "invoices", "Invoices", 1)), 0o644))
	is.True(!settled(today, cfg)) // an editor changed a byte
	pass()
	is.True(settled(today, cfg))

	is.NoErr(s.Pend("s1", memfile.NewEntry{Tier: 2, Importance: 3, Date: today, Text: "Left while the lock was busy."}))
	is.True(!settled(today, cfg)) // recorded in this transaction
	is.True(strings.Contains(read(t, path), "Left while the lock was busy."))
}
