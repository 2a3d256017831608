package store

// Helpers the store's tests share, on every platform (some of the tests
// that use them are unix-only, some are not).

import (
	"os"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

// backupStore is a store with one entry written, so the next change
// takes a backup. Writes are synced, as a hook's are.
func backupStore(t *testing.T) *Store {
	t.Helper()
	s, err := OpenStore(t.TempDir(), memfile.DefaultConfig(), StoreOptions{LockTimeout: time.Second})
	is.New(t).NoErr(err)
	remember(t, s, "First.")
	return s
}

func remember(t *testing.T, s *Store, text string) {
	t.Helper()
	_, err := s.Update(func(tx *Tx) error {
		_, _, err := tx.File.Remember(memfile.NewEntry{Tier: 2, Importance: 3, Date: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC), Text: text}, memfile.DefaultConfig())
		return err
	})
	is.New(t).NoErr(err)
}

func read(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	is.New(t).NoErr(err)
	return string(data)
}

func stat(t *testing.T, path string) os.FileInfo {
	t.Helper()
	info, err := os.Stat(path)
	is.New(t).NoErr(err)
	return info
}

// writeLongAgo writes data to path and dates it an hour back: a file no
// writer is at any more, which a transaction may take for broken.
func writeLongAgo(t *testing.T, path string, data []byte) {
	t.Helper()
	is := is.New(t)
	is.NoErr(os.WriteFile(path, data, 0o644))
	old := time.Now().Add(-time.Hour)
	is.NoErr(os.Chtimes(path, old, old))
}
