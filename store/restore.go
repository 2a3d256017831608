package store

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store/safefile"
)

// recover sets aside a bimri.md that is not a memory file and puts the
// backup, if it reads, or a fresh file in its place.
func (s *Store) recover(path string, broken []byte, cause error, tx *Tx) error {
	if err := readOnly(path, s.names.Memory); err != nil {
		return fmt.Errorf("%s is unreadable (%v) and %w", s.names.Memory, cause, err)
	}
	aside, err := s.setAside(path, broken)
	if err != nil {
		return fmt.Errorf("%s is unreadable (%v) and could not be set aside: %w", s.names.Memory, cause, err)
	}
	tx.File, tx.Warnings = memfile.New(s.config), nil
	did := " and there was no readable backup; started a fresh file"
	if backup, err := safefile.Read(s.Path(s.names.Backup), memfile.MaxMemorySize); err == nil {
		if f, warnings, _, perr := memfile.ParseStored(backup); perr == nil {
			tx.File, tx.Warnings, did = f, warnings, "; restored it from "+s.names.Backup
		}
	}
	tx.Notice = fmt.Sprintf("%s was unreadable (%v)%s and kept the broken copy as %s", s.names.Memory, cause, did, aside)
	err = s.commit(path, memfile.Render(tx.File), broken, nil, nil, func() bool { return unchanged(path, broken) })
	if err != nil && !errors.Is(err, errChanged) {
		return fmt.Errorf("replace unreadable %s: %w", s.names.Memory, err)
	}
	return err
}

// setAside keeps a copy of a broken file beside it, named by the time,
// then -2, -3..., unless a copy of the same bytes is there already; it
// returns the copy's name.
func (s *Store) setAside(path string, broken []byte) (string, error) {
	dir, prefix := filepath.Dir(path), filepath.Base(path)+".broken-"
	list, _ := os.ReadDir(dir)
	for _, e := range list {
		if info, err := e.Info(); err != nil || !strings.HasPrefix(e.Name(), prefix) || !info.Mode().IsRegular() || info.Size() != int64(len(broken)) {
			continue
		}
		if got, err := safefile.Read(filepath.Join(dir, e.Name()), memfile.MaxMemorySize); err == nil && bytes.Equal(got, broken) {
			return e.Name(), nil
		}
	}
	stamp := path + ".broken-" + s.now().UTC().Format("20060102-150405")
	for n := 1; n <= 1000; n++ {
		aside := stamp
		if n > 1 {
			aside = fmt.Sprintf("%s-%d", stamp, n)
		}
		f, err := os.OpenFile(aside, os.O_WRONLY|os.O_CREATE|os.O_EXCL, s.sideMode())
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		_, err = f.Write(broken)
		if err == nil && !s.noSync {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			_ = os.Remove(aside)
			return "", err
		}
		return filepath.Base(aside), nil
	}
	return "", fmt.Errorf("1000 copies named %s-N already exist", filepath.Base(stamp))
}

// Restore puts the backup back as bimri.md; the current file becomes the
// backup, and what only it holds is archived (or it is set aside).
func (s *Store) Restore() (Result, error) {
	unlock, _, err := s.lock()
	if err != nil {
		return Result{}, err
	}
	defer unlock()
	backupPath, err := s.backupPath()
	if err != nil {
		return Result{}, err
	}
	backup, err := safefile.Read(backupPath, memfile.MaxMemorySize)
	if err != nil {
		return Result{}, fmt.Errorf("no backup to restore: %w", err)
	}
	restored, _, err := memfile.Parse(backup)
	if err != nil {
		return Result{}, fmt.Errorf("%s: %w", s.names.Backup, err)
	}
	path, err := s.safePath(s.names.Memory)
	if err != nil {
		return Result{}, err
	}
	if err := readOnly(path, s.names.Memory); err != nil {
		return Result{}, err // before anything is set aside
	}
	return s.retry("during the restore", func() (Result, error) {
		res := Result{Changed: true}
		current, err := safefile.Read(path, memfile.MaxMemorySize) // nil: none
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return res, fmt.Errorf("read %s: %w", s.names.Memory, err)
		}
		var out []memfile.Removal // the items only the replaced file holds
		switch f, _, perr := memfile.Parse(current); {
		case current == nil:
		case perr == nil:
			if out = memfile.TakenOut(f, restored, "taken out by restore"); len(out) > 0 {
				res.Notice = fmt.Sprintf("archived %d item(s) that only the replaced %s held", len(out), s.names.Memory)
			}
		default:
			aside, err := s.setAside(path, current)
			if err != nil {
				return res, fmt.Errorf("set aside the unreadable %s: %w", s.names.Memory, err)
			}
			res.Notice = fmt.Sprintf("kept the unreadable %s as %s", s.names.Memory, aside)
		}
		return res, s.commit(path, backup, current, current, out, func() bool { return unchanged(path, current) })
	})
}

// Purge removes the backup and the archive under the lock, so no writer
// is halfway through them, then the state folder, lock included; never
// bimri.md. removed lists what was there and is gone.
func (s *Store) Purge() (removed []string, err error) {
	var there []string
	for _, p := range []string{s.Path(s.names.Backup), s.Path(s.names.Archive), s.StatePath()} {
		if _, err := os.Lstat(p); err == nil {
			there = append(there, p)
		}
	}
	if len(there) == 0 {
		return nil, nil
	}
	unlock, _, err := s.lock()
	if err != nil {
		return nil, err
	}
	defer func() { unlock() }()
	for _, p := range there {
		if p == s.StatePath() {
			unlock() // first: Windows removes no file held open
			unlock = func() {}
		}
		if err := os.RemoveAll(p); err != nil {
			return removed, fmt.Errorf("remove %s: %w", p, err)
		}
		removed = append(removed, p)
	}
	return removed, nil
}
