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
	"github.com/bimri/bimri-hook/store/safefile"
)

func (s *Store) pendingPath() string { return filepath.Join(s.StatePath(), "pending") }

// Pend leaves e for the next transaction to record, without the lock, in
// a file named by key and the clock: a session that pends twice keeps both.
func (s *Store) Pend(key string, e memfile.NewEntry) error {
	if _, err := s.stateDir(); err != nil {
		return err
	}
	e.Text = privacy.Clean(e.Text) // the pending file is a file too
	data, err := json.Marshal(e)
	dir := s.pendingPath()
	path := filepath.Join(dir, stateKey(key)+"-"+strconv.FormatInt(s.now().UnixNano(), 36)+".json")
	for try := 0; err == nil && try < 3; try++ {
		if err = os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			break
		}
		// A transaction that recorded the last entry removes the folder.
		if err = safefile.WriteFile(path, data, safefile.Options{NoSync: s.noSync, NewPerm: s.sideMode()}); !errors.Is(err, fs.ErrNotExist) {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("keep the entry for later: %w", err)
	}
	return nil
}

// takePending records the pending entries in tx's file, as remember does,
// for finish to remove.
func (s *Store) takePending(tx *Tx) {
	list, _ := os.ReadDir(s.pendingPath()) // none: the usual case
	for _, d := range list {
		if !strings.HasSuffix(d.Name(), ".json") {
			continue // a temporary file: removeTemps sweeps it
		}
		path := filepath.Join(s.pendingPath(), d.Name())
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
