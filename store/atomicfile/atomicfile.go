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
	"strings"
	"time"

	"github.com/bimri/bimri-hook/store/safefile"
)

// TempPrefix starts the name of every temporary file, so RemoveTemps can
// find the ones a killed process left behind. The writer's process ID
// follows, then a random part: .bimri-tmp-PID-RANDOM.
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
	p, err := Write(path, data, opt)
	if err != nil {
		return err
	}
	if err := p.Sync(); err != nil {
		p.Abort()
		return err
	}
	if err := p.Commit(); err != nil {
		return err
	}
	if !opt.NoSync {
		SyncDir(filepath.Dir(path))
	}
	return nil
}

// A Pending is a replacement of path that is written but not yet in
// place: its data sits in a temporary file in path's folder (or, from
// Link, an existing file has a temporary second name there). Sync makes
// the data durable and Commit renames it over path; the caller syncs the
// folder. Split so a writer of several files can write them all, then
// sync them one after the other (the first sync's journal commit carries
// the others' metadata too), then rename them in the order it needs.
// Every Pending ends in Commit or Abort.
type Pending struct {
	tmp  string
	path string
	f    *os.File // nil for a link: its data is the linked file's
	sync bool
}

// Write writes data to a new temporary file for path, as WriteFile does,
// and stops before the sync.
func Write(path string, data []byte, opt Options) (*Pending, error) {
	p, err := Create(path, opt)
	if err != nil {
		return nil, err
	}
	if err := p.Write(data); err != nil {
		p.Abort()
		return nil, err
	}
	if opt.Between != nil {
		opt.Between()
	}
	return p, nil
}

// Create starts an empty replacement of path, to be filled piece by
// piece with Pending.Write and then synced and committed as Write's is:
// a writer that produces a large file in pieces need not hold all of it
// in memory. The temporary file has the mode the new file will have
// (WriteFile says which). opt.Between is the caller's to run.
func Create(path string, opt Options) (*Pending, error) {
	perm := opt.NewPerm
	if perm == 0 {
		perm = 0o666
	}
	existing, statErr := os.Stat(path)
	tmp, err := create(filepath.Dir(path), perm)
	if err != nil {
		return nil, err
	}
	p := &Pending{tmp: tmp.Name(), path: path, f: tmp, sync: !opt.NoSync}
	if statErr == nil {
		if err := tmp.Chmod(existing.Mode().Perm()); err != nil {
			p.Abort()
			return nil, err
		}
	}
	return p, nil
}

// Write appends data to a replacement from Create or Write. A link's
// replacement (from Link) has no data of its own to add to.
func (p *Pending) Write(data []byte) error {
	if p.f == nil {
		return &fs.PathError{Op: "write", Path: p.tmp, Err: fs.ErrInvalid}
	}
	_, err := p.f.Write(data)
	return err
}

// Link gives the regular file at from a temporary second name in path's
// folder, to be renamed over path by Commit: from's inode becomes path,
// its data not copied. It is for a file whose only name is from (a
// backup of a file about to be replaced by a rename), so that once from
// is replaced, path is the one name of that data and no edit made
// through another name can change it: a file with other hard links is
// refused. Unless opt.NoSync, from's data is synced first (cheap when it
// was synced when written), so a link never makes durable a name for
// data that is not. It fails, leaving nothing, where hard links cannot be
// made (across filesystems, on a filesystem without them), and when from
// is replaced while it works; the caller then copies instead.
func Link(from, path string, opt Options) (*Pending, error) {
	f, info, err := safefile.Open(from) // never blocks on a pipe put there
	if err != nil {
		return nil, err
	}
	if !soleLink(info) {
		err = errNotSole
	}
	if err == nil && !opt.NoSync {
		err = f.Sync()
	}
	f.Close()
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(path)
	for range 10000 {
		name := tempName(dir)
		err := os.Link(from, name)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		p := &Pending{tmp: name, path: path}
		// The name is from's only if from was not replaced since it was
		// checked and synced.
		if linked, err := os.Lstat(name); err != nil || !os.SameFile(linked, info) {
			p.Abort()
			return nil, errNotSole
		}
		return p, nil
	}
	return nil, &fs.PathError{Op: "link", Path: filepath.Join(dir, TempPrefix+"*"), Err: fs.ErrExist}
}

var errNotSole = errors.New("not a regular file with one name")

// Path is the file the replacement replaces.
func (p *Pending) Path() string { return p.path }

// Sync makes the written data durable (a link has none of its own, and a
// write with NoSync skips it).
func (p *Pending) Sync() error {
	if p.f == nil || !p.sync {
		return nil
	}
	return p.f.Sync()
}

// Commit closes the temporary file and renames it over path. On an error
// the temporary file is removed. After a rename the name is gone: no
// unlink is wasted on it.
func (p *Pending) Commit() error {
	if p.f != nil {
		err := p.f.Close()
		p.f = nil
		if err != nil {
			p.Abort()
			return err
		}
	}
	if err := os.Rename(p.tmp, p.path); err != nil {
		p.Abort()
		return err
	}
	return nil
}

// Abort drops the replacement: the temporary file is closed and removed,
// path is untouched.
func (p *Pending) Abort() {
	if p.f != nil {
		p.f.Close()
		p.f = nil
	}
	os.Remove(p.tmp)
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
		name := tempName(dir)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, &fs.PathError{Op: "createtemp", Path: filepath.Join(dir, TempPrefix+"*"), Err: fs.ErrExist}
}

// tempName names a temporary file in dir: the prefix, this process's ID
// (so RemoveTemps can tell a live writer's file), a random part.
func tempName(dir string) string {
	return filepath.Join(dir, TempPrefix+strconv.Itoa(os.Getpid())+"-"+strconv.FormatUint(uint64(rand.Uint32()), 36))
}

// StaleAfter is how old a temporary file of a live process must be for
// RemoveTemps to take it as left behind all the same: no write takes so
// long, so its process ID is another process's now (IDs are reused, and
// a container starts them again from 1).
const StaleAfter = 10 * time.Minute

// RemoveTemps deletes the temporary files a process killed mid-write left
// in dir, and leaves those of live processes, this one included: the
// lock does not prove that no other writer is live (when its file is
// removed, git clean -fdX, a second writer takes a new one while the
// first still writes), and sweeping a live writer's file makes its
// rename fail. A name without a process ID (an older bimri-hook's) is
// removed.
func RemoveTemps(dir string) {
	matches, _ := filepath.Glob(filepath.Join(dir, TempPrefix+"*"))
	for _, m := range matches {
		if ownerLive(m) {
			continue
		}
		_ = os.Remove(m)
	}
}

// ownerLive says whether the temporary file at path belongs to a live
// process and is young enough to be that process's (StaleAfter).
func ownerLive(path string) bool {
	pidPart, _, ok := strings.Cut(strings.TrimPrefix(filepath.Base(path), TempPrefix), "-")
	pid, err := strconv.Atoi(pidPart)
	if !ok || err != nil || pid <= 0 {
		return false
	}
	if pid != os.Getpid() && !processLive(pid) {
		return false
	}
	info, err := os.Lstat(path)
	return err == nil && time.Since(info.ModTime()) < StaleAfter
}
