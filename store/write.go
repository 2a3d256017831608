package store

// The order of writes, syncs and renames in commit is the store's
// crash-safety promise.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store/safefile"
)

// backupPath is the backup's path once it is fit to be written: a second
// name of bimri.md is healed, a few times, as another writer (let in when
// the state folder was removed) may be between its renames right now.
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

// commit replaces bimri.md at path with data, made from read (nil: no
// file), atomically and durably: the backup holds old (nil: none) and the
// archive what left the file before the new file is in place. unchanged
// (asked before the backup and the rename) says path is still read, as
// the rename itself does where it can; a no, or a temporary file swept by
// another writer, is errChanged. A read-only bimri.md, or an unusable
// backup or archive, is refused before any write.
func (s *Store) commit(path string, data, read, old []byte, archive []memfile.Removal, unchanged func() bool) error {
	if err := readOnly(path, s.names.Memory); err != nil {
		return err
	}
	if _, err := s.backupPath(); err != nil && old != nil {
		return err
	}
	if _, err := s.sidePath(s.names.Archive); err != nil && len(archive) > 0 {
		return err
	}
	file, err := safefile.Write(path, data, safefile.Options{NoSync: s.noSync})
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
		if d := filepath.Dir(backup); d != dirs[0] {
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
	if err := file.CommitOver(read); err != nil {
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
			safefile.SyncDir(d)
		}
	}
	return nil
}

// backup puts old, bimri.md at path, in place as the backup and returns
// its path: bimri.md's inode by a hard link (no copy, no sync), or a
// synced copy where no link can be made or bimri.md has other names.
func (s *Store) backup(path string, old []byte) (string, error) {
	target, err := s.backupPath()
	if err != nil {
		return "", err
	}
	opt := safefile.Options{NoSync: s.noSync}
	if safefile.Link(path, target, opt) == nil {
		return target, nil
	}
	if info, err := os.Stat(path); err == nil {
		opt.NewPerm = info.Mode().Perm() // no more open than the file it copies
	}
	p, err := safefile.Write(target, old, opt) // its folder is synced with bimri.md's
	if err == nil {
		err = p.Commit()
	}
	if errors.Is(err, fs.ErrNotExist) {
		return "", errChanged // a temporary file swept by another writer
	}
	if err != nil {
		return "", fmt.Errorf("write %s: %w", s.names.Backup, err)
	}
	return target, nil
}

// healBackup makes a backup that is bimri.md's own inode (a write killed
// between its renames, a user's hard link) a copy, so an edit of bimri.md
// in place cannot change it.
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
		err = safefile.WriteFile(backup, data, safefile.Options{NoSync: s.noSync})
	}
	if err != nil {
		return fmt.Errorf("%s is a second name of %s, and could not be made a copy of its own: %w", s.names.Backup, s.names.Memory, err)
	}
	return nil
}

// The crash tests stop a write between its steps: testKill (with -tags
// bimritest: a pause, or kill -9) at every step, testStep (the store's
// own tests) at all but pauseStep's.
var testKill, testStep func()

// step is a point between two steps of a write.
func (s *Store) step() {
	s.pauseStep()
	if testStep != nil {
		testStep()
	}
}

func (s *Store) pauseStep() {
	if testKill != nil {
		testKill()
	}
}

// removeTemps deletes the temporary files a process killed mid-write left.
func (s *Store) removeTemps() {
	safefile.RemoveTemps(s.root)
	safefile.RemoveTemps(s.StatePath())
	safefile.RemoveTemps(s.pendingPath())
}
