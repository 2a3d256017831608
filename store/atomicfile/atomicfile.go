// Package atomicfile replaces files as github.com/google/renameio does
// (a synced temporary file renamed over the target, the folder synced; a
// new file's mode follows the umask), with what bimri-hook needs besides:
// writes without fsync for bookkeeping, the rename apart for a writer of
// several files, a second name by hard link, and temporary names a later
// run can sweep.
package atomicfile

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/bimri/bimri-hook/store/safefile"
)

// TempPrefix starts every temporary file's name: .bimri-tmp-PID-RANDOM.
const TempPrefix = ".bimri-tmp-"

// Options change how a file is written.
type Options struct {
	NoSync  bool        // no fsync; still an atomic rename
	NewPerm fs.FileMode // a new file's mode before the umask; 0: 0o666
}

// WriteFile replaces path with data and syncs the folder, so the rename
// survives a power loss.
func WriteFile(path string, data []byte, opt Options) error {
	p, err := Write(path, data, opt)
	if err != nil {
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

// A Pending is a replacement of path written to a temporary name, so a
// writer of several files renames them in the order it needs. Every
// Pending ends in Commit or Abort.
type Pending struct {
	tmp  string
	path string
	f    *os.File // nil for a link
}

// Write writes data to a new temporary file for path, synced unless
// opt.NoSync, with the existing file's mode or the new one less the umask
// (os.CreateTemp's 0600 would make every file private).
func Write(path string, data []byte, opt Options) (*Pending, error) {
	perm := opt.NewPerm
	if perm == 0 {
		perm = 0o666
	}
	existing, statErr := os.Stat(path)
	var f *os.File
	err := withTempName(filepath.Dir(path), func(name string) (err error) {
		f, err = os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		return err
	})
	if err != nil {
		return nil, err
	}
	p := &Pending{tmp: f.Name(), path: path, f: f}
	if statErr == nil {
		err = f.Chmod(existing.Mode().Perm())
	}
	if err == nil {
		_, err = f.Write(data)
	}
	if err == nil && !opt.NoSync {
		err = f.Sync()
	}
	if err != nil {
		p.Abort()
		return nil, err
	}
	return p, nil
}

// Link gives the regular file at from, which must have no other name, a
// temporary second name to be renamed over path: a backup without a copy.
// It fails, leaving nothing, where hard links cannot be made or from is
// replaced meanwhile; the caller then copies.
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
	var p *Pending
	err = withTempName(filepath.Dir(path), func(name string) error {
		if err := os.Link(from, name); err != nil {
			return err
		}
		p = &Pending{tmp: name, path: path}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// The name is from's only if from was not replaced since it was checked.
	if linked, err := os.Lstat(p.tmp); err != nil || !os.SameFile(linked, info) {
		p.Abort()
		return nil, errNotSole
	}
	return p, nil
}

var errNotSole = errors.New("not a regular file with one name")

// withTempName calls create with fresh temporary names in dir until one
// is new.
func withTempName(dir string, create func(name string) error) error {
	for range 10000 {
		name := filepath.Join(dir, TempPrefix+strconv.Itoa(os.Getpid())+"-"+strconv.FormatUint(uint64(rand.Uint32()), 36))
		if err := create(name); !errors.Is(err, fs.ErrExist) {
			return err
		}
	}
	return &fs.PathError{Op: "createtemp", Path: filepath.Join(dir, TempPrefix+"*"), Err: fs.ErrExist}
}

// Path is the file the replacement replaces.
func (p *Pending) Path() string { return p.path }

// Commit closes the temporary file and renames it over path; on an error
// the temporary file is removed.
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
	p.tmp = ""
	return nil
}

// Abort drops the replacement, if it was not committed; path is untouched.
func (p *Pending) Abort() {
	if p.f != nil {
		p.f.Close()
		p.f = nil
	}
	if p.tmp != "" {
		os.Remove(p.tmp)
	}
}

// SyncDir makes the renames and new names in dir durable.
func SyncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync() // not supported everywhere (Windows); the rename is done
		d.Close()
	}
}

// StaleAfter is the age past which a temporary file is stale even if a
// process of its ID lives: no write takes so long.
const StaleAfter = 10 * time.Minute

// RemoveTemps deletes the temporary files a killed process left in dir,
// sparing live processes' (git clean can remove the lock's file).
func RemoveTemps(dir string) {
	matches, _ := filepath.Glob(filepath.Join(dir, TempPrefix+"*"))
	for _, m := range matches {
		if !ownerLive(m) {
			_ = os.Remove(m)
		}
	}
}

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

// processLive says whether a process with ID pid exists; where it cannot
// be told, it does.
func processLive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	defer p.Release()
	return !errors.Is(p.Signal(syscall.Signal(0)), os.ErrProcessDone)
}
