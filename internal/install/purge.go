package install

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
)

// Purge removes the memory's side files from the workspace at root: the
// backup, the archive and the state folder (lock and sessions' state).
// bimri.md itself is never removed: it is the user's to delete. removed
// lists what was there and is gone.
func Purge(root string) (removed []string, err error) {
	for _, name := range []string{memfile.BackupName, memfile.ArchiveName, store.StateDir} {
		path := filepath.Join(root, filepath.FromSlash(name))
		if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err := os.RemoveAll(path); err != nil {
			return removed, fmt.Errorf("--purge: remove %s: %w", path, err)
		}
		removed = append(removed, path)
	}
	return removed, nil
}

// PrintPurged says what uninstall --purge removed, and that bimri.md
// stays.
func PrintPurged(w io.Writer, root string, removed []string) {
	for _, path := range removed {
		fmt.Fprintf(w, "purge: removed %s\n", path)
	}
	if len(removed) == 0 {
		fmt.Fprintln(w, "purge: no backup, archive or state folder to remove")
	}
	memory := filepath.Join(root, memfile.MemoryName)
	if _, err := os.Stat(memory); err == nil {
		fmt.Fprintf(w, "kept %s: the memory itself is yours to delete (rm %s)\n", memory, memfile.MemoryName)
	}
}
