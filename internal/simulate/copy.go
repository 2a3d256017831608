package simulate

// simulate EVENT runs on a copy of the workspace's memory, so that trying
// an event (a SessionStart --today a month ahead, a SessionEnd) never
// archives, counts or rewrites anything of the user's.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/bimri/bimri-hook/hooks"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
	"github.com/bimri/bimri-hook/wiring"
)

// onCopy answers in on a temporary copy of what the store at root reads
// and writes (the memory, its backup and archive, the state folder), and
// gives back the answer naming the workspace, not the copy.
func onCopy(root string, in hooks.Input, answer Answer) (hooks.Output, error) {
	dir, err := os.MkdirTemp("", "bimri-simulate-")
	if err != nil {
		return hooks.Output{}, fmt.Errorf("simulate: a temporary folder for the copy: %w", err)
	}
	defer os.RemoveAll(dir)
	for _, name := range []string{memfile.MemoryName, memfile.BackupName, memfile.ArchiveName, store.StateDir} {
		top := filepath.Join(root, filepath.FromSlash(name))
		err := filepath.WalkDir(top, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || (path != top && !d.Type().IsRegular()) {
				return err // links inside the state folder are not followed
			}
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			return copyFile(path, filepath.Join(dir, rel))
		})
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return hooks.Output{}, fmt.Errorf("simulate: copy %s: %w", name, err)
		}
	}
	// A transcript inside the workspace is read from the copy (the
	// handler reads transcripts only there, or under the client's folder).
	if rel, err := filepath.Rel(root, in.TranscriptPath); err == nil && filepath.IsLocal(rel) {
		from := in.TranscriptPath
		in.TranscriptPath = filepath.Join(dir, rel)
		_ = copyFile(from, in.TranscriptPath) // one that cannot be read reads as none
	}
	in.Cwd = dir
	out, err := answer(root, dir, in)
	restate := func(s string) string {
		s = strings.ReplaceAll(s, "--dir "+wiring.ShellWord(dir), "--dir "+wiring.ShellWord(root))
		return strings.ReplaceAll(s, dir, root)
	}
	out.Text = restate(out.Text)
	out.JSON, _ = restateValue(out.JSON, restate).(map[string]any)
	return out, err
}

func copyFile(from, to string) error {
	info, err := os.Stat(from)
	if err != nil || !info.Mode().IsRegular() {
		return err
	}
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	return os.WriteFile(to, data, info.Mode().Perm()|0o200)
}

func restateValue(v any, restate func(string) string) any {
	switch v := v.(type) {
	case string:
		return restate(v)
	case map[string]any:
		if v == nil {
			return v
		}
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[k] = restateValue(e, restate)
		}
		return m
	case []any:
		l := make([]any, len(v))
		for i, e := range v {
			l[i] = restateValue(e, restate)
		}
		return l
	}
	return v
}
