package store

// Session state is bookkeeping beside the memory (what a session was
// shown, counted, asked), kept in the state folder. It is written
// atomically but never synced, unlike memory, so it is kept apart from
// the memory file's writes.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/store/atomicfile"
	"github.com/bimri/bimri-hook/store/safefile"
)

// State returns a saved state blob (nil if none).
func (tx *Tx) State(key string) []byte {
	if v, ok := tx.stateSet[key]; ok {
		return v
	}
	if v, ok := tx.state[key]; ok {
		return v
	}
	data := tx.store.ReadState(key)
	if data != nil {
		tx.state[key] = data
	}
	return data
}

// SetState saves a state blob when the transaction commits.
func (tx *Tx) SetState(key string, data []byte) { tx.stateSet[key] = data }

// saveTxState writes the state blobs the transaction set and changed.
// Session state is bookkeeping, not memory: it is still replaced
// atomically, but not synced, which saves SessionEnd two fsyncs. A power
// cut can lose it; at worst a session is counted twice.
func (s *Store) saveTxState(tx *Tx) error {
	for key, data := range tx.stateSet {
		if read, ok := tx.state[key]; ok && bytes.Equal(read, data) {
			continue // unchanged since this transaction read it
		}
		if err := s.writeState(s.statePath(key), data); err != nil {
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
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			ok = false
		}
	}
	if ok {
		return key
	}
	return "h-" + hashKey(key)
}

// writeState replaces a file in the state folder, atomically and without
// a sync. The lock made and checked the folder (stateDir) when the
// transaction began; only if it has gone since is it made again, rather
// than checked again before every write (some twenty system calls each).
func (s *Store) writeState(path string, data []byte) error {
	opt := atomicfile.Options{NoSync: true, NewPerm: s.sideMode()}
	err := atomicfile.WriteFile(path, data, opt)
	if errors.Is(err, fs.ErrNotExist) {
		if _, err = s.stateDir(); err == nil {
			err = atomicfile.WriteFile(path, data, opt)
		}
	}
	return err
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
		if data := s.ReadState(k); data != nil {
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

// WriteState replaces the state blob key without the lock, atomically
// and without a sync: for a blob that one event of one session alone
// writes (what its SessionStart showed), where there is nothing to read,
// modify and write back under the lock.
func (s *Store) WriteState(key string, data []byte) error {
	return s.writeState(s.statePath(key), data)
}

// SetAsideState keeps a copy of the state blob key, whose bytes data do
// not read, beside it (KEY.json.broken-TIME, as a bimri.md that does not
// read is kept), so the caller can start that bookkeeping afresh without
// losing what it held. It returns the copy's path. The copy is not a
// .json file, so PruneState leaves it.
func (s *Store) SetAsideState(key string, data []byte) (string, error) {
	return s.setAside(s.statePath(key), data)
}

// hashKey is the first 8 hex digits of key's SHA-256: a file name for a
// key that is not one.
func hashKey(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:4])
}
