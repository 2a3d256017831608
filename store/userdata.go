package store

// The user's data folder holds, one folder per workspace, what a
// teammate must not be able to commit: provenance and the journal.

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"

	"github.com/bimri/bimri-hook/store/safefile"
)

// DataEnv names the user's data folder, when set.
const DataEnv = "BIMRI_DATA_DIR"

// UserDataDir is the user's data folder for bimri-hook: $BIMRI_DATA_DIR,
// $XDG_DATA_HOME/bimri-hook, ~/.local/share/bimri-hook on Unix, under
// os.UserConfigDir on macOS and Windows; "" for none.
func UserDataDir() string {
	if d := os.Getenv(DataEnv); filepath.IsAbs(d) {
		return d
	}
	if d := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "bimri-hook")
	}
	switch runtime.GOOS {
	case "darwin", "ios", "windows", "plan9":
		if d, err := os.UserConfigDir(); err == nil {
			return filepath.Join(d, "bimri-hook")
		}
		return ""
	}
	if h, err := os.UserHomeDir(); err == nil && filepath.IsAbs(h) {
		return filepath.Join(h, ".local", "share", "bimri-hook")
	}
	return ""
}

// dataPath is name in the user's data folder's folder for this store,
// named by a hash of its root and memory file's name; "" for none.
func (s *Store) dataPath(name string) string {
	if s.dataBase == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(s.root + "\x00" + s.names.Memory))
	return filepath.Join(s.dataBase, "workspaces", hex.EncodeToString(sum[:8]), name)
}

// makeDataFolder creates the store's private data folder, with a file
// naming the workspace for a person who looks.
func (s *Store) makeDataFolder() error {
	path := s.dataPath("workspace")
	if path == "" {
		return errors.New("no data folder")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return safefile.WriteFile(path, []byte(s.root+"\n"), safefile.Options{NoSync: true, NewPerm: 0o600})
}

// writeData replaces a file of the data folder atomically, not synced,
// creating the folder when it is missing.
func (s *Store) writeData(name string, data []byte) error {
	path := s.dataPath(name)
	return inFolder(func() error {
		return safefile.WriteFile(path, data, safefile.Options{NoSync: true, NewPerm: 0o600})
	}, s.makeDataFolder)
}

// inFolder runs write, and once more after mkdir if its folder is missing.
func inFolder(write, mkdir func() error) error {
	err := write()
	if errors.Is(err, fs.ErrNotExist) {
		if err = mkdir(); err == nil {
			err = write()
		}
	}
	return err
}
