//go:build unix

package store

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

// An edit saved while a transaction writes (an editor saving by rename,
// or in place; git checking a file out) is not renamed away: the write
// sees bimri.md is no longer the file it read, and runs again on it.
func TestEditDuringAWriteIsKept(t *testing.T) {
	for _, how := range []string{"rename", "in place"} {
		t.Run(how, func(t *testing.T) {
			is := is.New(t)
			s := backupStore(t)
			edited := false
			testStep = func() {
				if edited {
					return
				}
				edited = true
				data, err := os.ReadFile(s.Path(memfile.MemoryName))
				is.NoErr(err)
				f, _, err := memfile.Parse(data)
				is.NoErr(err)
				_, _, err = f.Add(memfile.NewEntry{Tier: 2, Importance: 4, Date: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC), Text: "The user's edit."})
				is.NoErr(err)
				if how == "rename" {
					tmp := s.Path("edit.tmp")
					is.NoErr(os.WriteFile(tmp, memfile.Render(f), 0o644))
					is.NoErr(os.Rename(tmp, s.Path(memfile.MemoryName)))
				} else {
					editInPlace(t, s.Path(memfile.MemoryName), string(memfile.Render(f)))
				}
			}
			defer func() { testStep = nil }()
			remember(t, s, "Recorded during the edit.")
			data, err := os.ReadFile(s.Path(memfile.MemoryName))
			is.NoErr(err)
			is.True(strings.Contains(string(data), "The user's edit."))
			is.True(strings.Contains(string(data), "Recorded during the edit."))
			is.True(strings.Contains(string(data), "First."))
		})
	}
}

// An edit in place that lands once the backup has its name (the old
// bimri.md's inode, which the edit changes too) is kept, and the write
// that runs again on it does not stop at a backup that is bimri.md
// itself.
func TestEditInPlaceOnceTheBackupIsNamedIsKept(t *testing.T) {
	is := is.New(t)
	s := backupStore(t)
	steps := 0
	testStep = func() {
		steps++
		if steps != 2 { // finish, the backup in place
			return
		}
		data, err := os.ReadFile(s.Path(memfile.MemoryName))
		is.NoErr(err)
		editInPlace(t, s.Path(memfile.MemoryName), strings.Replace(string(data), "First.", "First, edited in place.", 1))
	}
	defer func() { testStep = nil }()
	remember(t, s, "Recorded during the edit.")
	memory := read(t, s.Path(memfile.MemoryName))
	is.True(strings.Contains(memory, "First, edited in place."))
	is.True(strings.Contains(memory, "Recorded during the edit."))
	is.True(!os.SameFile(stat(t, s.Path(memfile.MemoryName)), stat(t, s.Path(memfile.BackupName))))
}

// A bimri.md that changes on every attempt is left as it is, with an
// error that says so, and each removal is in the archive once however
// often the write had to stop before its rename.
func TestArchiveRecordAppendedOnce(t *testing.T) {
	is := is.New(t)
	s := backupStore(t)
	n := 0
	testStep = func() {
		n++
		f, err := os.OpenFile(s.Path(memfile.MemoryName), os.O_WRONLY|os.O_APPEND, 0)
		is.NoErr(err)
		_, err = f.WriteString("\n")
		is.NoErr(err)
		is.NoErr(f.Close())
	}
	defer func() { testStep = nil }()
	for range 3 { // three runs, each stopped before its rename every time
		_, err := s.Update(func(tx *Tx) error {
			a, ok := tx.File.Remove(tx.File.Entries(2)[0].ID, "test")
			is.True(ok)
			tx.Archive = append(tx.Archive, a)
			return nil
		})
		is.True(err != nil && strings.Contains(err.Error(), "changed"))
	}
	is.True(n >= 3*maxAttempts)
	recs, err := s.ReadArchive()
	is.NoErr(err)
	is.Equal(len(recs), 1)
}

// A side file holds bimri.md's text: with bimri.md at 0600 the archive,
// a set-aside copy and the session state are 0600 too, whatever the
// umask allows.
func TestSideFilesFollowTheMemoryMode(t *testing.T) {
	is := is.New(t)
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	s := backupStore(t)
	is.NoErr(os.Chmod(s.Path(memfile.MemoryName), 0o600))
	_, err := s.Update(func(tx *Tx) error {
		a, _ := tx.File.Remove(tx.File.Entries(2)[0].ID, "test")
		tx.Archive = append(tx.Archive, a)
		tx.SetState("session-x", []byte("{}"))
		return nil
	})
	is.NoErr(err)
	aside, err := s.setAside(s.Path(memfile.MemoryName), []byte("broken"))
	is.NoErr(err)
	aside = s.Path(aside)
	for _, p := range []string{s.Path(memfile.ArchiveName), s.statePath("session-x"), aside} {
		info, err := os.Stat(p)
		is.NoErr(err)
		if info.Mode().Perm() != 0o600 {
			t.Errorf("%s is %04o, bimri.md 0600", filepath.Base(p), info.Mode().Perm())
		}
	}
}
