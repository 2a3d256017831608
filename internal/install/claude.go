package install

import (
	"fmt"
	"io"
	"os"

	"github.com/bimri/bimri-hook/store"
	"github.com/bimri/bimri-hook/wiring"
)

// Request is what install or uninstall is asked to do for Claude Code.
type Request struct {
	Root   string // the workspace
	Scope  string
	Binary string // --binary, or ""
	Git    bool   // also the merge driver in the repository
	Purge  *store.Store
}

// Claude is install for Claude Code: the settings of the scope, the
// ignore rules for the side files, then --git, saying what it did. A
// --git that cannot work fails before anything is written.
func Claude(w io.Writer, q Request) error {
	file, err := SettingsFor(q.Scope, q.Root)
	if err != nil {
		return err
	}
	binary, err := BinaryFor(file.Scope, q.Binary)
	if err != nil {
		return err
	}
	command := wiring.Command{Binary: binary}
	repo, err := gitTopIf(q.Git, q.Root)
	if err != nil {
		return err
	}
	was, changed, err := Install(file, command)
	if err != nil {
		return err
	}
	PrintInstalled(w, file, command, was, changed)
	if file.Scope != ScopeUser {
		path, changed, err := Ignore(q.Root)
		if err != nil {
			return err
		}
		PrintIgnored(w, path, changed)
	}
	if file.Scope == ScopeProject && binary != wiring.Name {
		PrintMachinePathNote(w, binary)
	}
	for _, t := range TwiceWarnings(q.Root, file, command) {
		PrintWarning(w, t.String())
	}
	if file.Scope != ScopeUser && !WorkspaceTrusted(q.Root) {
		PrintTrustNote(w, q.Root, command)
	}
	if repo == "" {
		return nil
	}
	return Git(w, repo, command)
}

// UninstallClaude takes out what Claude put in, and with Purge the
// memory's side files, saying what it did.
func UninstallClaude(w io.Writer, q Request) error {
	file, err := SettingsFor(q.Scope, q.Root)
	if err != nil {
		return err
	}
	repo, err := gitTopIf(q.Git, q.Root)
	if err != nil {
		return err
	}
	was, changed, err := Uninstall(file)
	if err != nil {
		return err
	}
	PrintUninstalled(w, file, was, changed)
	if file.Scope != ScopeUser && !WiredHere(q.Root) {
		path, changed, err := Unignore(q.Root)
		if err != nil {
			return err
		}
		if changed {
			fmt.Fprintf(w, "  git: removed bimri-hook's ignore lines from %s\n", path)
		}
	}
	if !changed {
		for _, p := range EnabledPlugins(q.Root) {
			PrintWarning(w, "the bimri-hook plugin "+p+" still runs here: bimri-hook off turns memory off in this workspace, claude plugin disable "+p+" turns the plugin off everywhere")
		}
	}
	if repo != "" {
		if err := UninstallGit(w, repo); err != nil {
			return err
		}
	}
	if q.Purge == nil {
		return nil
	}
	removed, err := q.Purge.Purge()
	PrintPurged(w, q.Purge, removed)
	if err != nil {
		return fmt.Errorf("--purge: %w", err)
	}
	return nil
}

func gitTopIf(git bool, root string) (string, error) {
	if !git {
		return "", nil
	}
	return GitTop(root)
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
