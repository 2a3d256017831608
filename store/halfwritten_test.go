//go:build unix

package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

// A bimri.md an editor or git is writing in place, read by a transaction
// halfway (empty, or cut short), is not taken for a broken file: the
// transaction waits for the writer to finish and works on what it wrote.
// The backup (older) is not restored, nothing is set aside, and the edit
// and the transaction's change are both kept.
func TestHalfWrittenFileIsReadOnceWritten(t *testing.T) {
	for _, cut := range []string{"empty", "cut short"} {
		t.Run(cut, func(t *testing.T) {
			is := is.New(t)
			s := backupStore(t)
			remember(t, s, "Second.") // the backup now holds First. only
			data, err := os.ReadFile(s.Path(memfile.MemoryName))
			is.NoErr(err)
			f, _, err := memfile.Parse(data)
			is.NoErr(err)
			_, _, err = f.Add(memfile.NewEntry{Tier: 2, Importance: 4, Date: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC), Text: "The user's edit."})
			is.NoErr(err)
			edit := memfile.Render(f)
			first := 0
			if cut == "cut short" {
				first = len(edit) / 2
			}
			// The writer: the first part now, the rest 80 ms later.
			w, err := os.OpenFile(s.Path(memfile.MemoryName), os.O_WRONLY|os.O_TRUNC, 0)
			is.NoErr(err)
			_, err = w.Write(edit[:first])
			is.NoErr(err)
			done := make(chan error, 1)
			go func() {
				time.Sleep(80 * time.Millisecond)
				_, err := w.Write(edit[first:])
				if cerr := w.Close(); err == nil {
					err = cerr
				}
				done <- err
			}()

			remember(t, s, "Recorded during the edit.")
			is.NoErr(<-done)
			memory := read(t, s.Path(memfile.MemoryName))
			for _, want := range []string{"First.", "Second.", "The user's edit.", "Recorded during the edit."} {
				if !strings.Contains(memory, want) {
					t.Errorf("bimri.md lost %q:\n%s", want, memory)
				}
			}
			aside, _ := filepath.Glob(s.Path(memfile.MemoryName) + ".broken-*")
			is.Equal(len(aside), 0) // never taken for broken
		})
	}
}

// A writer that pauses between creating bimri.md and writing it (git
// checks out by create-then-write; an editor's in-place save truncates
// first) is never overtaken: while the empty or cut file is younger than
// settleQuiet, a transaction leaves it as it is (busy, try later) instead
// of renaming the backup over it, which would send the writer's bytes to
// an unlinked file. Once the writer is done, its bytes and the next
// record are both kept (issue 34, item 11).
func TestSlowWriterIsNeverOvertaken(t *testing.T) {
	for _, cut := range []string{"empty", "cut short"} {
		t.Run(cut, func(t *testing.T) {
			is := is.New(t)
			s := backupStore(t)
			remember(t, s, "Second.")
			data, err := os.ReadFile(s.Path(memfile.MemoryName))
			is.NoErr(err)
			f, _, err := memfile.Parse(data)
			is.NoErr(err)
			_, _, err = f.Add(memfile.NewEntry{Tier: 2, Importance: 4, Date: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC), Text: "A teammate's decision, pulled."})
			is.NoErr(err)
			edit := memfile.Render(f)
			first := 0
			if cut == "cut short" {
				first = len(edit) / 3
			}
			w, err := os.OpenFile(s.Path(memfile.MemoryName), os.O_WRONLY|os.O_TRUNC, 0)
			is.NoErr(err)
			_, err = w.Write(edit[:first])
			is.NoErr(err)
			release := make(chan struct{})
			done := make(chan error, 1)
			go func() {
				<-release // the rest, well after settleMax
				_, err := w.Write(edit[first:])
				if cerr := w.Close(); err == nil {
					err = cerr
				}
				done <- err
			}()
			time.Sleep(settleMax) // a pause longer than the old quiet time
			_, err = s.Update(func(tx *Tx) error {
				_, _, err := tx.File.Remember(memfile.NewEntry{Tier: 2, Importance: 3, Date: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC), Text: "Recorded during the pause."}, memfile.DefaultConfig())
				return err
			})
			is.True(errors.Is(err, ErrBusy)) // try later: the file is still being written
			close(release)
			is.NoErr(<-done)
			remember(t, s, "Recorded after it.")
			memory := read(t, s.Path(memfile.MemoryName))
			for _, want := range []string{"First.", "Second.", "A teammate's decision, pulled.", "Recorded after it."} {
				if !strings.Contains(memory, want) {
					t.Errorf("bimri.md lost %q:\n%s", want, memory)
				}
			}
			aside, _ := filepath.Glob(s.Path(memfile.MemoryName) + ".broken-*")
			is.Equal(len(aside), 0) // never taken for broken
		})
	}
}

// A bimri.md that is broken when read, and replaced by a good one while
// the backup is being put in its place, is kept: the restore never
// renames over a file newer than the one it set aside.
func TestRestoreNeverDiscardsANewerFile(t *testing.T) {
	is := is.New(t)
	s := backupStore(t)
	good := read(t, s.Path(memfile.MemoryName))
	writeLongAgo(t, s.Path(memfile.MemoryName), []byte("\x00\x01 not a memory file\n"))
	newer := strings.Replace(good, "First.", "First, and the newer file's own line.", 1)
	replaced := false
	testStep = func() {
		if replaced {
			return
		}
		replaced = true
		tmp := s.Path("newer.tmp")
		is.NoErr(os.WriteFile(tmp, []byte(newer), 0o644))
		is.NoErr(os.Rename(tmp, s.Path(memfile.MemoryName)))
	}
	defer func() { testStep = nil }()
	remember(t, s, "Recorded after.")
	is.True(replaced)
	memory := read(t, s.Path(memfile.MemoryName))
	is.True(strings.Contains(memory, "the newer file's own line"))
	is.True(strings.Contains(memory, "Recorded after."))
	aside, _ := filepath.Glob(s.Path(memfile.MemoryName) + ".broken-*")
	is.Equal(len(aside), 1) // the broken file as read, kept
	is.True(strings.Contains(read(t, aside[0]), "not a memory file"))
}

// The user's restore does not discard a bimri.md that changes while it
// runs: it reads the file again, and what only that file held is
// archived.
func TestUserRestoreNeverDiscardsANewerFile(t *testing.T) {
	is := is.New(t)
	s := backupStore(t)
	remember(t, s, "Second.")
	replaced := false
	testStep = func() {
		if replaced {
			return
		}
		replaced = true
		data, err := os.ReadFile(s.Path(memfile.MemoryName))
		is.NoErr(err)
		f, _, err := memfile.Parse(data)
		is.NoErr(err)
		_, _, err = f.Add(memfile.NewEntry{Tier: 2, Importance: 4, Date: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC), Text: "Saved during the restore."})
		is.NoErr(err)
		tmp := s.Path("newer.tmp")
		is.NoErr(os.WriteFile(tmp, memfile.Render(f), 0o644))
		is.NoErr(os.Rename(tmp, s.Path(memfile.MemoryName)))
	}
	defer func() { testStep = nil }()
	_, err := s.Restore()
	is.NoErr(err)
	is.True(replaced)
	kept := read(t, s.Path(memfile.BackupName)) + read(t, s.Path(memfile.ArchiveName))
	is.True(strings.Contains(kept, "Saved during the restore."))
}

// A bimri.md that does not read and is still being written when the
// wait is over is left as it is: the transaction is busy, nothing is
// restored or set aside, and the next one reads it again.
func TestFileStillBeingWrittenIsLeftAlone(t *testing.T) {
	is := is.New(t)
	s := backupStore(t)
	// The writer is at it before the transaction reads, and writes
	// again every 10 ms, far inside the 200 ms that would count as done
	// even on a loaded machine.
	editInPlace(t, s.Path(memfile.MemoryName), "x")
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for i := 1; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
			editInPlace(t, s.Path(memfile.MemoryName), strings.Repeat("x", i%7))
		}
	}()
	_, err := s.Update(func(tx *Tx) error { return nil })
	close(stop)
	<-done
	is.True(errors.Is(err, ErrBusy))
	is.True(strings.Contains(err.Error(), "may be writing it"))
	aside, _ := filepath.Glob(s.Path(memfile.MemoryName) + ".broken-*")
	is.Equal(len(aside), 0)
	is.True(strings.HasPrefix(read(t, s.Path(memfile.MemoryName)), "x") || read(t, s.Path(memfile.MemoryName)) == "")
}
