package store

// Writing the memory file: the order of writes, syncs and renames is the
// store's crash-safety promise (see commit).

import (
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

// checkWrite refuses, before anything is written, a change to a bimri.md
// the user made read-only, or through a backup or archive (when one is
// written) that cannot be used.
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

// backupPath is the backup's path once it is fit to be written. A write
// stopped between its two renames leaves the backup a second name of
// bimri.md, which is healed, not refused; another writer (let in when the
// state folder was removed) may be between its renames right now, so it
// heals a few times before it refuses.
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

// commit replaces the memory file at path with data; old is the file as
// it was (nil: no backup), and archive what left it.
//
// The promise: bimri.md is replaced atomically and durably; the backup
// holds the previous file before the new one is in place; what leaves the
// file is in the archive, on disk, before the file without it is. So the
// new file and the archive are written and synced, the backup put in
// place, then the new file, and a folder sync makes both renames durable.
//
// unchanged says whether path is still the file data was made from; asked
// just before the backup and again just before the rename, a no puts
// nothing in place and returns errChanged, as does a temporary file
// swept by another writer.
func (s *Store) commit(path string, data, old []byte, archive []memfile.Removal, unchanged func() bool) error {
	file, err := atomicfile.Write(path, data, atomicfile.Options{NoSync: s.noSync})
	if err != nil {
		return fmt.Errorf("write %s: %w", s.names.Memory, err)
	}
	s.step() // the new file is written, not yet in place
	defer file.Abort()
	if err := s.writeArchive(archive); err != nil {
		return err
	}
	if !unchanged() {
		return errChanged
	}
	dirs := []string{filepath.Dir(path)}
	if old != nil {
		backup, err := s.backup(path, old)
		if err != nil {
			return err
		}
		s.step()
		if err := backup.Commit(); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return errChanged
			}
			return fmt.Errorf("write %s: %w", s.names.Backup, err)
		}
		if d := filepath.Dir(backup.Path()); d != dirs[0] {
			dirs = append(dirs, d)
		}
		s.step() // a kill here leaves the backup a second name of bimri.md: healBackup mends it
	}
	if !unchanged() {
		if old != nil {
			// The backup is bimri.md's inode under a second name, and an
			// edit in place since changed both: make it a copy of its own.
			if err := s.healBackup(); err != nil {
				return err
			}
		}
		return errChanged
	}
	if err := file.Commit(); err != nil {
		if old != nil {
			_ = s.healBackup()
		}
		if errors.Is(err, fs.ErrNotExist) {
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

// backup readies the backup of the memory file at path, whose bytes are
// old, to be renamed in place just before the new memory file is: the
// memory file's own inode under the backup's name (a hard link, no copy),
// which nothing written to the new bimri.md reaches. Where no link can be
// made, or bimri.md has other names (an edit through one would change the
// backup), it is a synced copy.
func (s *Store) backup(path string, old []byte) (*atomicfile.Pending, error) {
	target, err := s.backupPath()
	if err != nil {
		return nil, err
	}
	opt := atomicfile.Options{NoSync: s.noSync}
	if p, err := atomicfile.Link(path, target, opt); err == nil {
		return p, nil
	}
	if info, err := os.Stat(path); err == nil {
		opt.NewPerm = info.Mode().Perm() // no more open than the file it copies
	}
	p, err := atomicfile.Write(target, old, opt)
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", s.names.Backup, err)
	}
	return p, nil
}

// healBackup makes a backup that is bimri.md's own inode under a second
// name (a write killed between its renames, or a user's hard link) a copy
// of its own, so that an edit of bimri.md in place cannot change it.
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

// The crash tests stop a write between its steps: testPause and testKill
// are set only with -tags bimritest (testhook_bimritest.go), testStep by
// the store's own tests.
var (
	testPause time.Duration
	testStep  func()
	testKill  func()
)

// step is a point between two steps of a write.
func (s *Store) step() {
	s.pauseStep()
	if testStep != nil {
		testStep()
	}
}

// pauseStep is a step the store's own tests do not stop at (the
// journal's append).
func (s *Store) pauseStep() {
	if testPause > 0 {
		time.Sleep(testPause)
	}
	if testKill != nil {
		testKill()
	}
}

// removeTemps deletes the temporary files a process killed mid-write left.
func (s *Store) removeTemps() {
	atomicfile.RemoveTemps(s.root)
	atomicfile.RemoveTemps(s.StatePath())
	atomicfile.RemoveTemps(s.pendingPath())
}
