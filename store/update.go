package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store/safefile"
)

// Tx is one read-modify-write under the lock: the function given to
// Update changes File, adds to Archive and sets state.
type Tx struct {
	File     *memfile.File
	Warnings []memfile.Warning
	Archive  []memfile.Removal // what leaves the file, on disk before the file without it
	Notice   string            // what Update had to repair, for the user

	store    *Store
	state    map[string][]byte // state blobs as read
	stateSet map[string][]byte // state blobs to write

	read    []byte     // bimri.md as read, nil when it did not exist
	prov    []itemText // the items of bimri.md as read, nil with no data folder (provenance.go)
	pending []string   // pending entries recorded in File (pending.go)
	journal journal    // journal.go
	passed  string     // the day and config of a pass Maintain ran, "" for none
	settled bool       // see Settled
}

// Maintain runs the session-end pass on the transaction's file and queues
// what it archived.
func (tx *Tx) Maintain(today time.Time, cfg memfile.Config, opt memfile.Options) memfile.Report {
	rep := memfile.MaintainInPlace(tx.File, today, cfg, opt)
	tx.Archive = append(tx.Archive, rep.Removed...)
	// A plain pass after one changes nothing (TestPassIdempotent); after a
	// deep one with archived entries, that is not tested.
	if !opt.Deep {
		tx.passed = passOf(today, cfg)
	}
	return rep
}

// Settled says whether bimri.md as read is, byte for byte, what a pass on
// today under cfg left (the pass stamp says so) and the transaction added
// nothing: a pass would change nothing (TestPassIdempotent), so a reader
// (SessionStart) skips it, and bimri.md is left unrendered: the caller
// must not change File.
func (tx *Tx) Settled(today time.Time, cfg memfile.Config) bool {
	tx.settled = tx.read != nil && len(tx.pending) == 0 && len(tx.journal.restored) == 0 &&
		bytes.Equal(tx.State(passKey), passStamp(passOf(today, cfg), tx.read))
	return tx.settled
}

// passKey is the state blob of the pass stamp: a hash of the day and
// config of the last pass and of the bimri.md it left. It is saved after
// that file is on disk; lost or stale, it costs one pass.
const passKey = "pass"

func passOf(today time.Time, cfg memfile.Config) string {
	return fmt.Sprintf("%s %v\n", today.Format(time.DateOnly), cfg)
}

func passStamp(pass string, data []byte) []byte {
	h := sha256.New()
	h.Write([]byte(pass))
	h.Write(data)
	return hex.AppendEncode(nil, h.Sum(nil))
}

// Result says what Update did.
type Result struct {
	Changed bool   // bimri.md was written
	Notice  string // a repair the user should hear about
}

// maxAttempts bounds how often a transaction runs again on a bimri.md
// that keeps changing: errChanged, no longer the file it read.
const maxAttempts = 5

var errChanged = safefile.ErrChanged

// Update runs fn under the lock on the memory file and writes the result;
// nothing when fn fails or the bytes would not change. When an editor,
// git, or a writer whose lock file was removed changed bimri.md meanwhile,
// the whole transaction runs again on the file as it is now.
func (s *Store) Update(fn func(tx *Tx) error) (Result, error) {
	unlock, held, err := s.lock()
	if err != nil {
		return Result{}, err
	}
	defer func() { unlock() }()
	// git clean -fdX removes the lock file, and a writer that came
	// meanwhile locks a new one: taking the lock again waits for it.
	relock := func() bool {
		if held() {
			return true
		}
		unlock()
		if unlock, held, err = s.lock(); err != nil {
			unlock, held = func() {}, func() bool { return false }
		}
		return err == nil
	}
	s.removeTemps()
	if err := s.healBackup(); err != nil {
		return Result{}, err
	}
	path, err := s.safePath(s.names.Memory)
	if err != nil {
		return Result{}, err
	}
	rolled := s.rollArchive()
	return s.retry("while bimri-hook updated it", func() (Result, error) {
		tx, err := s.begin(path)
		if err != nil {
			return Result{}, err
		}
		tx.Notice = joinNotices(tx.Notice, rolled)
		if err := fn(tx); err != nil {
			return Result{}, err
		}
		// Still the file read, and the lock still this transaction's alone.
		return s.finish(tx, path, func() bool { return relock() && unchanged(path, tx.read) })
	})
}

// retry runs attempt again while it finds bimri.md changed under it, at
// most maxAttempts times.
func (s *Store) retry(during string, attempt func() (Result, error)) (Result, error) {
	for n := 1; ; n++ {
		res, err := attempt()
		if !errors.Is(err, errChanged) {
			return res, err
		}
		if n == maxAttempts {
			return res, fmt.Errorf("%w: %s changed %d times %s; left it as it is", ErrBusy, s.names.Memory, n, during)
		}
	}
}

func joinNotices(a, b string) string {
	return strings.Trim(a+"; "+b, "; ")
}

// unchanged says whether path still holds read (nil: no file there), the
// bytes a transaction read: the same bytes, whoever wrote them.
func unchanged(path string, read []byte) bool {
	if read == nil {
		_, err := os.Stat(path)
		return errors.Is(err, fs.ErrNotExist)
	}
	return safefile.Holds(path, read)
}

// A file being written in place (an editor, git) reads cut short for a
// moment, and replacing it then would lose its writer's bytes: a read
// that does not parse is broken only once nothing has written the file
// for settleQuiet (by the wall clock, as the file's time is the kernel's),
// read again every settlePoll for at most settleMax.
const (
	settlePoll  = 20 * time.Millisecond
	settleQuiet = 2 * time.Second
	settleMax   = 400 * time.Millisecond
)

// begin reads the memory file at path under the lock into a new
// transaction: a file that does not read is recovered; a damaged one that
// reads is set aside first.
func (s *Store) begin(path string) (*Tx, error) {
	tx := &Tx{store: s, state: map[string][]byte{}, stateSet: map[string][]byte{}}
	old, err := safefile.Read(path, memfile.MaxMemorySize)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		tx.File = memfile.New(s.config)
	case err != nil:
		return nil, fmt.Errorf("read %s: %w", s.names.Memory, err)
	default:
		var d memfile.Damage
		tx.File, tx.Warnings, d, err = memfile.ParseStored(old)
		for waited := time.Duration(0); errors.Is(err, memfile.ErrUnreadable) || d.Cut; waited += settlePoll {
			info, serr := os.Stat(path)
			if serr != nil {
				break // gone: what is there is read next
			}
			if age := time.Since(info.ModTime()); age < 0 || age >= settleQuiet {
				break
			} else if waited >= settleMax {
				return nil, fmt.Errorf("%w: %s does not read and was written %s ago (an editor or git may be writing it); left it as it is",
					ErrBusy, s.names.Memory, age.Round(time.Millisecond))
			}
			time.Sleep(settlePoll)
			again, rerr := safefile.Read(path, memfile.MaxMemorySize)
			if rerr != nil {
				break
			}
			old = again
			tx.File, tx.Warnings, d, err = memfile.ParseStored(old)
		}
		switch {
		case errors.Is(err, memfile.ErrUnreadable):
			if err := s.recover(path, old, err, tx); err != nil {
				return nil, err
			}
			old = memfile.Render(tx.File) // the recovered file is already on disk
		case err != nil:
			return nil, err
		case d.Any():
			aside, err := s.setAside(path, old)
			if err != nil {
				return nil, fmt.Errorf("%s: %s, and could not be set aside: %w", s.names.Memory, d.Describe(), err)
			}
			tx.Notice = fmt.Sprintf("%s %s; kept the file as it was as %s", s.names.Memory, d.Describe(), aside)
		}
		tx.read = old
	}
	tx.journal.readIDs = entryIDs(tx.File)
	tx.prov = s.beginProvenance(tx.File)
	s.takePending(tx) // after the provenance: they were recorded here
	s.beginJournal(tx)
	return tx, nil
}

// finish writes the journal, then the file with its backup and archive
// (or the archive alone) and the pass stamp, then the bookkeeping and
// session state. A settled transaction has nothing to render or write.
func (s *Store) finish(tx *Tx, path string, unchanged func() bool) (Result, error) {
	res := Result{Notice: tx.Notice}
	if !tx.settled {
		old := tx.read // nil when created: nothing to back up
		s.journalNew(tx)
		data := memfile.Render(tx.File)
		if !bytes.Equal(data, old) {
			if err := s.commit(path, data, old, old, tx.Archive, unchanged); err != nil {
				return res, err
			}
			res.Changed = true
		} else if err := s.writeArchive(tx.Archive); err != nil {
			return res, err
		}
		if tx.passed != "" {
			tx.State(passKey) // read, so that the same stamp is not written again
			tx.SetState(passKey, passStamp(tx.passed, data))
		}
	}
	s.journalAfter(tx)
	s.finishProvenance(tx.prov, tx.File, res.Changed)
	for _, p := range tx.pending {
		_ = os.Remove(p)
	}
	if tx.pending != nil {
		_ = os.Remove(s.pendingPath()) // fails while another is pending
	}
	return res, s.saveState(tx.state, tx.stateSet)
}
