package store

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

// stateDir makes the state folder, which ignores itself in git, each
// folder on the way inside the workspace (a repository can commit links).
func (s *Store) stateDir() (string, error) {
	dir := s.StatePath()
	root, err := filepath.EvalSymlinks(s.root)
	if err != nil {
		return "", fmt.Errorf("state folder: %w", err)
	}
	at := s.root
	for _, part := range strings.Split(s.names.State, "/") {
		at = filepath.Join(at, part)
		// Mkdir makes no folder through a symlink, dangling or not.
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
	// O_EXCL never follows a link committed there.
	if f, err := os.OpenFile(ignore, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644); err == nil {
		_, _ = f.WriteString("# bimri-hook's lock and session state: never commit.\n*\n")
		_ = f.Close()
	}
	return dir, nil
}

// lock takes the workspace lock, waiting at most LockTimeout; held says
// whether it still counts: only while its path names the file locked (git
// clean -fdX removes it, and the next writer locks a new one).
func (s *Store) lock() (unlock func(), held func() bool, err error) {
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

// lockOnce takes the lock file its path names now, waiting at most wait.
func (s *Store) lockOnce(wait time.Duration) (unlock func(), held func() bool, err error) {
	dir, err := s.stateDir()
	if err != nil {
		return nil, nil, err
	}
	lockPath := filepath.Join(dir, "lock")
	// Never through a link, which would create a file wherever it points.
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
	// Wait in the kernel, not by polling: dozens of pollers starve the
	// holder. An abandoned waiter lets the lock go once it gets it.
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

// CheckLock takes the workspace lock and lets it go: doctor's check.
func (s *Store) CheckLock() error {
	return s.UpdateState(nil, func(map[string][]byte) error { return nil })
}
