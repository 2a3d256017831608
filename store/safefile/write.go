package safefile

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// TempPrefix starts every temporary file's name: .bimri-tmp-PID-RANDOM;
// SwapPrefix a new file's about to take its place (CommitOver).
const (
	TempPrefix = ".bimri-tmp-"
	SwapPrefix = ".bimri-swap-"
)

// Options change how a file is written.
type Options struct {
	NoSync  bool        // no fsync; still an atomic rename
	NewPerm fs.FileMode // a new file's mode before the umask; 0: 0o666
}

// WriteFile replaces path with data and syncs the folder, so the rename
// survives a power loss.
func WriteFile(path string, data []byte, opt Options) error {
	p, err := Write(path, data, opt)
	if err == nil {
		err = p.Commit()
	}
	if err == nil && !opt.NoSync {
		SyncDir(filepath.Dir(path))
	}
	return err
}

// A Pending is a replacement of path written to a temporary file, so a
// writer of several files renames them in the order it needs. Every
// Pending ends in Commit or Abort.
type Pending struct {
	f    *os.File
	path string
	data []byte // what f holds
	done bool
}

// Write writes data to a new temporary file for path, synced unless
// opt.NoSync, with the existing file's mode or the new one less the umask
// (os.CreateTemp's 0600 would make every file private).
func Write(path string, data []byte, opt Options) (*Pending, error) {
	existing, statErr := os.Stat(path)
	var f *os.File
	err := withTempName(filepath.Dir(path), func(name string) (err error) {
		f, err = os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, cmp.Or(opt.NewPerm, 0o666))
		return err
	})
	if err != nil {
		return nil, err
	}
	p := &Pending{f: f, path: path, data: data}
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

// Commit closes the temporary file and renames it over path; on an error
// the temporary file is removed.
func (p *Pending) Commit() error {
	err := p.f.Close()
	if err == nil {
		err = os.Rename(p.f.Name(), p.path)
	}
	p.done = err == nil
	p.Abort()
	return err
}

// Abort drops the replacement, if it was not committed; path is untouched.
func (p *Pending) Abort() {
	if !p.done {
		p.done = true
		p.f.Close()
		os.Remove(p.f.Name())
	}
}

// ErrChanged says path no longer held what the caller read when the new
// file was to take its place; path is left as it is.
var ErrChanged = errors.New("changed since it was read")

var errNoSwap = errors.New("names cannot be swapped here")

// CommitOver is Commit when path must still hold want (nil: no file) as
// the new file takes its place. An editor saves without our lock, and
// could save between the caller's last look and a rename, which would
// then overwrite the edit. Where names can be swapped atomically, the swap
// hands back the file it replaced: one that is not want is swapped back.
// Elsewhere this is a rename after the caller's last look.
func (p *Pending) CommitOver(want []byte) error {
	defer p.Abort()
	err := p.f.Close()
	// The new file leaves its temporary name first: after a swap that name
	// would hold the replaced file, and a temporary file still there after
	// the write would tell anyone watching that the write is under way.
	swapped := filepath.Join(filepath.Dir(p.path), SwapPrefix+strconv.Itoa(os.Getpid())+"-"+strconv.FormatUint(uint64(rand.Uint32()), 36))
	if err == nil {
		err = os.Rename(p.f.Name(), swapped)
	}
	if err != nil {
		return err
	}
	p.done = true // its temporary name is gone; the other name goes at the end
	keepSwapped := false
	defer func() {
		if !keepSwapped {
			os.Remove(swapped)
		}
	}()
	switch err := swap(swapped, p.path, want == nil); {
	case err == errNoSwap:
		return os.Rename(swapped, p.path)
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrExist):
		return ErrChanged
	case err != nil || want == nil:
		return err
	}
	if testSwapped != nil {
		testSwapped()
	}
	if Holds(swapped, want) {
		return nil
	}
	back := swap(swapped, p.path, false)
	if back == nil && Holds(swapped, p.data) {
		return ErrChanged
	}
	// What swapped holds now is not ours, and is never removed: the edit,
	// if path went meanwhile (put back), or a third writer's file, saved
	// between the two swaps (kept beside it).
	keepSwapped = true
	if errors.Is(back, fs.ErrNotExist) && os.Rename(swapped, p.path) == nil {
		return ErrChanged
	}
	kept := p.path + ".conflict-" + filepath.Base(swapped)[len(SwapPrefix):]
	if err := os.Rename(swapped, kept); err != nil {
		kept = swapped
	}
	return fmt.Errorf("%s changed twice while it was replaced; kept a version as %s", filepath.Base(p.path), filepath.Base(kept))
}

// testSwapped, set by a test, runs between a swap and its check.
var testSwapped func()

// Link makes the regular file at from, which must have no other name,
// the file at path too, by a hard link renamed over it: a backup without
// a copy. It fails, leaving path as it was, where hard links cannot be
// made or from is replaced meanwhile; the caller then copies.
func Link(from, path string, opt Options) error {
	f, info, err := Open(from) // never blocks on a pipe put there
	if err != nil {
		return err
	}
	if !soleLink(info) {
		err = errNotSole
	} else if !opt.NoSync {
		err = f.Sync()
	}
	f.Close()
	var tmp string
	if err == nil {
		err = withTempName(filepath.Dir(path), func(name string) error { tmp = name; return os.Link(from, name) })
	}
	if err != nil {
		return err
	}
	// The name is from's only if from was not replaced since it was checked.
	if linked, err := os.Lstat(tmp); err != nil || !os.SameFile(linked, info) {
		os.Remove(tmp)
		return errNotSole
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
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

// SyncDir makes the renames and new names in dir durable.
func SyncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync() // not supported everywhere (Windows); the rename is done
		d.Close()
	}
}

// staleAfter is the age past which a temporary file is stale even if a
// process of its ID lives: no write takes so long.
const staleAfter = 10 * time.Minute

// RemoveTemps deletes the temporary files a killed process left in dir,
// sparing live processes' (git clean can remove the lock's file).
func RemoveTemps(dir string) {
	matches, _ := filepath.Glob(filepath.Join(dir, TempPrefix+"*"))
	swaps, _ := filepath.Glob(filepath.Join(dir, SwapPrefix+"*"))
	for _, m := range append(matches, swaps...) {
		if !ownerLive(m) {
			_ = os.Remove(m)
		}
	}
}

// ownerLive says whether the process a temporary file names may still be
// writing it; where that cannot be told, it may.
func ownerLive(path string) bool {
	name := strings.TrimPrefix(strings.TrimPrefix(filepath.Base(path), TempPrefix), SwapPrefix)
	pidPart, _, ok := strings.Cut(name, "-")
	pid, err := strconv.Atoi(pidPart)
	info, lerr := os.Lstat(path)
	if !ok || err != nil || pid <= 0 || lerr != nil || time.Since(info.ModTime()) >= staleAfter {
		return false
	}
	if pid == os.Getpid() {
		return true
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	defer p.Release()
	return !errors.Is(p.Signal(syscall.Signal(0)), os.ErrProcessDone)
}
