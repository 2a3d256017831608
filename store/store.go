// Package store is the one part of bimri-hook that touches the memory
// files and the workspace lock; memfile, which it parses and renders
// with, touches no disk. Update (update.go) is the one read-modify-write.
package store

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store/safefile"
)

// StateDir holds the lock and per-session state; it ignores itself in git.
const StateDir = ".claude/bimri"

// maxStateSize caps a file read from the state folder.
const maxStateSize = 1 << 20

// Names are the file names a store uses.
type Names struct {
	Memory, Backup, Archive string
	State                   string // folder for the lock and state, relative to the root
}

// GlobalNames are the user's memory across workspaces, in ~/.claude.
var (
	workspaceNames = Names{memfile.MemoryName, memfile.BackupName, memfile.ArchiveName, StateDir}
	GlobalNames    = Names{"bimri-global.md", "bimri-global-backup.md", "bimri-global-archive.md", "bimri"}
)

// ErrBusy means another bimri-hook held the lock for the whole wait.
var ErrBusy = errors.New("the memory file is busy")

// Store reads and writes one workspace's memory files.
type Store struct {
	root        string // the workspace, absolute
	names       Names
	lockTimeout time.Duration
	config      memfile.Config // makes a missing file
	now         func() time.Time
	today       time.Time
	noSync      bool
	dataBase    string // the user's data folder (userdata.go), "" for none
}

// StoreOptions say how a store works; the zero value is a workspace's
// store that syncs every write, on the real clock, waiting for no lock.
type StoreOptions struct {
	Names       Names // zero: a workspace's
	LockTimeout time.Duration
	Clock       func() time.Time // nil: time.Now
	Today       time.Time        // the day archive records carry; zero: Clock's
	// NoSync skips fsync, for throwaway workspaces (simulate), which keep
	// the data folder (userdata.go) in their state folder.
	NoSync bool
}

// OpenStore checks the workspace and returns its store; cfg makes a
// missing memory file.
func OpenStore(root string, cfg memfile.Config, opt StoreOptions) (*Store, error) {
	if !filepath.IsAbs(root) {
		return nil, fmt.Errorf("workspace %q is not an absolute path", root)
	}
	info, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("workspace: %w", err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("workspace %q is not a directory", root)
	}
	root = filepath.Clean(root)
	if systemFolder(root) {
		return nil, fmt.Errorf("workspace %q is a system folder, not a project; refusing to keep memory there", root)
	}
	s := &Store{root: root, names: cmp.Or(opt.Names, workspaceNames), lockTimeout: opt.LockTimeout, config: cfg,
		now: opt.Clock, today: opt.Today, noSync: opt.NoSync, dataBase: UserDataDir()}
	if opt.NoSync {
		s.dataBase = filepath.Join(s.StatePath(), "data")
	}
	if s.now == nil {
		s.now = time.Now
	}
	return s, nil
}

// WithLockTimeout is a copy of s that waits at most d for the lock.
func (s *Store) WithLockTimeout(d time.Duration) *Store {
	c := *s
	c.lockTimeout = d
	return &c
}

// LockTimeout is the longest the store waits for the lock.
func (s *Store) LockTimeout() time.Duration { return s.lockTimeout }

// Root is the workspace, absolute.
func (s *Store) Root() string { return s.root }

// Names are the store's file names.
func (s *Store) Names() Names { return s.names }

// systemFolder says whether root is the top of a filesystem or a folder
// the system owns: a hook's cwd can be one, a project is not.
func systemFolder(root string) bool {
	if filepath.Dir(root) == root {
		return true // / or a volume's root
	}
	return slices.ContainsFunc([]string{"/bin", "/boot", "/dev", "/etc", "/lib", "/lib64", "/proc", "/run", "/sbin", "/sys", "/usr", "/var"}, func(sys string) bool {
		return root == sys || strings.HasPrefix(root, sys+"/") && (sys == "/dev" || sys == "/proc" || sys == "/sys")
	})
}

// Path returns the path of a file in the workspace.
func (s *Store) Path(name string) string { return filepath.Join(s.root, name) }

// StatePath is the state folder.
func (s *Store) StatePath() string { return filepath.Join(s.root, filepath.FromSlash(s.names.State)) }

// safePath resolves a workspace file for writing, following a symlink
// only inside the workspace.
func (s *Store) safePath(name string) (string, error) {
	p := s.Path(name)
	info, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return p, nil
	}
	if err != nil {
		return "", err
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		target, err := filepath.EvalSymlinks(p)
		if err != nil {
			return "", fmt.Errorf("%s is a symlink that cannot be resolved: %w", name, err)
		}
		root, err := filepath.EvalSymlinks(s.root)
		if err != nil {
			return "", err
		}
		if !inside(root, target) {
			return "", fmt.Errorf("%s is a symlink leading outside the workspace (to %s); refusing to write through it", name, target)
		}
		p = target
		if info, err = os.Stat(p); err != nil {
			return p, nil
		}
	}
	if info.IsDir() {
		return "", fmt.Errorf("%s is a directory, not a file", name)
	}
	if !info.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file", name)
	}
	return p, nil
}

// inside says whether path is root or below it; both are resolved.
func inside(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && filepath.IsLocal(rel)
}

// readOnly refuses a file the user made read-only, which a rename would
// replace anyway.
func readOnly(path, name string) error {
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm()&0o200 != 0 {
		return nil
	}
	return fmt.Errorf("%s is read-only (mode %04o), so bimri-hook leaves it as it is; make it writable (chmod u+w %s) to let bimri-hook update it", name, info.Mode().Perm(), name)
}

// sidePath is safePath for the backup or the archive, refusing bimri.md
// under another name, where an append would vanish with the next rename.
func (s *Store) sidePath(name string) (string, error) {
	p, err := s.safePath(name)
	if err == nil {
		err = s.notMemory(name, p)
	}
	return p, err
}

func (s *Store) notMemory(name, path string) error {
	side, err := os.Stat(path)
	if err != nil {
		return nil // missing: it will be created
	}
	if mem, err := os.Stat(s.Path(s.names.Memory)); err == nil && os.SameFile(side, mem) {
		return fmt.Errorf("%s is %s itself (a link to the same file); refusing to use it", name, s.names.Memory)
	}
	return nil
}

// ReadResult is the memory file as Read found it.
type ReadResult struct {
	File     *memfile.File
	Warnings []memfile.Warning
	Exists   bool // false: File is a new one
}

// Read parses the memory file without the lock (writers replace it
// atomically); a missing file reads as a new one.
func (s *Store) Read() (ReadResult, error) {
	path, err := s.safePath(s.names.Memory)
	if err != nil {
		return ReadResult{}, err
	}
	data, err := safefile.Read(path, memfile.MaxMemorySize)
	if errors.Is(err, fs.ErrNotExist) {
		return ReadResult{File: memfile.New(s.config)}, nil
	}
	if err != nil {
		return ReadResult{}, fmt.Errorf("read %s: %w", s.names.Memory, err)
	}
	f, w, _, err := memfile.ParseStored(data)
	if err != nil {
		return ReadResult{Exists: true}, fmt.Errorf("%s: %w", s.names.Memory, err)
	}
	return ReadResult{File: f, Warnings: w, Exists: true}, nil
}
