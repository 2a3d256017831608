// Package snapshot records the files under a folder with their
// modification times, for the harnesses that put a workspace back as it
// was before every run: reliability/cmd/benchrun, which times the hooks,
// and cmd/bimri-hook's BenchmarkHookMix, which profiles them for
// default.pgo. The times matter: the recall index is keyed on the
// archive's size and time, so a file no run changed must keep its time.
package snapshot

import (
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Files is a folder's regular files: content and modification time by
// slash-separated path relative to the folder.
type Files struct {
	Data   map[string][]byte
	MTimes map[string]time.Time
}

// Take reads every regular file under root.
func Take(root string) (Files, error) {
	s := Files{Data: map[string][]byte{}, MTimes: map[string]time.Time{}}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		s.Data[filepath.ToSlash(rel)] = data
		s.MTimes[filepath.ToSlash(rel)] = info.ModTime()
		return nil
	})
	return s, err
}
