package store

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
)

// Purge waits for the lock as every writer does: while another holds it,
// it gives up after the store's wait and removes nothing.
func TestPurgeTakesTheLock(t *testing.T) {
	root := t.TempDir()
	for _, name := range []string{memfile.MemoryName, memfile.BackupName, memfile.ArchiveName} {
		if err := os.WriteFile(filepath.Join(root, name), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := OpenStore(root, memfile.DefaultConfig(), StoreOptions{LockTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	unlock, _, err := s.lock()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Purge(); !errors.Is(err, ErrBusy) {
		t.Fatalf("Purge with the lock held: %v, want ErrBusy", err)
	}
	if _, err := os.Stat(filepath.Join(root, memfile.BackupName)); err != nil {
		t.Fatalf("the backup went while the lock was held: %v", err)
	}
	unlock()
	removed, err := s.Purge()
	if err != nil || len(removed) != 3 {
		t.Fatalf("Purge = %v, %v; want the backup, the archive and the state folder", removed, err)
	}
	if _, err := os.Stat(filepath.Join(root, memfile.MemoryName)); err != nil {
		t.Fatalf("bimri.md went: %v", err)
	}
}
