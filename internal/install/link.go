package install

// The plugin user's own shell. Claude Code puts the plugin's bin/ on the
// agent's PATH only and moves it with every update; its data folder stays.
// So SessionStart keeps a link there at the current bimri-hook, and install
// --link copies the programs into the user's data folder (shellDir), linked
// from PATH, which a SessionStart after an update refreshes.

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/bimri/bimri-hook/internal/workspace"
	"github.com/bimri/bimri-hook/store"
	"github.com/bimri/bimri-hook/store/safefile"
	"github.com/bimri/bimri-hook/wiring"
)

// shellDir holds install --link's copy of the plugin's programs.
func shellDir() string {
	if d := store.UserDataDir(); d != "" {
		return filepath.Join(d, "bin")
	}
	return ""
}

// KeepPluginLink, at the plugin's SessionStart, points the data folder's
// link at this binary (one readlink when it does), first copying a new
// version into shellDir once the user has linked. A failure costs the
// session nothing: install --link says why.
func KeepPluginLink() {
	data := os.Getenv("CLAUDE_PLUGIN_DATA")
	if data == "" || runtime.GOOS == "windows" {
		return
	}
	exe, err := os.Executable()
	link := filepath.Join(data, "bin", wiring.Name)
	if target, _ := os.Readlink(link); err != nil || target == exe {
		return
	}
	if dir := shellDir(); dir != "" {
		if _, err := os.Stat(filepath.Join(dir, wiring.Name)); err == nil && copyPrograms(exe, dir) != nil {
			return
		}
	}
	if os.MkdirAll(filepath.Dir(link), 0o755) == nil {
		_ = replaceLink(link, exe)
	}
}

// copyPrograms copies exe and its sibling programs into dir atomically.
func copyPrograms(exe, dir string) error {
	from, name := filepath.Split(exe)
	suffix := strings.TrimPrefix(name, wiring.Name)
	for _, p := range []string{"", "-cli", "-mcp", "-browse"} {
		data, err := os.ReadFile(filepath.Join(from, wiring.Name+p+suffix))
		if p != "" && errors.Is(err, fs.ErrNotExist) {
			continue // a build without it: bimri-hook finds it on PATH
		}
		if err == nil {
			err = writeReplacing(filepath.Join(dir, wiring.Name+p), data)
		}
		if err == nil {
			err = os.Chmod(filepath.Join(dir, wiring.Name+p), 0o755)
		}
		if err != nil {
			return fmt.Errorf("copy the plugin's programs into %s: %w", dir, err)
		}
	}
	return nil
}

// replaceLink renames a new link over path, so a shell finds one or the other.
func replaceLink(path, target string) error {
	tmp := fmt.Sprintf("%s.%d.link", path, os.Getpid())
	_ = os.Remove(tmp) // a leftover of a process of the same ID
	if err := os.Symlink(target, tmp); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	return nil
}

// isPluginBinary says whether a plugin data folder links to exe: the
// agent's Bash gets no CLAUDE_PLUGIN_DATA.
func isPluginBinary(claudeDir, exe string) bool {
	links, _ := filepath.Glob(filepath.Join(claudeDir, "plugins", "data", "*", "bin", wiring.Name))
	return slices.ContainsFunc(links, func(link string) bool {
		target, err := filepath.EvalSymlinks(link)
		return err == nil && target == exe
	})
}

// Linked is what Link did.
type Linked struct {
	Path, Target string // the link, and where it points
	Was          string // where Path pointed before, if it was another link
	Changed      bool
}

// LinkForShell is install --link: a link in binDir (else $BIMRI_BIN_DIR,
// else ~/.local/bin) to shellDir's copy of the plugin's exe.
func LinkForShell(exe, binDir string) (Linked, error) {
	if runtime.GOOS == "windows" {
		return Linked{}, errors.New("install --link makes symbolic links, which it does not on Windows (not tried there): unzip the release's .zip into a folder on PATH")
	}
	shell := shellDir()
	if shell == "" {
		return Linked{}, errors.New("no home folder for bimri-hook's data folder: set XDG_DATA_HOME")
	}
	switch {
	case filepath.Dir(exe) == shell:
	case os.Getenv("CLAUDE_PLUGIN_DATA") != "" || isPluginBinary(workspace.ClaudeDir(), exe):
		if err := copyPrograms(exe, shell); err != nil {
			return Linked{}, err
		}
	default:
		return Linked{}, errors.New("install --link links the Claude Code plugin's bimri-hook, which " + exe + " is not, or not yet: " +
			"after a Claude Code session with the plugin has started, run ~/.claude/plugins/data/<plugin>/bin/bimri-hook install --link, or ask Claude to run bimri-hook install --link (the plugin's bimri-hook is on its PATH)")
	}
	dir := cmp.Or(binDir, workspace.UserDir("BIMRI_BIN_DIR", filepath.Join(".local", "bin")))
	if dir == "" {
		return Linked{}, errors.New("no home folder for ~/.local/bin: give --bin-dir")
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return Linked{}, err
	}
	// Replace a link, never a file (the user's own install).
	l := Linked{Path: filepath.Join(dir, wiring.Name), Target: filepath.Join(shell, wiring.Name)}
	info, err := os.Lstat(l.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return l, err
	case info.Mode()&fs.ModeSymlink == 0:
		return l, fmt.Errorf("%s is there already and is not a link (another install of bimri-hook?): remove it, or link elsewhere with --bin-dir", l.Path)
	default:
		if l.Was, err = os.Readlink(l.Path); err != nil || l.Was == l.Target {
			return l, err
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return l, err
	}
	l.Changed = true
	return l, replaceLink(l.Path, l.Target)
}

// offNote is the off file's content, for a person who finds it.
const offNote = "bimri-hook off: memory is off in this workspace; bimri-hook on (or removing this file) turns it back on.\n"

// Turn sets the workspace's switch (bimri-hook off and on), a file in the
// state folder, which git ignores: this clone's choice, never a
// teammate's. The hook entry reads it first, for every route and agent.
func Turn(w io.Writer, st *store.Store, on bool) error {
	root := st.Root()
	path := workspace.OffPath(root)
	if on {
		err := os.Remove(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			fmt.Fprintf(w, "memory is already on in %s\n", root)
		case err != nil:
			return fmt.Errorf("turn memory on: %w", err)
		default:
			fmt.Fprintf(w, "memory is on again in %s: the next session starts with it\n", root)
		}
		return nil
	}
	if workspace.IsOff(root) {
		fmt.Fprintf(w, "memory is already off in %s (bimri-hook on turns it back on)\n", root)
		return nil
	}
	// The lock makes the state folder as every hook finds it: inside the
	// workspace, ignoring itself in git.
	if err := st.CheckLock(); err != nil {
		return fmt.Errorf("turn memory off: %w", err)
	}
	if err := safefile.WriteFile(path, []byte(offNote), safefile.Options{}); err != nil {
		return fmt.Errorf("turn memory off: %w", err)
	}
	fmt.Fprintf(w, "memory is off in %s: every hook answers nothing, whichever route or agent runs it; bimri.md and its files stay as they are\n", root)
	fmt.Fprintf(w, "  the switch is %s, which git does not carry; bimri-hook on turns memory back on\n", path)
	return nil
}
