//go:build unix

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

// editInPlace rewrites a file through its own inode, as an editor that
// does not write by rename, or an agent's file tool, does.
func editInPlace(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	is.New(t).NoErr(err)
	_, err = f.WriteString(text)
	is.New(t).NoErr(err)
	is.New(t).NoErr(f.Close())
}

// The backup is the replaced bimri.md's own inode, not a copy, and it is
// the backup's alone: an edit of the new bimri.md in place leaves it as
// it was.
func TestBackupIsTheReplacedFile(t *testing.T) {
	is := is.New(t)
	s := backupStore(t)
	before, inode := read(t, s.Path(memfile.MemoryName)), stat(t, s.Path(memfile.MemoryName))

	remember(t, s, "Second.")
	is.Equal(read(t, s.Path(memfile.BackupName)), before)
	is.True(os.SameFile(stat(t, s.Path(memfile.BackupName)), inode)) // linked, not copied
	is.True(!os.SameFile(stat(t, s.Path(memfile.BackupName)), stat(t, s.Path(memfile.MemoryName))))

	editInPlace(t, s.Path(memfile.MemoryName), "edited in place\n")
	is.Equal(read(t, s.Path(memfile.BackupName)), before) // the backup did not follow the edit
	left, _ := filepath.Glob(s.Path(".bimri-tmp-*"))
	is.Equal(len(left), 0)
}

// A bimri.md with another name the user gave it (a hard link kept
// elsewhere) is backed up by a copy: a link would make the backup one
// file with that other name, and an edit through it would change the
// backup.
func TestBackupOfAFileWithOtherNamesIsACopy(t *testing.T) {
	is := is.New(t)
	s := backupStore(t)
	mirror := filepath.Join(t.TempDir(), "mirror.md")
	if err := os.Link(s.Path(memfile.MemoryName), mirror); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	before := read(t, s.Path(memfile.MemoryName))

	remember(t, s, "Second.")
	is.Equal(read(t, s.Path(memfile.BackupName)), before)
	is.True(!os.SameFile(stat(t, s.Path(memfile.BackupName)), stat(t, mirror)))
	editInPlace(t, mirror, "edited through the other name\n")
	is.Equal(read(t, s.Path(memfile.BackupName)), before)
}

// A write killed between its two renames (the backup in place, the new
// bimri.md not yet) leaves the backup as bimri.md's second name. The next
// transaction, even one that writes nothing, makes it a copy of its own,
// so an edit of bimri.md in place cannot change it; Restore does too.
func TestBackupLeftAsASecondNameIsMended(t *testing.T) {
	for _, next := range []struct {
		name string
		run  func(*Store) error
	}{
		{"an update that writes nothing", func(s *Store) error {
			_, err := s.Update(func(*Tx) error { return nil })
			return err
		}},
		{"restore", func(s *Store) error { _, err := s.Restore(); return err }},
	} {
		t.Run(next.name, func(t *testing.T) {
			is := is.New(t)
			s := backupStore(t)
			remember(t, s, "Second.")
			current := read(t, s.Path(memfile.MemoryName))
			// What the kill leaves: the backup is bimri.md's inode.
			is.NoErr(os.Remove(s.Path(memfile.BackupName)))
			is.NoErr(os.Link(s.Path(memfile.MemoryName), s.Path(memfile.BackupName)))

			is.NoErr(next.run(s))
			is.True(!os.SameFile(stat(t, s.Path(memfile.BackupName)), stat(t, s.Path(memfile.MemoryName))))
			is.Equal(read(t, s.Path(memfile.BackupName)), current)
			editInPlace(t, s.Path(memfile.MemoryName), "edited in place\n")
			is.Equal(read(t, s.Path(memfile.BackupName)), current)
		})
	}
}

// Restore puts the backup back and makes the replaced file the backup,
// by the same link: a second restore undoes the first.
func TestRestoreSwapsByLink(t *testing.T) {
	is := is.New(t)
	s := backupStore(t)
	first := read(t, s.Path(memfile.MemoryName))
	remember(t, s, "Second.")
	second := read(t, s.Path(memfile.MemoryName))

	res, err := s.Restore()
	is.NoErr(err)
	is.Equal(read(t, s.Path(memfile.MemoryName)), first)
	is.Equal(read(t, s.Path(memfile.BackupName)), second)
	// "Second." is only in the file replaced: archived, and the user told.
	is.Equal(res.Notice, "archived 1 item(s) that only the replaced bimri.md held")
	is.True(strings.Contains(read(t, s.Path(memfile.ArchiveName)), "Second."))
	_, err = s.Restore()
	is.NoErr(err)
	is.Equal(read(t, s.Path(memfile.MemoryName)), second)
	is.Equal(read(t, s.Path(memfile.BackupName)), first)
}

// When the new bimri.md cannot be renamed in place after the backup was
// (here its temporary file vanished), the backup is not left as
// bimri.md's second name: it is mended at once, and bimri.md is as it was.
func TestFailedRenameMendsTheLinkedBackup(t *testing.T) {
	is := is.New(t)
	s := backupStore(t)
	before := read(t, s.Path(memfile.MemoryName))
	steps := 0
	testStep = func() {
		steps++
		if !sameFileAt(s.Path(memfile.BackupName), s.Path(memfile.MemoryName)) {
			return
		}
		// The backup is in place: take away the new file's temporary.
		temps, _ := filepath.Glob(s.Path(".bimri-tmp-*"))
		for _, tmp := range temps {
			is.NoErr(os.Remove(tmp))
		}
	}
	defer func() { testStep = nil }()

	_, err := s.Update(func(tx *Tx) error {
		_, _, err := tx.File.Remember(memfile.NewEntry{Tier: 2, Importance: 3, Date: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC), Text: "Second."}, memfile.DefaultConfig())
		return err
	})
	is.True(err != nil) // the rename failed
	is.True(steps > 0)
	is.Equal(read(t, s.Path(memfile.MemoryName)), before)
	is.Equal(read(t, s.Path(memfile.BackupName)), before)
	is.True(!sameFileAt(s.Path(memfile.BackupName), s.Path(memfile.MemoryName))) // mended at once
}

func sameFileAt(a, b string) bool {
	ia, errA := os.Stat(a)
	ib, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(ia, ib)
}
