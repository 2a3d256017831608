package simulate

// simulate EVENT runs on a copy of the workspace's memory, so that trying
// an event (a SessionStart --today a month ahead, a SessionEnd) never
// archives, counts or rewrites anything of the user's.

import (
	"encoding/json"
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
		_ = copyFile(in.TranscriptPath, filepath.Join(dir, rel)) // one that cannot be read reads as none
		in.TranscriptPath = filepath.Join(dir, rel)
	}
	in.Cwd = dir
	out, err := answer(root, dir, in)
	restate := strings.NewReplacer("--dir "+wiring.ShellWord(dir), "--dir "+wiring.ShellWord(root), dir, root)
	out.Text = restate.Replace(out.Text)
	if out.JSON != nil { // every string in it, as JSON writes them
		data, _ := json.Marshal(out.JSON)
		inJSON := func(s string) string { q, _ := json.Marshal(s); return string(q[1 : len(q)-1]) }
		data = []byte(strings.NewReplacer(inJSON("--dir "+wiring.ShellWord(dir)), inJSON("--dir "+wiring.ShellWord(root)), inJSON(dir), inJSON(root)).Replace(string(data)))
		out.JSON = nil
		_ = json.Unmarshal(data, &out.JSON)
	}
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
