package simulate

// simulate EVENT runs on a copy of the workspace's memory, so that trying
// an event (a SessionStart --today a month ahead, a SessionEnd) never
// archives, counts or rewrites anything of the user's.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bimri/bimri-hook/hooks"
	"github.com/bimri/bimri-hook/internal/event"
	"github.com/bimri/bimri-hook/store"
	"github.com/bimri/bimri-hook/wiring"
)

// Copy copies what the store at root reads and writes (the memory, its
// backup and archive, the state folder) into a new temporary folder, and
// returns it with the function that removes it.
func Copy(root string, names store.Names) (dir string, remove func(), err error) {
	dir, err = os.MkdirTemp("", "bimri-simulate-")
	if err != nil {
		return "", nil, fmt.Errorf("simulate: a temporary folder for the copy: %w", err)
	}
	remove = func() { os.RemoveAll(dir) }
	for _, name := range []string{names.Memory, names.Backup, names.Archive} {
		if err := copyFile(filepath.Join(root, name), filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			remove()
			return "", nil, fmt.Errorf("simulate: copy %s: %w", name, err)
		}
	}
	state := filepath.Join(root, filepath.FromSlash(names.State))
	err = filepath.WalkDir(state, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err // a folder, a link: links are not followed
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		return copyFile(path, filepath.Join(dir, rel))
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		remove()
		return "", nil, fmt.Errorf("simulate: copy %s: %w", names.State, err)
	}
	return dir, remove, nil
}

// CopyTranscript is where the handler on the copy dir of root reads the
// transcript at path: one inside the workspace is copied (the handler
// reads transcripts only there, or under the client's folder).
func CopyTranscript(root, dir, path string) string {
	rel, err := filepath.Rel(root, path)
	if err != nil || !filepath.IsLocal(rel) {
		return path
	}
	to := filepath.Join(dir, rel)
	_ = copyFile(path, to) // a transcript that cannot be read reads as none
	return to
}

func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	info, err := src.Stat()
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, info.Mode().Perm()|0o200)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}

// Restate gives back out with the copy's folder named as the workspace
// it copies, so the answer reads as the client would get it from the
// workspace itself (the commands it gives the agent name --dir root).
func Restate(out hooks.Output, copyDir, root string) hooks.Output {
	restate := func(s string) string {
		s = strings.ReplaceAll(s, "--dir "+wiring.ShellWord(copyDir), "--dir "+wiring.ShellWord(root))
		return strings.ReplaceAll(s, copyDir, root)
	}
	out.Text = restate(out.Text)
	out.JSON, _ = restateValue(out.JSON, restate).(map[string]any)
	return out
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

func PrintCopied(w io.Writer, root string) {
	fmt.Fprintf(w, "simulate: ran on a copy of the memory in %s; nothing there changed\n", root)
}

// PrintNothing says that the client receives nothing for ev, and why.
func PrintNothing(w io.Writer, ev event.Name, stopHookActive bool) {
	why := "bimri-hook had nothing to say"
	switch {
	case !slices.Contains(event.Answered, ev):
		why = "bimri-hook does not answer " + string(ev)
	case ev == event.SessionEnd:
		why = "the client shows nothing a SessionEnd hook says; the session-end pass ran (on the copy)"
	case ev == event.Stop && stopHookActive:
		why = "the turn follows a Stop that kept it going, so bimri-hook lets it stop; the pass changed nothing worth telling the user"
	case ev == event.Stop:
		why = "no work to record since the last record (or the session was nudged for it already), and the pass changed nothing worth telling the user"
	case ev == event.UserPromptSubmit:
		why = "nothing archived or left out of the session-start view bears on this prompt enough to recall"
	case ev == event.SubagentStart:
		why = "Tier 1 is empty, so a subagent gets no memory"
	}
	fmt.Fprintf(w, "simulate: Claude Code receives nothing for %s: %s\n", ev, why)
}
