package store

// Update is the store's one read-modify-write. It is kept short, a
// sequence of steps whose work lives in the other store files (the lock,
// writing, the archive, the state), so the order that keeps
// memory safe reads in one place.

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store/atomicfile"
	"github.com/bimri/bimri-hook/store/safefile"
)

// Tx is one read-modify-write under the lock. The function given to
// Update changes File, adds to Archive and sets state; Update writes them.
type Tx struct {
	File     *memfile.File
	Warnings []memfile.Warning
	// Archive collects what leaves the file; it is appended to the archive
	// before the new file is written, so nothing is ever only in memory.
	Archive []memfile.Removal
	Created bool   // bimri.md did not exist and was made from the template
	Notice  string // what Update had to repair, for the user

	store    *Store
	state    map[string][]byte
	stateSet map[string][]byte

	read []byte // bimri.md as read
	// prov is which of the file's items were recorded here (see
	// store_provenance.go).
	prov provenance
	// mark is bimri.md as read, to tell whether it changed before the
	// write renames a new one in place.
	mark readMark
	// pending are the pending entries recorded in File (store_pending.go),
	// removed once it is on disk.
	pending []string
	// relock makes sure the transaction's lock is still held, taking it
	// again if its file was removed (see Update); nil: not checked.
	relock func() bool
	// The journal (journal.go): as read, the branch checked out, the
	// entries' IDs as read, the entries it restored, and those it
	// journaled.
	journal   journal
	branch    string // the git HEAD, which journal records name
	readIDs   map[string]bool
	restored  []string
	journaled []journalRecord
}

// Maintain runs the session-end pass on the transaction's file and queues
// what it archived, so the archive is written with the file.
func (tx *Tx) Maintain(today time.Time, cfg memfile.Config, opt memfile.Options) memfile.Report {
	// The transaction owns its File and the caller has kept nothing of
	// it from before the pass, so the pass runs on it without a copy.
	rep := memfile.MaintainInPlace(tx.File, today, cfg, opt)
	tx.Archive = append(tx.Archive, rep.Removed...)
	return rep
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
	unlock, held, err := s.lockHeld()
	if err != nil {
		return Result{}, err
	}
	defer func() { unlock() }()
	// relock takes the lock again if its file was removed while it was
	// held (git clean -fdX removes the state folder): a writer that came
	// meanwhile took a new lock file and may be writing. Taking the lock
	// as its path names it now waits for that writer, and what it wrote
	// then shows as a change of bimri.md. False when the lock could not
	// be taken again.
	relock := func() bool {
		if held() {
			return true
		}
		unlock()
		var err error
		if unlock, held, err = s.lockHeld(); err != nil {
			unlock, held = func() {}, func() bool { return false }
			return false
		}
		return true
	}
	s.removeTemps()
	if err := s.healBackup(); err != nil {
		return Result{}, err
	}
	path, err := s.safePath(s.names.Memory)
	if err != nil {
		return Result{}, err
	}
	// bimri.md can change under the lock: an editor, git (a checkout, a
	// pull) or a writer whose lock file was removed write it without
	// taking the lock. The write checks, just before its rename, that the
	// file is still the one read, and when it is not, the whole
	// transaction runs again on what the file is now: a change made
	// meanwhile is never renamed away. Every transaction function only
	// sets what it returns and what the Tx holds, so running it again
	// gives what running it once on the new file would.
	rolled := s.rollArchive()
	for attempt := 1; ; attempt++ {
		var res Result
		tx, old, err := s.begin(path)
		if err == nil {
			tx.relock = relock
			tx.Notice = joinNotices(tx.Notice, rolled)
			if err := fn(tx); err != nil {
				return Result{}, err
			}
			res, err = s.finish(tx, path, old)
		}
		if !errors.Is(err, errChanged) {
			return res, err
		}
		if attempt == maxAttempts {
			return res, fmt.Errorf("%w: %s changed %d times while bimri-hook updated it; left it as it is", ErrBusy, s.names.Memory, attempt)
		}
	}
}

// joinNotices is the notices that are not empty, in one.
func joinNotices(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "; " + b
}

// maxAttempts bounds how often a transaction runs again on a bimri.md
// that keeps changing under it.
const maxAttempts = 5

// errChanged means bimri.md is no longer the file the transaction read.
var errChanged = errors.New("changed since it was read")

// readMark is bimri.md as a transaction read it: what says, just before
// the rename, whether it is still that file.
type readMark struct {
	exists bool
	info   fs.FileInfo
	data   []byte
}

// markRead records the file at path, whose bytes data are as read. A
// file that changed between the read and the stat has another size, and
// is then compared byte for byte.
func markRead(path string, data []byte) readMark {
	info, err := os.Stat(path)
	if err != nil {
		return readMark{}
	}
	if info.Size() != int64(len(data)) {
		info = nil
	}
	return readMark{exists: true, info: info, data: data}
}

// unchanged says whether path is still the file m recorded: the same
// file with the same size and time, or else the same bytes (a touch, or
// an editor saving what was there, changes nothing).
func (m readMark) unchanged(path string) bool {
	info, err := os.Stat(path)
	if !m.exists {
		return errors.Is(err, fs.ErrNotExist)
	}
	if err != nil {
		return false
	}
	if m.info != nil && os.SameFile(info, m.info) && info.Size() == m.info.Size() && info.ModTime().Equal(m.info.ModTime()) {
		return true
	}
	data, err := safefile.Read(path, memfile.MaxMemorySize)
	return err == nil && bytes.Equal(data, m.data)
}

// A file being written in place (an editor saving, git checking it out)
// reads empty or cut short for a moment, and its writer may pause
// between creating the file and writing it. Putting the backup in its
// place then would send the writer's bytes to an unlinked file. So a
// read that does not parse counts as a broken file only once nothing has
// written it for settleQuiet (by its time), far longer than a writer's
// pause: the file is read again every settlePoll until it parses, for at
// most settleMax (which leaves SessionEnd well inside its 1.5 s after its
// lock wait); a file still younger than settleQuiet is then left as it
// is, busy, for a later event. Just before the rename, the file must
// still be the one read (readMark: size and time).
const (
	settlePoll  = 20 * time.Millisecond
	settleQuiet = 2 * time.Second
	settleMax   = 400 * time.Millisecond
)

// awaitWriter is the bytes of path, read as data, once they parse (parses
// says) or once nothing has written path for settleQuiet. A file still
// being written after settleMax is ErrBusy: left as it is, for a later
// event. The file's time is the kernel's, so it is compared with the
// wall clock, not the store's (which tests set to other days).
func awaitWriter(path string, data []byte, parses func([]byte) bool) ([]byte, error) {
	for waited := time.Duration(0); ; waited += settlePoll {
		info, err := os.Stat(path)
		if err != nil {
			return data, nil // gone: the caller reads what is there next
		}
		age := time.Since(info.ModTime())
		if age < 0 || age >= settleQuiet {
			return data, nil
		}
		if waited >= settleMax {
			return nil, fmt.Errorf("%w: %s does not read and was written %s ago (an editor or git may be writing it); left it as it is", ErrBusy, filepath.Base(path), age.Round(time.Millisecond))
		}
		time.Sleep(settlePoll)
		again, err := safefile.Read(path, memfile.MaxMemorySize)
		if err != nil {
			return data, nil
		}
		if !bytes.Equal(again, data) {
			data = again
			if parses(data) {
				return data, nil
			}
		}
	}
}

// begin reads the memory file at path under the lock into a new
// transaction, and returns it with the bytes read (nil when there is no
// file). It starts from the backup, or a fresh file, when the file does
// not read (recover).
func (s *Store) begin(path string) (*Tx, []byte, error) {
	tx := &Tx{store: s, state: map[string][]byte{}, stateSet: map[string][]byte{}}
	defer func() { tx.mark = markRead(path, tx.read) }()
	old, err := safefile.Read(path, memfile.MaxMemorySize)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		tx.File = memfile.New(s.config)
		tx.Created = true
	case err != nil:
		return nil, nil, fmt.Errorf("read %s: %w", s.names.Memory, err)
	default:
		var d memfile.Damage
		tx.File, tx.Warnings, d, err = memfile.ParseStored(old) // old is only ever read after this
		if errors.Is(err, memfile.ErrUnreadable) || d.Cut {
			// A file being written in place (an editor, git checking it
			// out) reads cut short or empty for a moment: it is read
			// again once its writer is done before it counts as broken,
			// or as cut short.
			again, err2 := awaitWriter(path, old, complete)
			if err2 != nil {
				return nil, nil, err2
			}
			if !bytes.Equal(again, old) {
				old = again
				tx.File, tx.Warnings, d, err = memfile.ParseStored(old)
			}
		}
		switch {
		case errors.Is(err, memfile.ErrUnreadable):
			if err := s.recover(path, old, err, tx); err != nil {
				return nil, nil, err
			}
			old = memfile.Render(tx.File) // the recovered file is already on disk
		case err != nil:
			return nil, nil, err
		case d.Any():
			if err := s.keepDamaged(path, old, d, tx); err != nil {
				return nil, nil, err
			}
		}
		tx.read = old
	}
	tx.readIDs = entryIDs(tx.File)
	tx.prov = s.beginProvenance(tx.File)
	s.takePending(tx) // after the provenance: they were recorded here
	tx.branch = s.gitBranch()
	if j, err := s.readJournal(); err == nil {
		tx.journal = j
		s.restoreJournaled(tx)
	}
	return tx, old, nil
}

// finish writes what the transaction left, old being the memory file as
// begin read it: the new file with its backup and archive (commit), or
// the archive alone when the file's bytes do not change; then the
// session state.
func (s *Store) finish(tx *Tx, path string, old []byte) (Result, error) {
	res := Result{Created: tx.Created, Notice: tx.Notice}
	if tx.Created {
		old = nil // nothing to compare with or back up
	}
	// The journal first: an entry this transaction adds is on disk
	// there before bimri.md holds it, so whatever later writes bimri.md
	// over it, the next transaction restores it. Bookkeeping that fails
	// (no data folder) does not stop the write.
	tx.journaled = newEntries(tx.File, tx.readIDs, tx.journal, tx.branch)
	if len(tx.journaled) > 0 {
		_ = s.appendJournal(tx.journaled)
		s.pauseStep() // journaled, bimri.md not yet written
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
		// The file must still be the one read, and the lock still this
		// transaction's alone: a writer that took a new lock file after
		// the state folder was removed may be writing too.
		unchanged := func() bool { return (tx.relock == nil || tx.relock()) && tx.mark.unchanged(path) }
		if err := s.commit(path, old, next.file, tx.Archive, unchanged); err != nil {
			return res, err
		}
		res.Changed = true
	} else if len(tx.Archive) > 0 {
		if err := s.appendArchive(tx.Archive); err != nil {
			return res, err
		}
	}
	s.journalAfter(tx, tx.File)
	s.finishProvenance(tx.prov, tx.File, res.Changed)
	s.dropPending(tx)
	return res, s.saveTxState(tx)
}
