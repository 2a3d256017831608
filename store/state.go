package store

// Session state is bookkeeping (what a session was shown, counted,
// asked), a file a key in the state folder, replaced atomically, never
// synced: a power cut costs a session counted twice.

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
		if old := read[key]; old == nil || !bytes.Equal(old, data) {
			if err := s.WriteState(key, data); err != nil {
				return fmt.Errorf("save state: %w", err)
			}
		}
	}
	return nil
}

func (s *Store) statePath(key string) string {
	return filepath.Join(s.StatePath(), stateKey(key)+".json")
}

// stateKey keeps a key (a session ID from hook input) a plain file name.
func stateKey(key string) string {
	const plain = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"
	if len(key) > 0 && len(key) <= 100 && strings.Trim(key, plain) == "" { // all of it plain
		return key
	}
	sum := sha256.Sum256([]byte(key))
	return "h-" + hex.EncodeToString(sum[:4])
}

// sideMode is a new side file's mode (the archive, a set-aside copy,
// session state) before the umask: bimri.md's, writable by its owner, so
// a private bimri.md (chmod 600) keeps its text private everywhere;
// without one, 0o666 as os.Create.
func (s *Store) sideMode() fs.FileMode {
	info, err := os.Stat(s.Path(s.names.Memory))
	if err != nil {
		return 0o666
	}
	return info.Mode().Perm() | 0o200
}

// PruneState removes session state older than age.
func (s *Store) PruneState(age time.Duration) {
	entries, _ := os.ReadDir(s.StatePath())
	for _, e := range entries {
		if info, err := e.Info(); err == nil && strings.HasSuffix(e.Name(), ".json") && info.ModTime().Before(s.now().Add(-age)) {
			_ = os.Remove(filepath.Join(s.StatePath(), e.Name()))
		}
	}
}

// UpdateState runs fn under the lock on the state blobs named by keys (a
// missing one is nil) and saves those it changed; it never touches
// bimri.md, so bookkeeping (recall's "already shown") cannot rewrite it.
func (s *Store) UpdateState(keys []string, fn func(state map[string][]byte) error) error {
	unlock, _, err := s.lock()
	if err != nil {
		return err
	}
	defer unlock()
	read, next := map[string][]byte{}, map[string][]byte{}
	for _, k := range keys {
		if read[k] = s.ReadState(k); read[k] != nil {
			next[k] = read[k]
		}
	}
	if err := fn(next); err != nil {
		return err
	}
	maps.DeleteFunc(next, func(k string, _ []byte) bool { return !slices.Contains(keys, k) })
	return s.saveState(read, next)
}

// ReadState returns a saved state blob without the lock (nil if none): a
// whole version, as writers replace state files atomically.
func (s *Store) ReadState(key string) []byte {
	data, _ := safefile.Read(s.statePath(key), maxStateSize)
	return data
}

// WriteState replaces the state blob key, atomically and unsynced, without
// the lock: for a blob one event of one session alone writes. The state
// folder is made again if it has gone.
func (s *Store) WriteState(key string, data []byte) error {
	path, opt := s.statePath(key), safefile.Options{NoSync: true, NewPerm: s.sideMode()}
	return inFolder(func() error { return safefile.WriteFile(path, data, opt) },
		func() error { _, err := s.stateDir(); return err })
}

// SetAsideState keeps data, the state blob key that does not read, beside
// it (KEY.json.broken-TIME, which PruneState leaves), so the caller can
// start afresh without losing it.
func (s *Store) SetAsideState(key string, data []byte) error {
	_, err := s.setAside(s.statePath(key), data)
	return err
}
