package store

// Pending entries are what SessionEnd could not record with the lock
// busy: one file each, left without the lock, recorded by the next
// transaction and removed once bimri.md holds them.

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

const pendingFolder = "pending" // in the state folder, one entry a file

func (s *Store) pendingPath() string { return filepath.Join(s.StatePath(), pendingFolder) }

// Pend leaves e (nil: none) for the next transaction to record, and saves
// state as the state blob key (nil: none), both without the lock.
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
		if err := s.WriteState(key, state); err != nil {
			return fmt.Errorf("save state: %w", err)
		}
	}
	return nil
}

// savePending writes e named by key and the clock: a session that pends
// twice keeps both.
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
		// A transaction that recorded the last entry removes the folder.
		if err = atomicfile.WriteFile(filepath.Join(dir, name), data, opt); !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return err
}

// takePending records the pending entries in tx's file, as remember does,
// for finish to remove.
func (s *Store) takePending(tx *Tx) {
	dir := s.pendingPath()
	list, err := os.ReadDir(dir)
	if err != nil {
		return // none: the usual case
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

// dropPending removes the entries bimri.md now holds, and the empty folder.
func (s *Store) dropPending(tx *Tx) {
	if len(tx.pending) == 0 {
		return
	}
	for _, p := range tx.pending {
		_ = os.Remove(p)
	}
	_ = os.Remove(s.pendingPath()) // fails while another is pending
}
