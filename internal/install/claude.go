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
	file, err := settingsFor(q.Scope, q.Root)
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
	printInstalled(w, file, command, was, changed)
	if file.Scope != ScopeUser {
		path, changed, err := Ignore(q.Root)
		if err != nil {
			return err
		}
		PrintIgnored(w, path, changed)
	}
	if file.Scope == ScopeProject && binary != wiring.Name {
		fmt.Fprintf(w, "note: .claude/settings.json is shared through the repository, and now names this machine's %s.\n", binary)
		fmt.Fprintf(w, "  Put bimri-hook on PATH and run install again to write the bare name, or use bimri-hook install --scope local.\n")
	}
	for _, warning := range twiceWarnings(q.Root, file, command) {
		fmt.Fprintf(w, "warning: %s\n", warning)
	}
	if file.Scope != ScopeUser && !WorkspaceTrusted(q.Root) {
		fmt.Fprintf(w, "note: Claude Code applies a workspace's permission rules only once the workspace is trusted, so until then the agent asks before each `%s` in %s.\n", command.Remember(), q.Root)
		fmt.Fprintf(w, "  To let it record: %s.\n", wiring.TrustAdvice(command))
	}
	if repo == "" {
		return nil
	}
	return Git(w, repo, command)
}

// UninstallClaude takes out what Claude put in, and with Purge the
// memory's side files, saying what it did.
func UninstallClaude(w io.Writer, q Request) error {
	file, err := settingsFor(q.Scope, q.Root)
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
	printUninstalled(w, file, was, changed)
	if file.Scope != ScopeUser && !wiredHere(q.Root) {
		path, changed, err := unignore(q.Root)
		if err != nil {
			return err
		}
		if changed {
			fmt.Fprintf(w, "  git: removed bimri-hook's ignore lines from %s\n", path)
		}
	}
	if !changed {
		for _, p := range enabledPlugins(q.Root) {
			fmt.Fprintf(w, "warning: the bimri-hook plugin %s still runs here: bimri-hook off turns memory off in this workspace, claude plugin disable %s turns the plugin off everywhere\n", p, p)
		}
	}
	if repo != "" {
		if err := uninstallGit(w, repo); err != nil {
			return err
		}
	}
	if q.Purge == nil {
		return nil
	}
	removed, err := q.Purge.Purge()
	printPurged(w, q.Purge, removed)
	if err != nil {
		return fmt.Errorf("--purge: %w", err)
	}
	return nil
}

func gitTopIf(git bool, root string) (string, error) {
	if !git {
		return "", nil
	}
	return gitTop(root)
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
