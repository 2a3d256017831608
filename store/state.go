package store

// Session state is bookkeeping beside the memory (what a session was
// shown, counted, asked), one file a key in the state folder, replaced
// atomically but never synced: a power cut costs a session counted
// twice, and SessionEnd saves two fsyncs.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/store/safefile"
)

// State returns a saved state blob (nil if none).
func (tx *Tx) State(key string) []byte {
	if v, ok := tx.stateSet[key]; ok {
		return v
	}
	if _, ok := tx.state[key]; !ok {
		tx.state[key] = tx.store.ReadState(key)
	}
	return tx.state[key]
}

// SetState saves a state blob when the transaction commits.
func (tx *Tx) SetState(key string, data []byte) { tx.stateSet[key] = data }

// saveState writes the blobs of set that are not as read.
func (s *Store) saveState(read, set map[string][]byte) error {
	for key, data := range set {
		if old, ok := read[key]; ok && old != nil && bytes.Equal(old, data) {
			continue
		}
		if err := s.WriteState(key, data); err != nil {
			return fmt.Errorf("save state: %w", err)
		}
	}
	return nil
}

func (s *Store) statePath(key string) string {
	return filepath.Join(s.StatePath(), stateKey(key)+".json")
}

// stateKey keeps a key (a session ID from hook input) a plain file name.
func stateKey(key string) string {
	ok := len(key) > 0 && len(key) <= 100
	for _, r := range key {
		ok = ok && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_')
	}
	if ok {
		return key
	}
	sum := sha256.Sum256([]byte(key))
	return "h-" + hex.EncodeToString(sum[:4])
}

// sideMode is the mode a new side file (the archive, a set-aside copy,
// session state) is created with, before the umask: bimri.md's own, so
// that what a user made private (chmod 600 bimri.md) stays private in
// every file that holds its text, and at least writable by its owner.
// Without a bimri.md, 0o666 as os.Create, which the umask narrows.
func (s *Store) sideMode() fs.FileMode {
	info, err := os.Stat(s.Path(s.names.Memory))
	if err != nil {
		return 0o666
	}
	return info.Mode().Perm() | 0o200
}

// PruneState removes per-session state older than age, so the state folder
// does not grow with every session ever run.
func (s *Store) PruneState(age time.Duration) {
	entries, _ := os.ReadDir(s.StatePath())
	for _, e := range entries {
		if info, err := e.Info(); err == nil && strings.HasSuffix(e.Name(), ".json") && info.ModTime().Before(s.now().Add(-age)) {
			_ = os.Remove(filepath.Join(s.StatePath(), e.Name()))
		}
	}
}

// UpdateState runs fn under the workspace lock on the state blobs named by
// keys (a missing one is nil) and saves those fn changed in the map. It
// never reads or writes bimri.md, so a hook that only keeps bookkeeping
// (recall's "already shown this session") cannot rewrite the memory.
func (s *Store) UpdateState(keys []string, fn func(state map[string][]byte) error) error {
	unlock, _, err := s.lock()
	if err != nil {
		return err
	}
	defer unlock()
	state := map[string][]byte{}
	for _, k := range keys {
		if data := s.ReadState(k); data != nil {
			state[k] = data
		}
	}
	next := maps.Clone(state)
	if err := fn(next); err != nil {
		return err
	}
	maps.DeleteFunc(next, func(k string, _ []byte) bool { return !slices.Contains(keys, k) })
	return s.saveState(state, next)
}

// ReadState returns a saved state blob without the lock (nil if none).
// Writers replace state files atomically, so it is a whole version; a
// caller that acts on it takes the lock with UpdateState and reads again.
func (s *Store) ReadState(key string) []byte {
	data, _ := safefile.Read(s.statePath(key), maxStateSize)
	return data
}

// WriteState replaces the state blob key, atomically and without a
// sync; without the lock, for a blob one event of one session alone
// writes. The state folder, checked when the lock was taken, is made
// again only if it has gone since.
func (s *Store) WriteState(key string, data []byte) error {
	path, opt := s.statePath(key), safefile.Options{NoSync: true, NewPerm: s.sideMode()}
	return inFolder(func() error { return safefile.WriteFile(path, data, opt) },
		func() error { _, err := s.stateDir(); return err })
}

// SetAsideState keeps a copy of the state blob key, whose bytes data do
// not read, beside it (KEY.json.broken-TIME, as a bimri.md that does not
// read is kept), so the caller can start that bookkeeping afresh without
// losing what it held. The copy is not a .json file, so PruneState
// leaves it.
func (s *Store) SetAsideState(key string, data []byte) error {
	_, err := s.setAside(s.statePath(key), data)
	return err
}
