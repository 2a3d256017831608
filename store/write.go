package store

// Writing the memory file is apart from the transaction because its
// order is the store's crash-safety promise (see commit): a reader
// checking what a kill at any step leaves needs this file alone. The
// test-only pauses between steps (step) live here for the same reason.

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store/atomicfile"
	"github.com/bimri/bimri-hook/store/safefile"
)

// checkWrite refuses, before anything is written, a change the store must
// not make: to a bimri.md the user made read-only, or through a backup
// or archive (when archive says one is written) that cannot be used.
func (s *Store) checkWrite(path string, archive bool) error {
	if err := readOnly(path, s.names.Memory); err != nil {
		return err
	}
	if _, err := s.backupPath(); err != nil {
		return err
	}
	if archive {
		if _, err := s.sidePath(s.names.Archive); err != nil {
			return err
		}
	}
	return nil
}

// backupPath is the backup's path, once it is fit to be written: a write
// stopped after giving the old file the backup's name (this
// transaction's attempt before, or a writer that was let in when the
// state folder was removed) leaves the backup a second name of bimri.md,
// which is made a copy of its own, not refused. A writer let in that way
// can also be between its two renames right now, and give bimri.md the
// backup's name again just after the heal: so it heals again, a few
// times, before it refuses (a symlink to bimri.md, which no heal mends).
func (s *Store) backupPath() (string, error) {
	for try := 1; ; try++ {
		if err := s.healBackup(); err != nil {
			return "", err
		}
		path, err := s.sidePath(s.names.Backup)
		if err == nil || try == 3 {
			return path, err
		}
	}
}

// newFile is the file a transaction leaves, as render writes it: its
// bytes are compared with old (the file as read; nil when there was
// none) as they come, and only from the first that differs are they
// written, to a temporary file start makes. So an unchanged file is
// never written, and a changed one is never held whole in memory.
type newFile struct {
	name    string // the file's, for errors
	old     []byte
	changed bool // differs from old (or there is no old)
	// start checks that the file may be written and makes the temporary
	// file, each error saying what went wrong in the user's terms.
	start func() (*atomicfile.Pending, error)

	file *atomicfile.Pending // the new file, written, once changed
	size int                 // the bytes rendered so far
}

// render writes f through n: afterwards n.file is the new file, written
// but not synced, or nil when f renders as old. On an error nothing is
// left behind.
func (n *newFile) render(f *memfile.File) error {
	err := memfile.RenderTo(f, n.write)
	if err == nil && n.file == nil && (n.changed || n.size != len(n.old)) {
		err = n.begin() // f renders as a part of old, or there was none
	}
	if err != nil && n.file != nil {
		n.file.Abort()
		n.file = nil
	}
	return err
}

func (n *newFile) write(piece []byte) error {
	if n.file == nil {
		end := n.size + len(piece)
		if !n.changed && end <= len(n.old) && bytes.Equal(piece, n.old[n.size:end]) {
			n.size = end
			return nil
		}
		if err := n.begin(); err != nil {
			return err
		}
	}
	n.size += len(piece)
	return n.put(piece)
}

// begin starts the temporary file with the part of old render has
// matched so far.
func (n *newFile) begin() error {
	n.changed = true
	file, err := n.start()
	if err != nil {
		return err
	}
	n.file = file
	return n.put(n.old[:n.size])
}

func (n *newFile) put(data []byte) error {
	if err := n.file.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", n.name, err)
	}
	return nil
}

// commit puts file, a replacement of the memory file at path written but
// not synced, in place, old being the file as it was (nil when there was
// none: no backup is taken), and first adds archive to the archive. It
// ends file, whatever happens. The promise: bimri.md is replaced
// atomically and durably; the backup holds the previous file before the
// new one is in place; what leaves the file is in the archive, on disk,
// before the file without it is. So: the archive's records are written
// after the new file (the order of unsynced writes makes no difference
// to what a crash can leave: nothing is renamed before both are synced),
// then the two are synced one after the other (the first sync's journal
// commit carries the other's metadata, so the second costs less); the
// backup is put in place, then the new file; one folder sync makes both
// renames durable when the files share a folder, as they do unless a
// symlink says otherwise.
//
// unchanged (nil: no check) says whether path is still the file the new
// one was made from; when it says no, just before the backup is taken
// and again just before the rename, nothing is put in place and commit
// returns errChanged.
func (s *Store) commit(path string, old []byte, file *atomicfile.Pending, archive []memfile.Removal, unchanged func() bool) error {
	arc, err := s.writeArchive(archive)
	if err != nil {
		file.Abort()
		return err
	}
	defer arc.close()
	s.step()
	if err := arc.sync(); err != nil {
		file.Abort()
		return err
	}
	if err := file.Sync(); err != nil {
		file.Abort()
		return fmt.Errorf("write %s: %w", s.names.Memory, err)
	}
	dirs := []string{filepath.Dir(path)}
	if unchanged != nil && !unchanged() {
		file.Abort()
		return errChanged
	}
	if old != nil {
		backup, err := s.backup(path, old)
		if err != nil {
			file.Abort()
			return err
		}
		s.step()
		if err := backup.Commit(); err != nil {
			file.Abort()
			if swept(err, unchanged) {
				return errChanged
			}
			return fmt.Errorf("write %s: %w", s.names.Backup, err)
		}
		if d := filepath.Dir(backup.Path()); d != dirs[0] {
			dirs = append(dirs, d)
		}
		// A kill here leaves the backup as the memory file's own inode
		// under a second name: healBackup mends it next time.
		s.step()
	}
	if unchanged != nil && !unchanged() {
		file.Abort()
		if old != nil {
			// The backup is bimri.md's inode under a second name now, and
			// an edit made in place since changed both: it becomes a
			// copy of its own before the transaction runs again, which
			// would otherwise refuse a backup that is bimri.md itself.
			if err := s.healBackup(); err != nil {
				return err
			}
		}
		return errChanged
	}
	if err := file.Commit(); err != nil {
		if old != nil {
			_ = s.healBackup() // the backup may be bimri.md's second name now
		}
		if swept(err, unchanged) {
			return errChanged
		}
		return fmt.Errorf("write %s: %w", s.names.Memory, err)
	}
	if !s.noSync {
		for _, d := range dirs {
			atomicfile.SyncDir(d)
		}
	}
	return nil
}

// swept says whether a rename failed because its temporary file is gone:
// a writer that took a new lock file after the state folder was removed
// (see Update) swept it as left over (an older bimri-hook, whose
// sweep did not spare a live writer's file; or anyone's rm). The
// transaction then runs
// again, under the lock taken again, rather than failing. Only for a
// transaction (unchanged is not nil).
func swept(err error, unchanged func() bool) bool {
	return unchanged != nil && errors.Is(err, fs.ErrNotExist)
}

// backup readies the backup of the memory file at path, whose bytes are
// old, to be renamed in place just before the new memory file is. It is
// the memory file's own inode under the backup's name (a hard link),
// which costs no copy and, past the rename that replaces bimri.md, is
// the backup's alone: bimri-hook always replaces bimri.md by a rename,
// so nothing it writes reaches that inode again, and an edit of the new
// bimri.md in place (an editor, an agent's tool) changes the new inode
// only. Where a link cannot be made, or bimri.md has other names (a link
// the user made: an edit through it would change the backup), the
// backup is a synced copy of old instead. Either way its data is on disk
// before its name is: after a power cut it is the previous memory, never
// an empty file.
func (s *Store) backup(path string, old []byte) (*atomicfile.Pending, error) {
	target, err := s.backupPath()
	if err != nil {
		return nil, err
	}
	if p, err := atomicfile.Link(path, target, atomicfile.Options{NoSync: s.noSync}); err == nil {
		return p, nil
	}
	// A new backup is no more open than the memory file it copies.
	opt := atomicfile.Options{NoSync: s.noSync, Between: s.step}
	if info, err := os.Stat(path); err == nil {
		opt.NewPerm = info.Mode().Perm()
	}
	p, err := atomicfile.Write(target, old, opt)
	if err == nil {
		if err = p.Sync(); err != nil {
			p.Abort()
		}
	}
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", s.names.Backup, err)
	}
	return p, nil
}

// healBackup mends what a write killed between its two renames leaves
// (see commit): the backup as bimri.md's own inode under a second name.
// The backup then holds the file as it is, which is right, as the write
// never happened; but an edit of bimri.md in place would change the
// backup too. So, under the lock and before anything else, the backup
// becomes a copy of its own. (The same mends a hard link the user made.)
func (s *Store) healBackup() error {
	backup := s.Path(s.names.Backup)
	info, err := os.Lstat(backup)
	if err != nil || !info.Mode().IsRegular() {
		return nil // none, or a symlink: checkWrite judges those
	}
	mem, err := os.Stat(s.Path(s.names.Memory))
	if err != nil || !os.SameFile(info, mem) {
		return nil
	}
	data, err := safefile.Read(backup, memfile.MaxMemorySize)
	if err == nil {
		err = atomicfile.WriteFile(backup, data, atomicfile.Options{NoSync: s.noSync})
	}
	if err != nil {
		return fmt.Errorf("%s is a second name of %s, and could not be made a copy of its own: %w", s.names.Backup, s.names.Memory, err)
	}
	return nil
}

// testPause is the pause between write steps of every store. It is zero
// in bimri-hook's own builds; testhook_bimritest.go sets it in a binary
// built with -tags bimritest, which the crash tests kill mid-write.
var testPause time.Duration

// testStep, when a memfile test sets it, runs at every write step, so
// the test can change the files there. Nil otherwise.
var testStep func()

// testKill, in a test build (testhook_bimritest.go), ends the process at
// the write step it was asked to (BIMRI_TEST_STORE_KILL_AT). Nil
// otherwise.
var testKill func()

// step is the test-only pause between write steps.
func (s *Store) step() {
	s.pauseStep()
	if testStep != nil {
		testStep()
	}
}

// pauseStep is a step that only test builds see: the pause and the kill,
// not testStep (the journal's write, which store tests do not step
// through).
func (s *Store) pauseStep() {
	if s.pause > 0 {
		time.Sleep(s.pause)
	}
	if testKill != nil {
		testKill()
	}
}

// removeTemps deletes temporary files left by a process killed mid-write.
// It runs under the lock, so no live writer owns them.
func (s *Store) removeTemps() {
	atomicfile.RemoveTemps(s.root)
	atomicfile.RemoveTemps(s.StatePath())
	atomicfile.RemoveTemps(s.pendingPath())
}

// syncFile flushes f to the disk unless the store does without.
func syncFile(f *os.File, sync bool) error {
	if !sync {
		return nil
	}
	return f.Sync()
}
