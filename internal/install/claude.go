package install

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bimri/bimri-hook/internal/inspect"
	"github.com/bimri/bimri-hook/wiring"
)

// installedClaude says what Install put in Claude Code's settings, then
// does the rest: the ignore lines, the notes, --git.
func installedClaude(w io.Writer, q Request, repo string, file SettingsFile, command wiring.Command, was wiring.Wiring, changed bool) error {
	if !changed {
		fmt.Fprintf(w, "already installed in %s (%s scope); nothing changed\n", file.Path, file.Scope)
	} else {
		verb := inspect.Pick(len(was.Handlers)+len(was.Rules) > 0, "updated", "installed")
		fmt.Fprintf(w, "%s bimri-hook in %s (%s scope)\n", verb, file.Path, file.Scope)
		fmt.Fprintf(w, "  hooks: %s run %s\n", EventList(wiring.Events()), command.Hook())
		fmt.Fprintf(w, "  permissions: %s let the agent run %s without asking\n", strings.Join(command.Rules(), ", "), strings.Join(wiring.MemoryCommands, ", "))
		var old []string // what the earlier install ran and allowed
		for _, h := range was.Handlers {
			old = append(old, h.Command)
		}
		old = append(old, was.Rules...)
		var replaced []string
		for _, r := range old {
			if r != command.Hook() && !slices.Contains(command.Rules(), r) && !slices.Contains(replaced, r) {
				replaced = append(replaced, r)
				fmt.Fprintf(w, "  replaced: %s\n", r)
			}
		}
	}
	if err := workspaceNotes(w, q.Root, q.Scope, ".claude/settings.json", command.Binary, "bimri-hook install --scope local"); err != nil {
		return err
	}
	warnTwice(w, q.Root, file, command)
	if q.Scope != ScopeUser && !WorkspaceTrusted(q.Root) {
		fmt.Fprintf(w, "note: Claude Code applies a workspace's permission rules only once the workspace is trusted, so until then the agent asks before each `%s` in %s.\n", command.Remember(), q.Root)
		fmt.Fprintf(w, "  To let it record: %s.\n", wiring.TrustAdvice(command))
	}
	if repo == "" {
		return nil
	}
	return Git(w, repo, command)
}

// uninstalledClaude says what Uninstall took out of Claude Code's
// settings, then does the rest: the ignore lines, --git, --purge.
func uninstalledClaude(w io.Writer, q Request, repo string, file SettingsFile, was wiring.Wiring, changed bool) error {
	if !changed {
		fmt.Fprintf(w, "bimri-hook is not installed in %s (%s scope); nothing to do\n", file.Path, file.Scope)
	} else {
		fmt.Fprintf(w, "removed bimri-hook from %s (%s scope)\n", file.Path, file.Scope)
		if events, _ := was.Events(wiring.Events()); len(events) > 0 {
			fmt.Fprintf(w, "  hooks: %s\n", strings.Join(events, ", "))
		}
		for _, r := range was.Rules {
			fmt.Fprintf(w, "  permission: %s\n", r)
		}
	}
	if file.Scope != ScopeUser && !wiredHere(q.Root) {
		if err := unignore(w, q.Root); err != nil {
			return err
		}
	}
	if !changed {
		var warned []string
		for _, s := range readScopes(q.Root) {
			for _, p := range s.Plugins {
				if !slices.Contains(warned, p) {
					warned = append(warned, p)
					fmt.Fprintf(w, "warning: the bimri-hook plugin %s still runs here: bimri-hook off turns memory off in this workspace, claude plugin disable %s turns the plugin off everywhere\n", p, p)
				}
			}
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
	for _, path := range removed {
		fmt.Fprintf(w, "purge: removed %s\n", path)
	}
	if len(removed) == 0 {
		fmt.Fprintln(w, "purge: no backup, archive or state folder to remove")
	}
	if _, err := os.Stat(q.Purge.Path(q.Purge.Names().Memory)); err == nil { // bimri.md stays
		fmt.Fprintf(w, "kept %s: the memory itself is yours to delete (rm %s)\n", q.Purge.Path(q.Purge.Names().Memory), q.Purge.Names().Memory)
	}
	if err != nil {
		return fmt.Errorf("--purge: %w", err)
	}
	return nil
}

// workspaceNotes follow an install into the workspace: its side files kept
// out of git, and a note when the shared file names this machine's binary.
func workspaceNotes(w io.Writer, root, scope, shared, binary, instead string) error {
	if scope == ScopeUser {
		return nil
	}
	if err := ignore(w, root); err != nil {
		return err
	}
	if scope == ScopeProject && binary != wiring.Name {
		fmt.Fprintf(w, "note: %s is shared through the repository, and now names this machine's %s.\n", shared, binary)
		fmt.Fprintf(w, "  Put bimri-hook on PATH and run install again to write the bare name, or use %s.\n", instead)
	}
	return nil
}

// PrintLinked says where install --link linked, and whether PATH has it.
func PrintLinked(w io.Writer, l Linked) {
	switch {
	case !l.Changed:
		fmt.Fprintf(w, "already linked: %s -> %s\n", l.Path, l.Target)
	case l.Was != "":
		fmt.Fprintf(w, "linked %s -> %s (it led to %s)\n", l.Path, l.Target, l.Was)
	default:
		fmt.Fprintf(w, "linked %s -> %s\n", l.Path, l.Target)
	}
	fmt.Fprintf(w, "  %s is a copy of the plugin's bimri-hook: a session start after a plugin update copies the new version there, and it stays when the plugin is removed\n", l.Target)
	dir := filepath.Dir(l.Path)
	if slices.ContainsFunc(filepath.SplitList(os.Getenv("PATH")), func(d string) bool { return d != "" && filepath.Clean(d) == dir }) {
		fmt.Fprintf(w, "%s is on PATH: bimri-hook doctor, show, search and browse work in your shell\n", dir)
		return
	}
	fmt.Fprintf(w, "%s is not on PATH: add it (export PATH=\"%s:$PATH\" in your shell's profile), then bimri-hook doctor, show, search and browse work in your shell\n", dir, dir)
}
