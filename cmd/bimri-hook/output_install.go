package main

// What install, uninstall and doctor tell a person. Like output.go, only
// printing lives here; cmd_install.go and cmd_doctor.go decide what to say.

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/bimri/bimri-hook/wiring"
)

func eventNames() []string {
	var names []string
	for _, e := range wiring.Events() {
		names = append(names, e.Name)
	}
	return names
}

func printInstalled(w io.Writer, file settingsFile, command wiring.Command, was wiring.Wiring, changed bool) {
	if !changed {
		fmt.Fprintf(w, "already installed in %s (%s scope); nothing changed\n", file.path, file.scope)
		return
	}
	verb := "installed bimri-hook in"
	if len(was.Handlers)+len(was.Rules) > 0 {
		verb = "updated bimri-hook in"
	}
	fmt.Fprintf(w, "%s %s (%s scope)\n", verb, file.path, file.scope)
	fmt.Fprintf(w, "  hooks: %s run %s\n", strings.Join(eventNames(), ", "), command.Hook())
	fmt.Fprintf(w, "  permission: %s lets the agent record memories without asking\n", command.PermissionRule())
	var replaced []string
	for _, h := range was.Handlers {
		if h.Command != command.Hook() && !slices.Contains(replaced, h.Command) {
			replaced = append(replaced, h.Command)
		}
	}
	for _, r := range was.Rules {
		if r != command.PermissionRule() && !slices.Contains(replaced, r) {
			replaced = append(replaced, r)
		}
	}
	for _, r := range replaced {
		fmt.Fprintf(w, "  replaced: %s\n", r)
	}
}

func printUninstalled(w io.Writer, file settingsFile, was wiring.Wiring, changed bool) {
	if !changed {
		fmt.Fprintf(w, "bimri-hook is not installed in %s (%s scope); nothing to do\n", file.path, file.scope)
		return
	}
	fmt.Fprintf(w, "removed bimri-hook from %s (%s scope)\n", file.path, file.scope)
	if events := was.Events(); len(events) > 0 {
		fmt.Fprintf(w, "  hooks: %s\n", strings.Join(events, ", "))
	}
	for _, r := range was.Rules {
		fmt.Fprintf(w, "  permission: %s\n", r)
	}
}

func printWarning(w io.Writer, warning string) {
	fmt.Fprintf(w, "warning: %s\n", warning)
}

func pluginTwiceWarning(file settingsFile, plugin string) string {
	return fmt.Sprintf("the bimri-hook plugin %s is enabled in %s, so every event would run bimri-hook twice; disable the plugin, or run bimri-hook uninstall --scope %s",
		plugin, file.path, file.scope)
}

func scopeTwiceWarning(file settingsFile, commands []string) string {
	return fmt.Sprintf("%s (%s scope) also runs %s, so every event would run bimri-hook twice; run bimri-hook uninstall --scope %s unless you mean it",
		file.path, file.scope, strings.Join(commands, " and "), file.scope)
}

func printTrustNote(w io.Writer, root string, command wiring.Command) {
	fmt.Fprintf(w, "note: Claude Code applies a workspace's permission rules only once the workspace is trusted.\n")
	fmt.Fprintf(w, "  Open %s in Claude Code and accept the trust dialog, or the agent will ask before each `%s`.\n", root, command.Remember())
	fmt.Fprintf(w, "  (bimri-hook install --scope user puts the rule where no trust is needed, for every workspace.)\n")
}

func printGitSteps(w io.Writer, steps []gitStep) {
	for _, s := range steps {
		switch {
		case s.kind == gitAttributesAdded && s.changed:
			fmt.Fprintf(w, "git: %s now gives bimri.md the %s merge driver and bimri-archive.md the union driver\n", s.what, wiring.MergeDriver)
		case s.kind == gitAttributesAdded:
			fmt.Fprintf(w, "git: %s already gives bimri.md and bimri-archive.md their merge drivers\n", s.what)
		case s.kind == gitConfigSet && s.changed:
			fmt.Fprintf(w, "git: set %s\n", s.what)
		case s.kind == gitConfigSet:
			fmt.Fprintf(w, "git: already set %s\n", s.what)
		case s.kind == gitConfigRemoved && s.changed:
			fmt.Fprintf(w, "git: removed the %s section from the repository's config\n", s.what)
		case s.kind == gitConfigRemoved:
			fmt.Fprintf(w, "git: no %s section in the repository's config\n", s.what)
		case s.kind == gitAttributesRemoved && s.changed:
			fmt.Fprintf(w, "git: removed bimri-hook's merge lines from %s\n", s.what)
		case s.kind == gitAttributesRemoved:
			fmt.Fprintf(w, "git: no merge lines of bimri-hook's in %s\n", s.what)
		}
	}
}

// printChecks writes doctor's report: one line per check, its status
// first so a person, or grep, finds the problems.
func printChecks(w io.Writer, checks []check) {
	for _, c := range checks {
		line := fmt.Sprintf("%-4s %s: %s", c.status, c.name, c.detail)
		if c.fix != "" && c.status != statusOK {
			line += " (fix: " + c.fix + ")"
		}
		fmt.Fprintln(w, line)
	}
}

// plural writes a count with its noun: "1 entry", "2 entries".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
