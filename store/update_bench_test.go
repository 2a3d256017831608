package store

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
)

// benchStore is a store on a default-budget bimri.md (16 KB), without
// fsync, so a benchmark measures the store's own work, not the disk's.
func benchStore(b *testing.B) *Store {
	day := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	f := memfile.New(memfile.DefaultConfig())
	for i := 0; len(memfile.Render(f)) < 16<<10; i++ {
		f.Add(memfile.NewEntry{Tier: 2, Importance: 1 + i%5, Date: day.AddDate(0, 0, -i%30), Tags: []string{"bench", fmt.Sprint("t", i%7)},
			Text: fmt.Sprintf("Entry %d: %s", i, strings.Repeat("the store writes its file ", 6))})
	}
	dir := b.TempDir()
	os.WriteFile(filepath.Join(dir, memfile.MemoryName), memfile.Render(f), 0o644)
	s, err := OpenStore(dir, memfile.DefaultConfig(), StoreOptions{LockTimeout: time.Second, NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkUpdateUnchanged is a transaction that leaves the file as it
// is (most Stops); BenchmarkUpdateChanged one that rewrites it.
func BenchmarkUpdateUnchanged(b *testing.B) {
	s := benchStore(b)
	for b.Loop() {
		if _, err := s.Update(func(tx *Tx) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUpdateChanged(b *testing.B) {
	s := benchStore(b)
	i := 0
	for b.Loop() {
		i++
		if _, err := s.Update(func(tx *Tx) error {
			tx.File.Header.Sessions = i
			return nil
		}); err != nil {
			b.Fatal(err)
		}
	}
}
