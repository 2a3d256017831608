//go:build unix

package store

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

// TestUmaskKeepsMemoryPrivate: under umask 077 every file the store
// creates (bimri.md, its backup, the archive, session state, a broken
// file set aside) is readable by its owner only; under 022 they are
// 0644 as before. The umask is the process's: no memfile test runs in
// parallel.
func TestUmaskKeepsMemoryPrivate(t *testing.T) {
	for _, tc := range []struct {
		umask int
		want  fs.FileMode
	}{{0o077, 0o600}, {0o022, 0o644}} {
		t.Run(fs.FileMode(tc.umask).String(), func(t *testing.T) {
			is := is.New(t)
			root := t.TempDir()
			old := syscall.Umask(tc.umask)
			defer syscall.Umask(old)

			s, err := OpenStore(root, memfile.DefaultConfig(), StoreOptions{LockTimeout: time.Second})
			is.NoErr(err)
			today := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
			var id string
			_, err = s.Update(func(tx *Tx) error { // creates bimri.md and state
				e, _, err := tx.File.Remember(memfile.NewEntry{Tier: 2, Importance: 3, Date: today, Text: "Chose SQLite."}, memfile.DefaultConfig())
				id = e.ID
				tx.SetState("session", []byte("{}"))
				return err
			})
			is.NoErr(err)
			_, err = s.Update(func(tx *Tx) error { // creates the backup and the archive
				a, _ := tx.File.Remove(id, "test")
				tx.Archive = append(tx.Archive, a)
				return nil
			})
			is.NoErr(err)
			is.NoErr(os.WriteFile(s.Path(memfile.MemoryName), []byte("\x00 not a memory file"), 0o600))
			long := time.Now().Add(-time.Hour) // no writer is at it
			is.NoErr(os.Chtimes(s.Path(memfile.MemoryName), long, long))
			_, err = s.Update(func(tx *Tx) error { return nil }) // sets the broken file aside
			is.NoErr(err)

			files := []string{s.Path(memfile.MemoryName), s.Path(memfile.BackupName), s.Path(memfile.ArchiveName), s.statePath("session")}
			aside, _ := filepath.Glob(s.Path(memfile.MemoryName) + ".broken-*")
			is.Equal(len(aside), 1)
			files = append(files, aside...)
			for _, f := range files {
				info, err := os.Stat(f)
				is.NoErr(err)
				if f == s.Path(memfile.MemoryName) || f == s.Path(memfile.BackupName) {
					continue // checked below: they were rewritten from a 0600 file
				}
				is.Equal(info.Mode().Perm(), tc.want) // a new file follows the umask
			}
		})
	}
}

// TestNewMemoryFilesFollowTheUmask checks bimri.md and its backup when
// the store creates them.
func TestNewMemoryFilesFollowTheUmask(t *testing.T) {
	for _, tc := range []struct {
		umask int
		want  fs.FileMode
	}{{0o077, 0o600}, {0o022, 0o644}} {
		t.Run(fs.FileMode(tc.umask).String(), func(t *testing.T) {
			is := is.New(t)
			old := syscall.Umask(tc.umask)
			defer syscall.Umask(old)
			s, err := OpenStore(t.TempDir(), memfile.DefaultConfig(), StoreOptions{LockTimeout: time.Second})
			is.NoErr(err)
			today := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
			for _, text := range []string{"First.", "Second."} {
				_, err = s.Update(func(tx *Tx) error {
					_, _, err := tx.File.Remember(memfile.NewEntry{Tier: 2, Importance: 3, Date: today, Text: text}, memfile.DefaultConfig())
					return err
				})
				is.NoErr(err)
			}
			for _, name := range []string{memfile.MemoryName, memfile.BackupName} {
				info, err := os.Stat(s.Path(name))
				is.NoErr(err)
				is.Equal(info.Mode().Perm(), tc.want)
			}
		})
	}
}

// TestReplacedFilesKeepTheirMode: a bimri.md its owner made 0640 stays
// 0640 through a change, and its new backup is no more open than it.
func TestReplacedFilesKeepTheirMode(t *testing.T) {
	is := is.New(t)
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	s, err := OpenStore(t.TempDir(), memfile.DefaultConfig(), StoreOptions{LockTimeout: time.Second})
	is.NoErr(err)
	today := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	add := func(text string) {
		_, err := s.Update(func(tx *Tx) error {
			_, _, err := tx.File.Remember(memfile.NewEntry{Tier: 2, Importance: 3, Date: today, Text: text}, memfile.DefaultConfig())
			return err
		})
		is.NoErr(err)
	}
	add("First.")
	is.NoErr(os.Chmod(s.Path(memfile.MemoryName), 0o600))
	add("Second.")
	for _, name := range []string{memfile.MemoryName, memfile.BackupName} {
		info, err := os.Stat(s.Path(name))
		is.NoErr(err)
		is.Equal(info.Mode().Perm(), fs.FileMode(0o600))
	}
}
