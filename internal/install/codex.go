package install

// Codex's config.toml, the user's whatever the hooks' scope: the trust of
// each hook install writes, and the MCP server.

import (
	"fmt"
	"path/filepath"

	"github.com/bimri/bimri-hook/internal/inspect"
	"github.com/bimri/bimri-hook/wiring"
)

// codexConfigPath is Codex's user config.toml.
func codexConfigPath() string { return filepath.Join(CodexHome(), "config.toml") }

// wireCodex registers the MCP server in Codex's config.toml and, unless
// noTrust, records there the trust of exactly the hooks after holds,
// dropping that of the hooks st held; report says what it did.
func wireCodex(st Status, root string, after []byte, binary string, noTrust bool) (report string, err error) {
	file := st.File
	states, _ := wiring.CodexHookStates(file.Path, after) // Install read it

	trusted := states
	if noTrust {
		trusted = nil
	}
	config, _, err := editCodexConfig(append(st.States, states...), true, trusted, binary)
	if err != nil {
		return "", err
	}
	report = fmt.Sprintf("Codex: MCP server %q registered in %s\n", wiring.MCPServer, codexConfigPath())
	switch {
	case len(trusted) > 0:
		report += fmt.Sprintf("Codex: trusted the %d hooks install wrote (their hashes in %s [hooks.state]); Codex runs them without asking\n", len(trusted), codexConfigPath())
	case len(states) > 0:
		report += fmt.Sprintf("Codex: --no-trust: Codex skips these %d hooks until you trust them in Codex's /hooks review\n", len(states))
	}
	if cfg, _ := wiring.ReadCodexConfig(config); file.Scope == ScopeProject && !cfg.ProjectTrusted(root) {
		report += fmt.Sprintf("Codex: Codex reads %s only in a project you trust: run codex here once and trust it (or `codex exec --trust`)\n", filepath.Dir(file.Path))
	}
	return report, nil
}

// unwireCodex takes out the trust of st's hooks, and the MCP server
// unless the other scope's hooks.json still wires bimri-hook.
func unwireCodex(st Status, root string) (changed bool, err error) {
	other := inspect.Pick(st.File.Scope == ScopeUser, ScopeProject, ScopeUser)
	_, changed, err = editCodexConfig(st.States, len(Check(wiring.Codex, other, root).States) == 0, nil, "")
	return changed, err
}

// editCodexConfig edits Codex's config.toml, writing it when it changed.
func editCodexConfig(drop []wiring.CodexHookState, dropMCP bool, trust []wiring.CodexHookState, binary string) (out []byte, changed bool, err error) {
	path := codexConfigPath()
	config, _, err := ReadOptional(path)
	if err != nil {
		return nil, false, err
	}
	if out, changed, err = wiring.EditCodexConfig(config, drop, dropMCP, trust, binary); err != nil {
		return nil, false, fmt.Errorf("%s: %w", path, err)
	}
	if changed {
		err = writeReplacing(path, out)
	}
	return out, changed, err
}

// checkCodex adds to st whether Codex will run the hooks of its file.
func checkCodex(st *Status, root string) error {
	var err error
	if st.States, err = wiring.CodexHookStates(st.File.Path, st.data); err != nil || len(st.States) == 0 {
		return err
	}
	config, _, err := ReadOptional(codexConfigPath())
	if err != nil {
		return err
	}
	cfg, err := wiring.ReadCodexConfig(config)
	if err != nil {
		return fmt.Errorf("%s: %w", codexConfigPath(), err)
	}
	for _, s := range st.States {
		if !cfg.Trusts(s) {
			st.Skipped = append(st.Skipped, s)
		}
	}
	st.ProjectUntrusted = st.File.Scope == ScopeProject && !cfg.ProjectTrusted(root)
	_, st.MCP = cfg.MCPServers[wiring.MCPServer]
	return nil
}
