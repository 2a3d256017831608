// Package atomicfile replaces files so that a reader, or a crash, sees
// either the old file or the new one, never a mix. It is built as
// github.com/google/renameio is (a temporary file in the target's folder,
// synced, renamed over the target, the folder synced; a new file's mode
// follows the umask, an existing file keeps its mode), with two things
// bimri-hook needs that renameio does not offer: writes without fsync for
// throwaway and bookkeeping files, and a name prefix for temporary files
// so a later run can sweep what a killed process left.
package atomicfile

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// TempPrefix starts the name of every temporary file, so RemoveTemps can
// find the ones a killed process left behind.
const TempPrefix = ".bimri-tmp-"

// Options change how WriteFile writes.
type Options struct {
	// NoSync skips fsync: for files that need no durability (a
	// simulation's throwaway workspace, session bookkeeping). The
	// replacement is still an atomic rename.
	NoSync bool
	// NewPerm is the mode a new file is created with, before the umask
	// takes its bits away; 0 means 0o666, as os.Create. An existing file
	// keeps its own mode whatever NewPerm says.
	NewPerm fs.FileMode
	// NoDirSync skips the folder sync after the rename, for a file whose
	// rename the next synced WriteFile in the same folder makes durable:
	// one folder sync for both. The data is still synced (unless NoSync).
	NoDirSync bool
	// Between, when set, runs after the data is written and before it is
	// synced and renamed: tests use it to stop a process mid-write.
	Between func()
}

// WriteFile replaces path with data: write a temporary file in the same
// folder (a rename is atomic only within one filesystem), sync it (so the
// rename cannot reach the disk before the data), rename it over path,
// then sync the folder (so the rename itself survives a power loss).
//
// The temporary file is created with the mode the new file should have,
// so the kernel applies the umask exactly as it would to any new file:
// under umask 077 nobody else can read it. When path exists, its mode is
// set on the temporary file instead (fchmod ignores the umask), so a
// replaced file keeps the mode its owner chose.
func WriteFile(path string, data []byte, opt Options) error {
	dir := filepath.Dir(path)
	perm := opt.NewPerm
	if perm == 0 {
		perm = 0o666
	}
	existing, statErr := os.Stat(path)
	tmp, err := create(dir, perm)
	if err != nil {
		return err
	}
	renamed := false
	defer func() {
		if !renamed { // after a rename the name is gone: no wasted unlink
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if opt.Between != nil {
		opt.Between()
	}
	if statErr == nil {
		if err := tmp.Chmod(existing.Mode().Perm()); err != nil {
			tmp.Close()
			return err
		}
	}
	if !opt.NoSync {
		if err := tmp.Sync(); err != nil {
			tmp.Close()
			return err
		}
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	renamed = true
	if !opt.NoSync && !opt.NoDirSync {
		SyncDir(dir)
	}
	return nil
}

// SyncDir makes the renames and new names in dir durable.
func SyncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync() // not supported everywhere (Windows); the rename is done
		d.Close()
	}
}

// create makes a new temporary file in dir with mode perm (less the
// umask). os.CreateTemp would always use 0600, which is right for secrets
// but would make every file it replaces private, whatever the umask says.
func create(dir string, perm fs.FileMode) (*os.File, error) {
	for range 10000 {
		name := filepath.Join(dir, TempPrefix+strconv.FormatUint(uint64(rand.Uint32()), 36))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, &fs.PathError{Op: "createtemp", Path: filepath.Join(dir, TempPrefix+"*"), Err: fs.ErrExist}
}

// RemoveTemps deletes the temporary files a process killed mid-write left
// in dir. Call it only where no live writer can own them (under the lock).
func RemoveTemps(dir string) {
	matches, _ := filepath.Glob(filepath.Join(dir, TempPrefix+"*"))
	for _, m := range matches {
		_ = os.Remove(m)
	}
}
