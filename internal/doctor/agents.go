package doctor

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/bimri/bimri-hook/internal/install"
	"github.com/bimri/bimri-hook/wiring"
)

// checkAgents: each other client wired here, what it runs and whether it
// will. A client wired nowhere is not reported: most people use one.
func (d *doctor) checkAgents() {
	wired := false
	for _, scope := range []string{install.ScopeProject, install.ScopeUser} {
		file, err := install.CodexHooksFor(scope, d.root)
		if err != nil {
			continue
		}
		st := install.CheckCodex(file, d.root)
		wired = wired || len(st.States) > 0
		d.checkCodex(st)
	}
	for _, scope := range []string{install.ScopeProject, install.ScopeUser} {
		file, err := install.GeminiSettingsFor(scope, d.root)
		if err != nil {
			continue
		}
		st := install.CheckGemini(file)
		wired = wired || len(st.Events) > 0
		d.checkGemini(st)
	}
	for _, scope := range []string{install.ScopeProject, install.ScopeUser} {
		files, err := install.OpenCodeFilesFor(scope, d.root)
		if err != nil {
			continue
		}
		st := install.CheckOpenCode(files)
		wired = wired || st.Plugin
		d.checkOpenCode(st)
	}
	for _, scope := range []string{install.ScopeProject, install.ScopeUser} {
		files, err := install.CopilotFilesFor(scope, d.root)
		if err != nil {
			continue
		}
		st := install.CheckCopilot(files)
		wired = wired || st.Hooks
		d.checkCopilot(st)
	}
	for _, scope := range []string{install.ScopeProject, install.ScopeUser} {
		file, err := install.CursorHooksFor(scope, d.root)
		if err != nil {
			continue
		}
		events, err := install.CheckCursor(file)
		wired = wired || len(events) > 0
		switch {
		case err != nil:
			d.add(statusFail, "cursor "+scope, fmt.Sprintf("%s: %v", file.Path, err), "fix the file, then bimri-hook install --agent cursor")
		case len(events) > 0:
			d.add(statusOK, "cursor "+scope, fmt.Sprintf("%s runs bimri-hook hook cursor at %s (unverified: no Cursor client was tried)", file.Path, strings.Join(events, ", ")), "")
		}
	}
	if wired {
		d.claudeOptional()
	}
}

// claudeOptional makes Claude Code's missing wiring a warning where
// another client runs bimri-hook: memory works through that client.
func (d *doctor) claudeOptional() {
	for i, ch := range d.checks {
		if ch.Name == "wiring" && ch.Status == statusFail && strings.HasPrefix(ch.Detail, "no settings file runs bimri-hook") {
			d.checks[i].Status = statusWarn
			d.checks[i].Detail += " (another agent here runs it)"
		}
	}
}

func (d *doctor) checkCodex(st install.CodexStatus) {
	name := "codex " + st.Hooks.Scope
	switch {
	case st.Err != nil:
		d.add(statusFail, name, fmt.Sprintf("%s: %v", st.Hooks.Path, st.Err), "fix the file, then bimri-hook install --agent codex")
		return
	case len(st.States) == 0:
		return
	case len(st.Skipped) > 0:
		d.add(statusFail, name, fmt.Sprintf("%s wires bimri-hook, but Codex will skip %d of its %d hooks: their hash is not trusted in %s",
			st.Hooks.Path, len(st.Skipped), len(st.States), filepath.Join(install.CodexHome(), "config.toml")),
			"bimri-hook install --agent codex --scope "+st.Hooks.Scope+", or trust them in Codex's /hooks")
	default:
		d.add(statusOK, name, fmt.Sprintf("%s runs bimri-hook hook codex at %s, each hook trusted", st.Hooks.Path, install.EventList(wiring.CodexEvents())), "")
	}
	if st.ProjectUntrusted {
		d.add(statusFail, name, fmt.Sprintf("Codex does not read %s: the project is not trusted in Codex", filepath.Dir(st.Hooks.Path)),
			"run codex in the project once and trust it (or codex exec --trust)")
	}
	if !st.MCP {
		d.add(statusWarn, name, fmt.Sprintf("no MCP server %q in Codex's config.toml: the agent records through its shell only", wiring.MCPServer),
			"bimri-hook install --agent codex")
	}
}

func (d *doctor) checkGemini(st install.GeminiStatus) {
	name := "gemini " + st.Settings.Scope
	switch {
	case st.Err != nil:
		d.add(statusFail, name, fmt.Sprintf("%s: %v", st.Settings.Path, st.Err), "fix the file, then bimri-hook install --agent gemini")
		return
	case len(st.Events) == 0:
		return
	case len(st.Events) < len(wiring.GeminiEvents()):
		d.add(statusWarn, name, fmt.Sprintf("%s runs bimri-hook hook gemini at %s only, not at every one of %s", st.Settings.Path, st.EventsText(), install.EventList(wiring.GeminiEvents())),
			"bimri-hook install --agent gemini --scope "+st.Settings.Scope)
	default:
		d.add(statusOK, name, fmt.Sprintf("%s runs bimri-hook hook gemini at %s", st.Settings.Path, st.EventsText()), "")
	}
	if !st.MCP {
		d.add(statusWarn, name, fmt.Sprintf("no MCP server %q in %s: the agent records through its shell only", wiring.MCPServer, st.Settings.Path),
			"bimri-hook install --agent gemini --scope "+st.Settings.Scope)
	}
}

func (d *doctor) checkOpenCode(st install.OpenCodeStatus) {
	name := "opencode " + st.Files.Config.Scope
	switch {
	case st.Err != nil:
		d.add(statusFail, name, fmt.Sprintf("%s: %v", st.Files.Config.Path, st.Err), "fix the file, then bimri-hook install --agent opencode")
		return
	case !st.Plugin && !st.MCP:
		return
	case !st.Plugin:
		d.add(statusWarn, name, fmt.Sprintf("%s registers the MCP server, but no plugin %s runs bimri-hook's hooks", st.Files.Config.Path, st.Files.Plugin),
			"bimri-hook install --agent opencode --scope "+st.Files.Config.Scope)
	default:
		d.add(statusOK, name, fmt.Sprintf("%s runs bimri-hook hook opencode at a session's first request, each prompt and each idle", st.Files.Plugin), "")
	}
	if !st.MCP {
		d.add(statusWarn, name, fmt.Sprintf("no MCP server %q in %s: the agent records through its shell only", wiring.MCPServer, st.Files.Config.Path),
			"bimri-hook install --agent opencode --scope "+st.Files.Config.Scope)
	}
}

func (d *doctor) checkCopilot(st install.CopilotStatus) {
	name, scope := "copilot "+st.Files.Config.Scope, st.Files.Config.Scope
	switch {
	case st.Err != nil:
		d.add(statusFail, name, fmt.Sprintf("%s: %v", st.Files.Config.Path, st.Err), "fix the file, then bimri-hook install --agent copilot")
		return
	case !st.Hooks && !st.MCP:
		return
	case !st.Hooks:
		d.add(statusWarn, name, fmt.Sprintf("%s registers the MCP server, but no %s runs bimri-hook's hooks", st.Files.Config.Path, st.Files.Own),
			"bimri-hook install --agent copilot --scope "+scope)
	default:
		d.add(statusOK, name, fmt.Sprintf("%s runs bimri-hook hook copilot at %s", st.Files.Own, install.EventList(wiring.CopilotEvents())), "")
	}
	if !st.MCP {
		d.add(statusWarn, name, fmt.Sprintf("no MCP server %q in %s: the agent records through its shell only", wiring.MCPServer, st.Files.Config.Path),
			"bimri-hook install --agent copilot --scope "+scope)
	}
}
