package memfile

// This is the only file in memfile that touches the filesystem or the
// lock. Everything else is pure. It is over 500 lines for that reason:
// keeping every disk and lock operation in one file is the rule it serves.

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/internal/atomicfile"
	"github.com/bimri/bimri-hook/internal/safefile"
	"github.com/gofrs/flock"
)

// File names in a workspace.
const (
	MemoryName  = "bimri.md"
	BackupName  = "bimri-backup.md"
	ArchiveName = "bimri-archive.md"
	// StateDir holds the lock and per-session state. It sits under .claude,
	// where Claude Code keeps its own project files, and ignores itself
	// with a .gitignore so it never shows in git status.
	StateDir = ".claude/bimri"
)

// Caps on what the store reads, so a file gone wrong (or a link to
// /dev/zero) cannot fill memory: each is far above what the file reaches
// in use. A file over its cap is refused with an error naming it.
const (
	MaxMemorySize  = 16 << 20 // bimri.md, its backup and merge inputs
	MaxArchiveSize = 64 << 20 // append-only: decades of archived entries
	maxStateSize   = 1 << 20  // one session's bookkeeping
)

// Names are the file names a store uses.
type Names struct {
	Memory, Backup, Archive string
	State                   string // folder for the lock and state, relative to the root
}

// workspaceNames are a workspace's files; GlobalNames the user's memory
// across workspaces, which lives in ~/.claude beside Claude Code's own.
var (
	workspaceNames = Names{MemoryName, BackupName, ArchiveName, StateDir}
	GlobalNames    = Names{"bimri-global.md", "bimri-global-backup.md", "bimri-global-archive.md", "bimri"}
)

// ErrBusy means another bimri-hook held the lock for the whole wait.
var ErrBusy = errors.New("the memory file is busy")

// errReadOnly means the user made bimri.md read-only, and it is kept so.
var errReadOnly = errors.New("read-only")

// Store reads and writes one workspace's memory files safely: one lock
// around every read-modify-write, atomic replacement, a backup before every
// change, and an append-only archive. Everything about it is fixed when
// OpenStore makes it; WithLockTimeout derives a store that waits less.
type Store struct {
	root        string // the workspace, absolute
	names       Names
	lockTimeout time.Duration
	config      Config // used to create a missing file
	now         func() time.Time
	today       time.Time
	noSync      bool
	// pause sleeps between the steps of a write so a test can kill the
	// process there: testPause, set only in test builds.
	pause time.Duration
}

// StoreOptions say how a store works. The zero value is a workspace's
// store that syncs every write, on the real clock, taking the lock only
// when it is free at once.
type StoreOptions struct {
	// Names are the store's file names; zero means workspaceNames.
	Names Names
	// LockTimeout is the longest wait for the lock.
	LockTimeout time.Duration
	// Clock is the wall clock: it names a broken file set aside and ages
	// the session state. Nil means time.Now.
	Clock func() time.Time
	// Today is the day the caller acts on (--today in tests and
	// simulations); archive records carry it. Zero means Clock's date.
	Today time.Time
	// NoSync skips fsync, for throwaway workspaces (simulate) whose files
	// need no durability: a sync per write would make a long simulation
	// take minutes on a real disk. Writes are still atomic renames.
	NoSync bool
}

// OpenStore checks the workspace and returns its store. cfg makes a
// missing memory file.
func OpenStore(root string, cfg Config, opt StoreOptions) (*Store, error) {
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
	if systemFolder(root) {
		return nil, fmt.Errorf("workspace %q is a system folder, not a project; refusing to keep memory there", root)
	}
	s := &Store{root: filepath.Clean(root), names: opt.Names, lockTimeout: opt.LockTimeout, config: cfg,
		now: opt.Clock, today: opt.Today, noSync: opt.NoSync, pause: testPause}
	if s.names == (Names{}) {
		s.names = workspaceNames
	}
	if s.now == nil {
		s.now = time.Now
	}
	return s, nil
}

// WithLockTimeout returns a store like s that waits at most d for the
// lock (a handler the client kills sooner than others). s is unchanged.
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
// the system owns, which a hook's cwd can be (a session started in / or
// /dev) but no project is.
func systemFolder(root string) bool {
	root = filepath.Clean(root)
	if filepath.Dir(root) == root {
		return true // / or a volume's root
	}
	for _, sys := range []string{"/bin", "/boot", "/dev", "/etc", "/lib", "/lib64", "/proc", "/run", "/sbin", "/sys", "/usr", "/var"} {
		if root == sys || strings.HasPrefix(root, sys+"/") && (sys == "/dev" || sys == "/proc" || sys == "/sys") {
			return true
		}
	}
	return false
}

// Path returns the path of a file in the workspace.
func (s *Store) Path(name string) string { return filepath.Join(s.root, name) }

// StatePath is the state folder.
func (s *Store) StatePath() string { return filepath.Join(s.root, filepath.FromSlash(s.names.State)) }

// safePath resolves a workspace file for writing. A symlink is followed
// only when it stays inside the workspace; a directory is refused.
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
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

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
func (s *Store) lock() (func(), error) {
	dir, err := s.stateDir()
	if err != nil {
		return nil, err
	}
	lockPath := filepath.Join(dir, "lock")
	// The lock file is created if missing; never through a link, which
	// would create a file wherever it points.
	if info, err := os.Lstat(lockPath); err == nil && !info.Mode().IsRegular() {
		return nil, fmt.Errorf("lock %s is not a regular file (a link or special file); refusing to use it", lockPath)
	}
	fl := flock.New(lockPath)
	unlock := func() { _ = fl.Unlock() }
	if ok, err := fl.TryLock(); err != nil {
		return nil, fmt.Errorf("lock %s: %w", fl.Path(), err)
	} else if ok {
		return unlock, nil
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
	timer := time.NewTimer(s.lockTimeout)
	defer timer.Stop()
	select {
	case err := <-got:
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", fl.Path(), err)
		}
		return unlock, nil
	case <-timer.C:
		go func() {
			if <-got == nil {
				unlock()
			}
		}()
		return nil, fmt.Errorf("%w: another bimri-hook held %s for %s", ErrBusy, fl.Path(), s.lockTimeout)
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

// Tx is one read-modify-write under the lock. The function given to
// Update changes File, adds to Archive and sets state; Update writes them.
type Tx struct {
	File     *File
	Warnings []Warning
	// Archive collects what leaves the file; it is appended to the archive
	// before the new file is written, so nothing is ever only in memory.
	Archive []Removal
	Created bool   // bimri.md did not exist and was made from the template
	Notice  string // what Update had to repair, for the user

	store    *Store
	state    map[string][]byte
	stateSet map[string][]byte

	read []byte // bimri.md as read, for the pass stamp
	// pass is the file the last Maintain left and stamp what it ran
	// with; the stamp is saved only when File is still that file at
	// commit.
	pass  *File
	stamp string
	// settled is the pass stamp File is known to match, when it came
	// from a Snapshot: a plain pass under it would change nothing.
	settled string
	// meanwhile runs while the changes are written (see Meanwhile).
	meanwhile func()
}

// Meanwhile has the transaction run fn on a goroutine of its own while
// it writes and syncs what the transaction function left, once that
// function has returned; Update returns only after fn has. SessionStart
// builds its answer there: the answer is read from tx.File alone, which
// nothing changes once the transaction function has returned (writing
// it only reads it), and at 10,000 entries the file's sync alone takes
// longer than the answer, so the answer costs the hook no time. fn must
// only read tx.File and what the caller gives it. What fn makes may be
// used only if Update succeeds: the hook reports success only then,
// after the file is durable, and on an error it answers from what it
// reads again, as before.
func (tx *Tx) Meanwhile(fn func()) { tx.meanwhile = fn }

// State returns a saved state blob (nil if none).
func (tx *Tx) State(key string) []byte {
	if v, ok := tx.stateSet[key]; ok {
		return v
	}
	if v, ok := tx.state[key]; ok {
		return v
	}
	data, err := safefile.Read(tx.store.statePath(key), maxStateSize)
	if err != nil {
		return nil
	}
	tx.state[key] = data
	return data
}

// SetState saves a state blob when the transaction commits.
func (tx *Tx) SetState(key string, data []byte) { tx.stateSet[key] = data }

// ReadArchive reads the archive's records (for deep maintenance and merges).
func (tx *Tx) ReadArchive() ([]ArchiveRecord, error) { return tx.store.ReadArchive() }

// ArchivedEntries are the archive's entries, which a deep pass recounts
// patterns over. An unreadable archive gives none: the pass then counts
// what the file itself remembers.
func (s *Store) ArchivedEntries() []Entry {
	recs, err := s.ReadArchive()
	if err != nil {
		return nil
	}
	var out []Entry
	for _, r := range recs {
		if r.Entry != nil {
			out = append(out, *r.Entry)
		}
	}
	return out
}

// Maintain runs the session-end pass on the transaction's file and queues
// what it archived, so the archive is written with the file.
//
// A plain pass (no options) is skipped when the file is still the one a
// pass on this day under this config last left, as the pass stamp in the
// state folder records: the pass is idempotent (TestPassIdempotent,
// FuzzPassIdempotent), so it would change nothing, and the report is
// settledReport's. "Still" is checked on the bytes: the stamp must match
// the file as read, and the file must render to those bytes, so a change
// made in this transaction (an Add) always gets its pass. A transaction
// started from a Snapshot (UpdateFrom) holds bytes ReadMaintained found
// stamped, unchanged since, and nothing has changed its File yet: the
// stamp alone settles it, as it settles a steady SessionStart.
func (tx *Tx) Maintain(today time.Time, cfg Config, opt Options) Report {
	stamp := passStamp(today, cfg)
	if plainPass(opt) && (tx.settled == stamp || tx.store.stampMatches(tx.read, stamp) && bytes.Equal(Render(tx.File), tx.read)) {
		return settledReport(tx.File, cfg)
	}
	// The transaction owns its File and the caller has kept nothing of
	// it from before the pass, so the pass runs on it without a copy.
	rep := maintainInPlace(tx.File, today, cfg, opt)
	tx.Archive = append(tx.Archive, rep.Removed...)
	tx.pass, tx.stamp = tx.File, stamp
	return rep
}

func plainPass(opt Options) bool {
	return !opt.CountSession && !opt.Deep && len(opt.ArchivedEntries) == 0
}

func (s *Store) statePath(key string) string {
	return filepath.Join(s.StatePath(), stateKey(key)+".json")
}

// stateKey keeps a key (a session ID from hook input) a plain file name.
func stateKey(key string) string {
	ok := len(key) > 0 && len(key) <= 100
	for _, r := range key {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			ok = false
		}
	}
	if ok {
		return key
	}
	return "h-" + hashID("", key)
}

// Result says what Update did.
type Result struct {
	Changed bool   // bimri.md was written
	Created bool   // it was made from the template
	Notice  string // a repair the user should hear about
}

// Update runs fn under the lock on the current memory file and writes the
// result: the backup first (the file as it was), then the archive, then
// the new file, each atomically. Nothing is written if fn fails or if the
// file's bytes would not change.
func (s *Store) Update(fn func(tx *Tx) error) (Result, error) {
	return s.UpdateFrom(nil, fn)
}

// UpdateFrom is Update for a caller that read snap without the lock (nil:
// none) and has not changed snap.File since. When the file under the lock
// still holds snap's bytes, the transaction starts from snap.File instead
// of parsing them again, and a plain pass on snap's day and config knows
// it would change nothing: SessionStart reads the file to see whether it
// needs the lock at all, and a new session usually does, to record the
// upkeep advice it gives.
func (s *Store) UpdateFrom(snap *Snapshot, fn func(tx *Tx) error) (Result, error) {
	unlock, err := s.lock()
	if err != nil {
		return Result{}, err
	}
	defer unlock()
	s.removeTemps()
	if err := s.healBackup(); err != nil {
		return Result{}, err
	}

	tx := &Tx{store: s, state: map[string][]byte{}, stateSet: map[string][]byte{}}
	path, err := s.safePath(s.names.Memory)
	if err != nil {
		return Result{}, err
	}
	// A snapshot's file is compared in place: reading it again into a
	// new buffer would touch as many fresh pages as it has.
	var old []byte
	fromSnap := false
	if snap != nil {
		fromSnap, _ = safefile.Holds(path, snap.data)
	}
	if !fromSnap {
		old, err = safefile.Read(path, MaxMemorySize)
	}
	switch {
	case fromSnap:
		old = snap.data
		tx.File, tx.Warnings, tx.read, tx.settled = snap.File, snap.warnings, old, snap.stamp
	case errors.Is(err, fs.ErrNotExist):
		tx.File = New(s.config)
		tx.Created = true
	case err != nil:
		return Result{}, fmt.Errorf("read %s: %w", s.names.Memory, err)
	default:
		tx.File, tx.Warnings, err = parseOwned(old) // old is only ever read after this
		if errors.Is(err, ErrUnreadable) {
			if err := s.recover(path, old, err, tx); err != nil {
				return Result{}, err
			}
			old = Render(tx.File) // the recovered file is already on disk
		} else if err != nil {
			return Result{}, err
		}
		tx.read = old
	}

	if err := fn(tx); err != nil {
		return Result{}, err
	}
	if tx.meanwhile != nil {
		done := make(chan struct{})
		go func() {
			defer close(done)
			tx.meanwhile()
		}()
		defer func() { <-done }() // before the lock is let go
	}
	res := Result{Created: tx.Created, Notice: tx.Notice}
	if tx.Created {
		old = nil // nothing to compare with or back up
	}
	next := &newFile{name: s.names.Memory, old: old, changed: tx.Created, start: func() (*atomicfile.Pending, error) {
		if err := s.checkWrite(path, len(tx.Archive) > 0); err != nil {
			return nil, err
		}
		file, err := atomicfile.Create(path, atomicfile.Options{NoSync: s.noSync})
		if err != nil {
			return nil, fmt.Errorf("write %s: %w", s.names.Memory, err)
		}
		return file, nil
	}}
	if err := next.render(tx.File); err != nil {
		return res, err
	}
	if next.file != nil {
		s.step() // the new file is written, not yet synced
		if err := s.commit(path, old, next.file, tx.Archive); err != nil {
			return res, err
		}
		res.Changed = true
	} else if len(tx.Archive) > 0 {
		if err := s.appendArchive(tx.Archive); err != nil {
			return res, err
		}
	}
	if tx.pass != nil && tx.pass == tx.File {
		s.savePassStamp(next.size, next.crc, tx.stamp)
	}
	for key, data := range tx.stateSet {
		if read, ok := tx.state[key]; ok && bytes.Equal(read, data) {
			continue // unchanged since this transaction read it
		}
		// Session state is bookkeeping, not memory: it is still replaced
		// atomically, but not synced, which saves SessionEnd two fsyncs. A
		// power cut can lose it; at worst a session is counted twice.
		if err := s.writeState(s.statePath(key), data); err != nil {
			return res, fmt.Errorf("save state: %w", err)
		}
	}
	return res, nil
}

// recover handles a bimri.md that is not a memory file: it is never
// overwritten in place. It is kept beside the original under a dated name,
// and the backup, if it reads, takes its place; otherwise a fresh file
// starts and the notice says history was set aside.
func (s *Store) recover(path string, broken []byte, cause error, tx *Tx) error {
	if err := readOnly(path, s.names.Memory); err != nil {
		return fmt.Errorf("%s is unreadable (%v) and %w", s.names.Memory, cause, err)
	}
	aside, err := s.setAside(path, broken)
	if err != nil {
		return fmt.Errorf("%s is unreadable (%v) and could not be set aside: %w", s.names.Memory, cause, err)
	}
	backup, err := safefile.Read(s.Path(s.names.Backup), MaxMemorySize)
	if err == nil {
		if f, warnings, perr := Parse(backup); perr == nil {
			if err := writeAtomic(path, Render(f), nil, !s.noSync); err != nil {
				return fmt.Errorf("restore %s from %s: %w", s.names.Memory, s.names.Backup, err)
			}
			tx.File, tx.Warnings = f, warnings
			tx.Notice = fmt.Sprintf("%s was unreadable (%v); restored it from %s and kept the broken copy as %s", s.names.Memory, cause, s.names.Backup, filepath.Base(aside))
			return nil
		}
	}
	tx.File = New(s.config)
	if err := writeAtomic(path, Render(tx.File), nil, !s.noSync); err != nil {
		return fmt.Errorf("replace unreadable %s: %w", s.names.Memory, err)
	}
	tx.Notice = fmt.Sprintf("%s was unreadable (%v) and there was no readable backup; started a fresh file and kept the broken copy as %s", s.names.Memory, cause, filepath.Base(aside))
	return nil
}

// setAside keeps a copy of a broken bimri.md beside it, under a name no
// other copy has: the time to the second, then -2, -3... when several
// break within one second. An existing copy is never overwritten.
func (s *Store) setAside(path string, broken []byte) (string, error) {
	stamp := fmt.Sprintf("%s.broken-%s", path, s.now().UTC().Format("20060102-150405"))
	for n := 1; n <= 1000; n++ {
		aside := stamp
		if n > 1 {
			aside = fmt.Sprintf("%s-%d", stamp, n)
		}
		f, err := os.OpenFile(aside, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		_, err = f.Write(broken)
		if err == nil {
			err = syncFile(f, !s.noSync)
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			_ = os.Remove(aside)
			return "", err
		}
		return aside, nil
	}
	return "", fmt.Errorf("1000 copies named %s-N already exist", filepath.Base(stamp))
}

// checkWrite refuses, before anything is written, a change the store must
// not make: to a bimri.md the user made read-only, or through a backup
// or archive (when archive says one is written) that cannot be used.
func (s *Store) checkWrite(path string, archive bool) error {
	if err := readOnly(path, s.names.Memory); err != nil {
		return err
	}
	if _, err := s.sidePath(s.names.Backup); err != nil {
		return err
	}
	if archive {
		if _, err := s.sidePath(s.names.Archive); err != nil {
			return err
		}
	}
	return nil
}

// readOnly is errReadOnly when the file at path exists without its
// owner's write permission. An atomic rename would replace it anyway (and
// root ignores the mode), undoing the user's choice to freeze it.
func readOnly(path, name string) error {
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm()&0o200 != 0 {
		return nil
	}
	return fmt.Errorf("%s is %w (mode %04o), so bimri-hook leaves it as it is; make it writable (chmod u+w %s) to let bimri-hook update it", name, errReadOnly, info.Mode().Perm(), name)
}

// sidePath is safePath for the backup or the archive, refusing one that
// is bimri.md itself under another name (a hard or symbolic link): an
// append to it would land in bimri.md, then vanish with the next rename.
func (s *Store) sidePath(name string) (string, error) {
	p, err := s.safePath(name)
	if err != nil {
		return "", err
	}
	if err := s.notMemory(name, p); err != nil {
		return "", err
	}
	return p, nil
}

// notMemory refuses a backup or archive at path that is bimri.md itself.
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

// newFile is the file a transaction leaves, as render writes it: its
// bytes are compared with old (the file as read; nil when there was
// none) as they come, and only from the first that differs are they
// written, to a temporary file start makes. So an unchanged file is
// never written, a changed one is never held whole in memory, and its
// length and checksum, for the pass stamp, are counted on the way.
type newFile struct {
	name    string // the file's, for errors
	old     []byte
	changed bool // differs from old (or there is no old)
	// start checks that the file may be written and makes the temporary
	// file, each error saying what went wrong in the user's terms.
	start func() (*atomicfile.Pending, error)

	file *atomicfile.Pending // the new file, written, once changed
	size int
	crc  uint32
}

// render writes f through n: afterwards n.file is the new file, written
// but not synced, or nil when f renders as old. On an error nothing is
// left behind.
func (n *newFile) render(f *File) error {
	err := renderTo(f, n.write)
	if err == nil && n.file == nil && (n.changed || n.size != len(n.old)) {
		err = n.begin() // f renders as a part of old, or there was none
	}
	if err != nil && n.file != nil {
		n.file.Abort()
		n.file = nil
	}
	return err
}

func (n *newFile) write(piece []byte) error {
	n.crc = crc32.Update(n.crc, crc32.IEEETable, piece)
	if n.file == nil {
		end := n.size + len(piece)
		if !n.changed && end <= len(n.old) && bytes.Equal(piece, n.old[n.size:end]) {
			n.size = end
			return nil
		}
		if err := n.begin(); err != nil {
			return err
		}
	}
	n.size += len(piece)
	return n.put(piece)
}

// begin starts the temporary file with the part of old render has
// matched so far.
func (n *newFile) begin() error {
	n.changed = true
	file, err := n.start()
	if err != nil {
		return err
	}
	n.file = file
	return n.put(n.old[:n.size])
}

func (n *newFile) put(data []byte) error {
	if err := n.file.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", n.name, err)
	}
	return nil
}

// commit puts file, a replacement of the memory file at path written but
// not synced, in place, old being the file as it was (nil when there was
// none: no backup is taken), and first adds archive to the archive. It
// ends file, whatever happens. The promise: bimri.md is replaced
// atomically and durably; the backup holds the previous file before the
// new one is in place; what leaves the file is in the archive, on disk,
// before the file without it is. So: the archive's records are written
// after the new file (the order of unsynced writes makes no difference
// to what a crash can leave: nothing is renamed before both are synced),
// then the two are synced one after the other (the first sync's journal
// commit carries the other's metadata, so the second costs less); the
// backup is put in place, then the new file; one folder sync makes both
// renames durable when the files share a folder, as they do unless a
// symlink says otherwise.
func (s *Store) commit(path string, old []byte, file *atomicfile.Pending, archive []Removal) error {
	arc, err := s.writeArchive(archive)
	if err != nil {
		file.Abort()
		return err
	}
	defer arc.close()
	s.step()
	if err := arc.sync(); err != nil {
		file.Abort()
		return err
	}
	if err := file.Sync(); err != nil {
		file.Abort()
		return fmt.Errorf("write %s: %w", s.names.Memory, err)
	}
	dirs := []string{filepath.Dir(path)}
	if old != nil {
		backup, err := s.backup(path, old)
		if err != nil {
			file.Abort()
			return err
		}
		s.step()
		if err := backup.Commit(); err != nil {
			file.Abort()
			return fmt.Errorf("write %s: %w", s.names.Backup, err)
		}
		if d := filepath.Dir(backup.Path()); d != dirs[0] {
			dirs = append(dirs, d)
		}
		// A kill here leaves the backup as the memory file's own inode
		// under a second name: healBackup mends it next time.
		s.step()
	}
	if err := file.Commit(); err != nil {
		if old != nil {
			_ = s.healBackup() // the backup may be bimri.md's second name now
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
// old, to be renamed in place just before the new memory file is. It is
// the memory file's own inode under the backup's name (a hard link),
// which costs no copy and, past the rename that replaces bimri.md, is
// the backup's alone: bimri-hook always replaces bimri.md by a rename,
// so nothing it writes reaches that inode again, and an edit of the new
// bimri.md in place (an editor, an agent's tool) changes the new inode
// only. Where a link cannot be made, or bimri.md has other names (a link
// the user made: an edit through it would change the backup), the
// backup is a synced copy of old instead. Either way its data is on disk
// before its name is: after a power cut it is the previous memory, never
// an empty file.
func (s *Store) backup(path string, old []byte) (*atomicfile.Pending, error) {
	target, err := s.sidePath(s.names.Backup)
	if err != nil {
		return nil, err
	}
	if p, err := atomicfile.Link(path, target, atomicfile.Options{NoSync: s.noSync}); err == nil {
		return p, nil
	}
	// A new backup is no more open than the memory file it copies.
	opt := atomicfile.Options{NoSync: s.noSync, Between: s.step}
	if info, err := os.Stat(path); err == nil {
		opt.NewPerm = info.Mode().Perm()
	}
	p, err := atomicfile.Write(target, old, opt)
	if err == nil {
		if err = p.Sync(); err != nil {
			p.Abort()
		}
	}
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", s.names.Backup, err)
	}
	return p, nil
}

// healBackup mends what a write killed between its two renames leaves
// (see commit): the backup as bimri.md's own inode under a second name.
// The backup then holds the file as it is, which is right, as the write
// never happened; but an edit of bimri.md in place would change the
// backup too. So, under the lock and before anything else, the backup
// becomes a copy of its own. (The same mends a hard link the user made.)
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
	data, err := safefile.Read(backup, MaxMemorySize)
	if err == nil {
		err = atomicfile.WriteFile(backup, data, atomicfile.Options{NoSync: s.noSync})
	}
	if err != nil {
		return fmt.Errorf("%s is a second name of %s, and could not be made a copy of its own: %w", s.names.Backup, s.names.Memory, err)
	}
	return nil
}

// archiveAppend is records written to the end of the archive, to be
// synced before the memory file without them is renamed in place.
type archiveAppend struct {
	f        *os.File
	name     string
	needSync bool
}

// writeArchive appends records to the archive; nothing to append gives
// an empty archiveAppend. The archive is appended to, never rewritten:
// each record is written once, whatever the archive's size. An append
// can be cut (a power cut, or a kill where a write crosses a page): the
// memory file is replaced only after the append is synced, so what it
// archived is still in bimri.md, and a later pass archives it again
// whole. The cut part stays behind as a fragment on its own line (each
// append starts a new line), which the reader takes for a record with
// its text cut short: noise in search and recall, nothing lost. Telling
// it apart would take a terminator or checksum per record, a change of
// the archive's format not made here.
func (s *Store) writeArchive(items []Removal) (*archiveAppend, error) {
	a := &archiveAppend{name: s.names.Archive, needSync: !s.noSync}
	if len(items) == 0 {
		return a, nil
	}
	path, err := s.sidePath(s.names.Archive)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", s.names.Archive, err)
	}
	day := s.today
	if day.IsZero() {
		day = s.now()
	}
	buf := RenderArchived(items, day)
	created := false
	if info, err := f.Stat(); err == nil && info.Size() == 0 {
		buf, created = append([]byte(ArchiveHeading), buf...), true // once per archive
	}
	if _, err := f.Write(buf); err != nil {
		f.Close()
		return nil, fmt.Errorf("append to %s: %w", s.names.Archive, err)
	}
	a.f = f
	if created && !s.noSync {
		// A new archive: its name must be on disk before a file that
		// no longer holds what it archived, whatever the folders.
		if err := a.sync(); err != nil {
			a.close()
			return nil, err
		}
		atomicfile.SyncDir(filepath.Dir(path))
		a.needSync = false // done
	}
	return a, nil
}

// sync makes the appended records durable.
func (a *archiveAppend) sync() error {
	if a.f == nil {
		return nil
	}
	if err := syncFile(a.f, a.needSync); err != nil {
		return fmt.Errorf("sync %s: %w", a.name, err)
	}
	return nil
}

func (a *archiveAppend) close() error {
	if a.f == nil {
		return nil
	}
	err := a.f.Close()
	a.f = nil
	return err
}

// appendArchive adds records to the archive and syncs it, for a change
// that leaves bimri.md as it is.
func (s *Store) appendArchive(items []Removal) error {
	a, err := s.writeArchive(items)
	if err != nil {
		return err
	}
	if err := a.sync(); err != nil {
		a.close()
		return err
	}
	if err := a.close(); err != nil {
		return fmt.Errorf("append to %s: %w", s.names.Archive, err)
	}
	return nil
}

// testPause is the pause between write steps of every store. It is zero
// in bimri-hook's own builds; testhook_bimritest.go sets it in a binary
// built with -tags bimritest, which the crash tests kill mid-write.
var testPause time.Duration

// testStep, when a memfile test sets it, runs at every write step, so
// the test can change the files there. Nil otherwise.
var testStep func()

// step is the test-only pause between write steps.
func (s *Store) step() {
	if s.pause > 0 {
		time.Sleep(s.pause)
	}
	if testStep != nil {
		testStep()
	}
}

// removeTemps deletes temporary files left by a process killed mid-write.
// It runs under the lock, so no live writer owns them.
func (s *Store) removeTemps() {
	atomicfile.RemoveTemps(s.root)
	atomicfile.RemoveTemps(s.StatePath())
}

// writeAtomic replaces path with data (see atomicfile): a reader, or a
// crash, sees the old file or the new one. A new file's mode follows the
// umask; an existing one keeps its own. between runs mid-write (tests).
func writeAtomic(path string, data []byte, between func(), sync bool) error {
	return atomicfile.WriteFile(path, data, atomicfile.Options{NoSync: !sync, Between: between})
}

// syncFile flushes f to the disk unless the store does without.
func syncFile(f *os.File, sync bool) error {
	if !sync {
		return nil
	}
	return f.Sync()
}

// ReadResult is the memory file as Read found it.
type ReadResult struct {
	File     *File
	Warnings []Warning // what Parse could not read and kept as it was
	Exists   bool      // false: there is no bimri.md, and File is a new one
}

// Read parses the memory file without the lock. Writers replace the file
// atomically, so a reader always sees a whole version. A missing file reads
// as a new one.
func (s *Store) Read() (ReadResult, error) {
	path, err := s.safePath(s.names.Memory)
	if err != nil {
		return ReadResult{}, err
	}
	data, err := safefile.Read(path, MaxMemorySize)
	if errors.Is(err, fs.ErrNotExist) {
		return ReadResult{File: New(s.config)}, nil
	}
	if err != nil {
		return ReadResult{}, fmt.Errorf("read %s: %w", s.names.Memory, err)
	}
	f, w, err := parseOwned(data)
	if err != nil {
		return ReadResult{Exists: true}, fmt.Errorf("%s: %w", s.names.Memory, err)
	}
	return ReadResult{File: f, Warnings: w, Exists: true}, nil
}

// A Snapshot is a memory file read without the lock that a plain pass on
// its day, under its config, would leave as it is (see ReadMaintained).
type Snapshot struct {
	File     *File
	data     []byte    // the bytes File was parsed from
	warnings []Warning // what parsing them warned of
	stamp    string    // the pass stamp they match
}

// ReadMaintained reads the memory file without the lock and returns it
// when a plain pass on today under cfg would leave it unchanged: its bytes
// are the ones the last pass left, on that day, under that config (the
// pass stamp). Otherwise, or on any error, it returns false and the caller
// takes the usual path through Update (or UpdateFrom, with the snapshot).
func (s *Store) ReadMaintained(today time.Time, cfg Config) (*Snapshot, bool) {
	path, err := s.safePath(s.names.Memory)
	if err != nil {
		return nil, false
	}
	// The stamp first: on the first run of a day it names another day,
	// and the file need not be read and hashed only to be read again
	// under the lock.
	stamp := passStamp(today, cfg)
	saved, ok := s.savedStamp(stamp)
	if !ok {
		return nil, false
	}
	data, err := safefile.Read(path, MaxMemorySize)
	if err != nil || len(data) == 0 || saved != stampLine(data, stamp) {
		return nil, false
	}
	f, warnings, err := parseOwned(data)
	if err != nil {
		return nil, false
	}
	return &Snapshot{File: f, data: data, warnings: warnings, stamp: stamp}, true
}

// The pass stamp is a line in the state folder: the day and config a
// pass ran with, and a fingerprint of the bimri.md it left. While the
// file still has that fingerprint, the same pass would change nothing, so
// SessionStart and Stop need not run it again. It is bookkeeping like the
// session state: written atomically, not synced, and only after the file
// it names is on disk. A stamp that is lost or stale costs one pass.
const passStampName = "pass"

// passStamp is the stamp's first part, what a pass depends on besides
// the file: the day, the config and the file format's version. (A new
// binary with other rules on the same day is caught up by SessionEnd,
// whose pass always runs.)
func passStamp(today time.Time, cfg Config) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "%#v", cfg))
	return fmt.Sprintf("%s %s %x", civil(today).Format(time.DateOnly), currentVersion, sum[:8])
}

func (s *Store) stampMatches(data []byte, stamp string) bool {
	if len(data) == 0 {
		return false
	}
	saved, ok := s.savedStamp(stamp)
	return ok && saved == stampLine(data, stamp)
}

// savedStamp is the stamp the last pass saved, if it ran on the day and
// config stamp names. The day and config are compared first: the first
// pass of a day finds the stamp of another, and need not fingerprint the
// file to see it.
func (s *Store) savedStamp(stamp string) (string, bool) {
	saved, err := safefile.Read(filepath.Join(s.StatePath(), passStampName), maxStateSize)
	if err != nil || !strings.HasPrefix(string(saved), stamp+" ") {
		return "", false
	}
	return string(saved), true
}

// stampLine is the stamp for a file: its first part, then the file's
// fingerprint, its length and CRC-32 (IEEE). The fingerprint tells an
// unchanged file from an edited one; nobody gains by forging it (a match
// only skips a pass SessionEnd runs anyway), so it need not be a
// cryptographic hash: an accidental edit that keeps both the length and
// the checksum is a chance in four billion. The IEEE checksum runs in the
// processor's carry-less multiply with nothing to build first (the
// Castagnoli one builds tables on first use: ~0.3 ms of every steady
// SessionStart here, more than SHA-256 of an ordinary file took); at
// 10,000 entries (1.8 MB) it takes a tenth of SHA-256's 1.2-1.4 ms.
func stampLine(data []byte, stamp string) string {
	return fingerprintLine(len(data), crc32.ChecksumIEEE(data), stamp)
}

// fingerprintLine is stampLine for a file of size bytes whose CRC-32 is
// crc.
func fingerprintLine(size int, crc uint32, stamp string) string {
	return fmt.Sprintf("%s %d-%08x\n", stamp, size, crc)
}

// savePassStamp records that the file of size bytes and CRC-32 crc is
// what a pass with stamp left. A failure costs only a pass next time,
// so it is not an error.
func (s *Store) savePassStamp(size int, crc uint32, stamp string) {
	line := fingerprintLine(size, crc, stamp)
	path := filepath.Join(s.StatePath(), passStampName)
	if old, err := safefile.Read(path, maxStateSize); err == nil && string(old) == line {
		return
	}
	_ = s.writeState(path, []byte(line))
}

// writeState replaces a file in the state folder, atomically and without
// a sync. The lock made and checked the folder (stateDir) when the
// transaction began; only if it has gone since is it made again, rather
// than checked again before every write (some twenty system calls each).
func (s *Store) writeState(path string, data []byte) error {
	err := writeAtomic(path, data, nil, false)
	if errors.Is(err, fs.ErrNotExist) {
		if _, err = s.stateDir(); err == nil {
			err = writeAtomic(path, data, nil, false)
		}
	}
	return err
}

// ReadArchive reads the archive; a missing archive is empty.
func (s *Store) ReadArchive() ([]ArchiveRecord, error) {
	path := s.Path(s.names.Archive)
	if err := s.notMemory(s.names.Archive, path); err != nil {
		return nil, err
	}
	data, err := safefile.Read(path, MaxArchiveSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", s.names.Archive, err)
	}
	recs, _ := ParseArchive(data)
	return recs, nil
}

// Restore puts the backup back as bimri.md, atomically. Nothing it takes
// out is lost: the current file becomes the new backup, so a restore can
// itself be undone, and since the next write replaces that backup, the
// entries and patterns only the current file holds are archived too (a
// current file that does not parse is set aside as a broken copy).
func (s *Store) Restore() (Result, error) {
	unlock, err := s.lock()
	if err != nil {
		return Result{}, err
	}
	defer unlock()
	if err := s.healBackup(); err != nil {
		return Result{}, err
	}
	backupPath, err := s.sidePath(s.names.Backup)
	if err != nil {
		return Result{}, err
	}
	backup, err := safefile.Read(backupPath, MaxMemorySize)
	if err != nil {
		return Result{}, fmt.Errorf("no backup to restore: %w", err)
	}
	restored, _, err := Parse(backup)
	if err != nil {
		return Result{}, fmt.Errorf("%s: %w", s.names.Backup, err)
	}
	path, err := s.safePath(s.names.Memory)
	if err != nil {
		return Result{}, err
	}
	if err := readOnly(path, s.names.Memory); err != nil {
		return Result{}, err
	}
	var res Result
	var out []Removal
	current, err := safefile.Read(path, MaxMemorySize)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		current = nil
	case err != nil:
		return Result{}, fmt.Errorf("read %s: %w", s.names.Memory, err)
	default:
		if f, _, perr := Parse(current); perr == nil {
			out = takenOut(f, restored, "taken out by restore")
			if len(out) > 0 {
				res.Notice = fmt.Sprintf("archived %d item(s) that only the replaced %s held", len(out), s.names.Memory)
			}
		} else if aside, err := s.setAside(path, current); err != nil {
			return Result{}, fmt.Errorf("set aside the unreadable %s: %w", s.names.Memory, err)
		} else {
			res.Notice = fmt.Sprintf("kept the unreadable %s as %s", s.names.Memory, filepath.Base(aside))
		}
	}
	file, err := atomicfile.Write(path, backup, atomicfile.Options{NoSync: s.noSync, Between: s.step})
	if err != nil {
		return Result{}, fmt.Errorf("write %s: %w", s.names.Memory, err)
	}
	if err := s.commit(path, current, file, out); err != nil {
		return Result{}, err
	}
	res.Changed = true
	return res, nil
}

// PruneState removes per-session state older than age, so the state folder
// does not grow with every session ever run.
func (s *Store) PruneState(age time.Duration) {
	entries, err := os.ReadDir(s.StatePath())
	if err != nil {
		return
	}
	cutoff := s.now().Add(-age)
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		if info, err := e.Info(); err == nil && info.ModTime().Before(cutoff) {
			_ = os.Remove(filepath.Join(s.StatePath(), e.Name()))
		}
	}
}

// UpdateState runs fn under the workspace lock on the state blobs named by
// keys (a missing one is nil) and saves those fn changed in the map. It
// never reads or writes bimri.md, so a hook that only keeps bookkeeping
// (recall's "already shown this session") cannot rewrite the memory.
func (s *Store) UpdateState(keys []string, fn func(state map[string][]byte) error) error {
	unlock, err := s.lock()
	if err != nil {
		return err
	}
	defer unlock()
	state := map[string][]byte{}
	for _, k := range keys {
		if data, err := safefile.Read(s.statePath(k), maxStateSize); err == nil {
			state[k] = data
		}
	}
	next := maps.Clone(state)
	if err := fn(next); err != nil {
		return err
	}
	for _, k := range keys {
		if data, ok := next[k]; ok && !bytes.Equal(data, state[k]) {
			if err := s.writeState(s.statePath(k), data); err != nil {
				return fmt.Errorf("save state: %w", err)
			}
		}
	}
	return nil
}

// ReadState returns a saved state blob without the lock (nil if none).
// Writers replace state files atomically, so it is a whole version; a
// caller that acts on it takes the lock with UpdateState and reads again.
func (s *Store) ReadState(key string) []byte {
	data, err := safefile.Read(s.statePath(key), maxStateSize)
	if err != nil {
		return nil
	}
	return data
}
