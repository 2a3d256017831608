package store

// Pending entries are what a writer had to record but could not: the
// lock stayed busy past what it may wait. SessionEnd is that writer. The
// client kills it after about 1.5 s, so it may wait less than a second,
// and when it must give up, its session's fallback summary (the only
// trace of a session that recorded nothing) would be lost. So it is
// left in the state folder instead, under a name no other writer uses
// (written atomically, without the lock), and the next transaction that
// gets the lock, whichever event or command runs it, records it in
// bimri.md (begin) and removes it once bimri.md holds it (finish).

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/privacy"
	"github.com/bimri/bimri-hook/store/atomicfile"
	"github.com/bimri/bimri-hook/store/safefile"
)

// pendingFolder, in the state folder, holds the pending entries, one a
// file.
const pendingFolder = "pending"

func (s *Store) pendingPath() string { return filepath.Join(s.StatePath(), pendingFolder) }

// Pend leaves e (nil: none) for the next transaction to record, and saves
// state as the state blob key (nil: left as it is), both without the
// lock. It is for a writer that found the lock busy and owns key: a
// session's state, which only that session's events write, one after
// another, so no transaction writes it meanwhile.
func (s *Store) Pend(key string, state []byte, e *memfile.NewEntry) error {
	if _, err := s.stateDir(); err != nil {
		return err
	}
	if e != nil {
		clean := *e
		clean.Text = privacy.Clean(e.Text) // the pending file is a file too
		if err := s.savePending(key, clean); err != nil {
			return fmt.Errorf("keep the entry for later: %w", err)
		}
	}
	if state != nil {
		if err := s.writeState(s.statePath(key), state); err != nil {
			return fmt.Errorf("save state: %w", err)
		}
	}
	return nil
}

// savePending writes e under a name of its own: key and the clock, so
// a session that pends twice (ended, resumed, ended again, busy both
// times) keeps both.
func (s *Store) savePending(key string, e memfile.NewEntry) error {
	dir := s.pendingPath()
	data, err := json.Marshal(e)
	if err != nil {
		return err
	}
	name := stateKey(key) + "-" + strconv.FormatInt(s.now().UnixNano(), 36) + ".json"
	opt := atomicfile.Options{NoSync: s.noSync, NewPerm: s.sideMode()}
	for range 3 {
		if err = os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
		if info, err := os.Lstat(dir); err == nil && !info.IsDir() {
			return fmt.Errorf("%s is not a folder", dir)
		}
		// The folder can go between the two: a transaction removes it
		// when it has recorded the last entry in it.
		if err = atomicfile.WriteFile(filepath.Join(dir, name), data, opt); !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return err
}

// takePending records the pending entries in tx's file, weighed as the
// remember command weighs an entry, and notes their files for finish to
// remove. Recording one twice (a crash between the rename and the
// removal) updates the first, as Add does with the same text on the
// same day. A file that is no pending entry is removed unread.
func (s *Store) takePending(tx *Tx) {
	dir := s.pendingPath()
	list, err := os.ReadDir(dir)
	if err != nil {
		return // none: the usual case, one failed open
	}
	for _, d := range list {
		if !strings.HasSuffix(d.Name(), ".json") {
			continue // a temporary file: removeTemps sweeps it
		}
		path := filepath.Join(dir, d.Name())
		data, err := safefile.Read(path, maxStateSize)
		if err != nil {
			continue
		}
		var e memfile.NewEntry
		if json.Unmarshal(data, &e) == nil {
			if _, _, err := tx.File.Remember(e, s.config); err != nil {
				continue // kept, as it was left
			}
		}
		tx.pending = append(tx.pending, path)
	}
}

// dropPending removes the pending entries a transaction recorded, once
// bimri.md holds them, and the folder once it is empty.
func (s *Store) dropPending(tx *Tx) {
	if len(tx.pending) == 0 {
		return
	}
	for _, p := range tx.pending {
		_ = os.Remove(p)
	}
	_ = os.Remove(s.pendingPath()) // fails while another is pending
}
