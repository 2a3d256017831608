package store

// The lock and the state folder are one concern: the lock file lives in
// the state folder, and taking the lock is what makes the folder (and
// checks it stays inside the workspace) before anything is written there.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gofrs/flock"
)

// stateDir makes sure the state folder exists, stays inside the workspace
// and ignores itself in git. A repository can commit symlinks, so each
// folder on the way is checked before anything is made below it, and the
// .gitignore is created only where nothing, not even a dangling link, is.
func (s *Store) stateDir() (string, error) {
	dir := s.StatePath()
	root, err := filepath.EvalSymlinks(s.root)
	if err != nil {
		return "", fmt.Errorf("state folder: %w", err)
	}
	rel, err := filepath.Rel(s.root, dir)
	if err != nil {
		return "", fmt.Errorf("state folder: %w", err)
	}
	at := s.root
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		at = filepath.Join(at, part)
		// Mkdir makes no folder through a symlink, dangling or not: it
		// reports that the name exists.
		if err := os.Mkdir(at, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return "", fmt.Errorf("state folder: %w", err)
		}
		real, err := filepath.EvalSymlinks(at)
		if err != nil {
			return "", fmt.Errorf("state folder: %w", err)
		}
		if !inside(root, real) {
			return "", fmt.Errorf("state folder %s leads outside the workspace (%s is a link to %s); refusing to write there", dir, at, real)
		}
	}
	ignore := filepath.Join(dir, ".gitignore")
	// O_EXCL fails on any existing name, a symlink included, so a link
	// committed there is never followed to create a file elsewhere.
	if f, err := os.OpenFile(ignore, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644); err == nil {
		_, _ = f.WriteString("# bimri-hook's lock and session state: never commit.\n*\n")
		_ = f.Close()
	}
	return dir, nil
}

// lock takes the workspace lock, waiting at most LockTimeout. It locks a
// sidecar file, never bimri.md: an atomic rename replaces bimri.md, and a
// lock on the replaced file would guard nothing.
//
// A lock is on a file, not on its name. When the state folder is removed
// while the lock is held or waited for (git clean -fdX removes ignored
// files), the next writer creates a new lock file and locks that, and two
// writers would be in. So, as go-internal's lockedfile reasons about its
// well-known files, a lock taken counts only if its path still names the
// file that is locked; otherwise it is let go and taken again on the file
// the path names now.
func (s *Store) lock() (func(), error) {
	unlock, _, err := s.lockHeld()
	return unlock, err
}

// lockHeld is lock, and also returns what says whether the lock is still
// held: whether its path still names the file locked. A holder whose
// state folder was removed meanwhile may no longer be alone.
func (s *Store) lockHeld() (unlock func(), held func() bool, err error) {
	deadline := time.Now().Add(s.lockTimeout)
	for {
		unlock, held, err := s.lockOnce(time.Until(deadline))
		if errors.Is(err, fs.ErrNotExist) && time.Now().Before(deadline) {
			continue // the state folder went as it was made (git clean): make it again
		}
		if err != nil || held() {
			return unlock, held, err
		}
		unlock() // the file locked is gone from its name
		if time.Now().After(deadline) {
			return nil, nil, fmt.Errorf("%w: the lock file was replaced while it was waited for", ErrBusy)
		}
	}
}

// lockOnce takes the lock file as its path names it now, waiting at most
// wait, and returns what lets it go and what says whether the path still
// names the file locked.
func (s *Store) lockOnce(wait time.Duration) (unlock func(), held func() bool, err error) {
	dir, err := s.stateDir()
	if err != nil {
		return nil, nil, err
	}
	lockPath := filepath.Join(dir, "lock")
	// The lock file is created if missing; never through a link, which
	// would create a file wherever it points.
	if info, err := os.Lstat(lockPath); err == nil && !info.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("lock %s is not a regular file (a link or special file); refusing to use it", lockPath)
	}
	fl := flock.New(lockPath)
	release := func() { _ = fl.Unlock() }
	held = func() bool {
		locked, err := fl.Stat() // the open file's own
		named, err2 := os.Lstat(lockPath)
		return err == nil && err2 == nil && os.SameFile(locked, named)
	}
	if ok, err := fl.TryLock(); err != nil {
		return nil, nil, fmt.Errorf("lock %s: %w", fl.Path(), err)
	} else if ok {
		return release, held, nil
	}
	// Wait in the kernel (a blocking flock) rather than by polling. With
	// dozens of writers on two cores, pollers waking every few
	// milliseconds steal the CPU the holder needs to finish, and a poller
	// asleep at the moment of release loses to one that is awake; measured
	// here, 32 concurrent remember calls then starved one past a 45 s wait.
	// The wait stays bounded: past LockTimeout the caller gets ErrBusy, and
	// the abandoned waiter, should it get the lock later, lets it go at once.
	got := make(chan error, 1)
	go func() { got <- fl.Lock() }()
	timer := time.NewTimer(max(wait, 0))
	defer timer.Stop()
	select {
	case err := <-got:
		if err != nil {
			return nil, nil, fmt.Errorf("lock %s: %w", fl.Path(), err)
		}
		return release, held, nil
	case <-timer.C:
		go func() {
			if <-got == nil {
				release()
			}
		}()
		return nil, nil, fmt.Errorf("%w: another bimri-hook held %s for %s", ErrBusy, fl.Path(), s.lockTimeout)
	}
}

// CheckLock takes the workspace lock and lets it go at once, reading and
// writing no memory file, so doctor can tell whether a writer is stuck
// without creating bimri.md. Like every writer, it makes the state folder.
func (s *Store) CheckLock() error {
	unlock, err := s.lock()
	if err != nil {
		return err
	}
	unlock()
	return nil
}
