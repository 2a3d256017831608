package install

// Wiring other coding agents than Claude Code: the Codex CLI's hooks.json,
// its trust store and MCP server in its config.toml.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/bimri/bimri-hook/internal/workspace"
	"github.com/bimri/bimri-hook/wiring"
)

// CodexHome is Codex's own folder: $CODEX_HOME, else ~/.codex.
func CodexHome() string {
	if dir := os.Getenv("CODEX_HOME"); dir != "" {
		return dir
	}
	if home := workspace.Home(); home != "" {
		return filepath.Join(home, ".codex")
	}
	return ""
}

// CodexHooksFor is the hooks.json of a scope: <root>/.codex/hooks.json
// for project (Codex reads it in a project the user trusts), the one in
// Codex's folder for user.
func CodexHooksFor(scope, root string) (SettingsFile, error) {
	switch scope {
	case ScopeProject:
		return SettingsFile{scope, filepath.Join(root, ".codex", "hooks.json")}, nil
	case ScopeUser:
		dir := CodexHome()
		if dir == "" {
			return SettingsFile{}, errors.New("no home folder for Codex's config (set CODEX_HOME)")
		}
		return SettingsFile{scope, filepath.Join(dir, "hooks.json")}, nil
	}
	return SettingsFile{}, fmt.Errorf("--scope %q: Codex has project and user hooks", scope)
}

// codexReceipt is the file whose receipt (receiptPath) says what install
// added to a Codex hooks.json: beside it at user scope; at project scope
// in the workspace's .claude folder, where .gitignore already keeps
// receipts out of git (wiring.IgnoreLines).
func codexReceipt(file SettingsFile) SettingsFile {
	if file.Scope != ScopeProject {
		return file
	}
	root := filepath.Dir(filepath.Dir(file.Path))
	return SettingsFile{file.Scope, filepath.Join(root, ".claude", "codex-hooks.json")}
}

// codexConfigPath is Codex's user config.toml, where it keeps hook trust
// and MCP servers.
func codexConfigPath() string { return filepath.Join(CodexHome(), "config.toml") }

// CodexResult is what InstallCodex did, for its report.
type CodexResult struct {
	Hooks        SettingsFile
	Changed      bool                    // hooks.json changed
	Trusted      []wiring.CodexHookState // the hooks whose trust install recorded
	Untrusted    []wiring.CodexHookState // --no-trust: left to Codex's /hooks review
	Config       string                  // Codex's config.toml
	ConfigChange bool
	// ProjectUntrusted is set when Codex will not read the project's
	// .codex/ folder until the user trusts the project.
	ProjectUntrusted bool
}

// InstallCodex wires command into the Codex hooks.json of file, registers
// the MCP server in Codex's config.toml and, unless noTrust, records
// there the trust of exactly the hooks it wrote.
func InstallCodex(file SettingsFile, root string, command wiring.Command, noTrust bool) (CodexResult, error) {
	res := CodexResult{Hooks: file, Config: codexConfigPath()}
	config, _, err := ReadOptional(res.Config)
	if err != nil {
		return res, fmt.Errorf("read %s: %w", res.Config, err)
	}
	if _, err := wiring.ReadCodexConfig(config); err != nil {
		return res, fmt.Errorf("%s: %w", res.Config, err) // before anything is written
	}
	before, _, err := ReadOptional(file.Path)
	if err != nil {
		return res, fmt.Errorf("read %s: %w", file.Path, err)
	}
	oldStates, err := wiring.CodexHookStates(file.Path, before)
	if err != nil {
		return res, fmt.Errorf("%s: %w", file.Path, err)
	}
	prev, _, err := readReceipt(codexReceipt(file))
	if err != nil {
		return res, fmt.Errorf("read %s: %w", receiptPath(codexReceipt(file)), err)
	}
	after, receipt, changed, err := wiring.InstallCodex(before, command, prev)
	if err != nil {
		return res, fmt.Errorf("%s: %w", file.Path, err)
	}
	states, err := wiring.CodexHookStates(file.Path, after)
	if err != nil {
		return res, err
	}
	drop := ours(append(oldStates, states...))
	var add []wiring.CodexTable
	if noTrust {
		res.Untrusted = states
	} else {
		res.Trusted = states
		for _, s := range states {
			add = append(add, wiring.TrustTable(s))
		}
	}
	add = append(add, wiring.MCPTable(command))
	newConfig, configChanged, err := wiring.EditCodexConfig(config, drop, add)
	if err != nil {
		return res, fmt.Errorf("%s: %w", res.Config, err)
	}
	if changed {
		if err := writeReplacing(file.Path, after); err != nil {
			return res, fmt.Errorf("write %s: %w", file.Path, err)
		}
		data, _ := json.Marshal(receipt)
		if err := writeReplacing(receiptPath(codexReceipt(file)), append(data, '\n')); err != nil {
			return res, fmt.Errorf("write %s: %w", receiptPath(codexReceipt(file)), err)
		}
	}
	if configChanged {
		if err := writeReplacing(res.Config, newConfig); err != nil {
			return res, fmt.Errorf("write %s: %w", res.Config, err)
		}
	}
	res.Changed, res.ConfigChange = changed, configChanged
	if file.Scope == ScopeProject {
		cfg, _ := wiring.ReadCodexConfig(newConfig)
		res.ProjectUntrusted = !cfg.ProjectTrusted(root)
	}
	return res, nil
}

// ours names the config tables of bimri-hook's: the trust of the hooks
// states lists, and the MCP server's table and its subtables.
func ours(states []wiring.CodexHookState) func(string) bool {
	headers := map[string]bool{}
	for _, s := range states {
		headers[wiring.TrustHeader(s.Key)] = true
	}
	return func(h string) bool {
		return headers[h] || h == wiring.MCPHeader || strings.HasPrefix(h, wiring.MCPHeader+".")
	}
}

// UninstallCodex takes out of file and Codex's config.toml what
// InstallCodex put there. The MCP server stays while the other scope's
// hooks.json still wires bimri-hook.
func UninstallCodex(file, other SettingsFile) (changed bool, err error) {
	before, _, err := ReadOptional(file.Path)
	if err != nil {
		return false, fmt.Errorf("read %s: %w", file.Path, err)
	}
	states, err := wiring.CodexHookStates(file.Path, before)
	if err != nil {
		return false, fmt.Errorf("%s: %w", file.Path, err)
	}
	receipt, hasReceipt, err := readReceipt(codexReceipt(file))
	if err != nil {
		return false, err
	}
	after, remove, changed, err := wiring.UninstallCodex(before, receipt)
	if err != nil {
		return false, fmt.Errorf("%s: %w", file.Path, err)
	}
	otherBytes, _, _ := ReadOptional(other.Path)
	otherStates, _ := wiring.CodexHookStates(other.Path, otherBytes)
	drop := ours(states)
	if len(otherStates) > 0 {
		trust := ours(states)
		drop = func(h string) bool {
			return trust(h) && h != wiring.MCPHeader && !strings.HasPrefix(h, wiring.MCPHeader+".")
		}
	}
	configPath := codexConfigPath()
	config, _, err := ReadOptional(configPath)
	if err != nil {
		return false, err
	}
	newConfig, configChanged, err := wiring.EditCodexConfig(config, drop, nil)
	if err != nil {
		return false, fmt.Errorf("%s: %w", configPath, err)
	}
	if configChanged {
		if err := writeReplacing(configPath, newConfig); err != nil {
			return false, err
		}
	}
	if err := putBack(file, codexReceipt(file), after, remove, changed, hasReceipt); err != nil {
		return false, err
	}
	return changed || configChanged, nil
}

// CodexStatus is what doctor says of Codex's wiring in one scope.
type CodexStatus struct {
	Hooks            SettingsFile
	States           []wiring.CodexHookState
	Skipped          []wiring.CodexHookState // Codex will skip these: no trust for their hash
	ProjectUntrusted bool
	MCP              bool // the MCP server is registered
	Err              error
}

// CheckCodex reads the Codex wiring of file and whether Codex will run it.
func CheckCodex(file SettingsFile, root string) CodexStatus {
	st := CodexStatus{Hooks: file}
	data, _, err := ReadOptional(file.Path)
	if err != nil {
		st.Err = err
		return st
	}
	if st.States, st.Err = wiring.CodexHookStates(file.Path, data); st.Err != nil || len(st.States) == 0 {
		return st
	}
	config, _, err := ReadOptional(codexConfigPath())
	if err != nil {
		st.Err = err
		return st
	}
	cfg, err := wiring.ReadCodexConfig(config)
	if err != nil {
		st.Err = fmt.Errorf("%s: %w", codexConfigPath(), err)
		return st
	}
	for _, s := range st.States {
		if !cfg.Trusts(s) {
			st.Skipped = append(st.Skipped, s)
		}
	}
	st.ProjectUntrusted = file.Scope == ScopeProject && !cfg.ProjectTrusted(root)
	_, st.MCP = cfg.MCPServers[wiring.MCPServer]
	return st
}

// PrintCodexInstalled says what InstallCodex did.
func PrintCodexInstalled(w io.Writer, res CodexResult) {
	verb := "already wired"
	if res.Changed {
		verb = "wired"
	}
	fmt.Fprintf(w, "Codex: %s %s (%s)\n", verb, res.Hooks.Path, EventList(wiring.CodexEvents()))
	fmt.Fprintf(w, "Codex: MCP server %q registered in %s\n", wiring.MCPServer, res.Config)
	if len(res.Trusted) > 0 {
		fmt.Fprintf(w, "Codex: trusted the %d hooks install wrote (their hashes in %s [hooks.state]); Codex runs them without asking\n", len(res.Trusted), res.Config)
	}
	if len(res.Untrusted) > 0 {
		fmt.Fprintf(w, "Codex: --no-trust: Codex skips these %d hooks until you trust them in Codex's /hooks review\n", len(res.Untrusted))
	}
	if res.ProjectUntrusted {
		fmt.Fprintf(w, "Codex: Codex reads %s only in a project you trust: run codex here once and trust it (or `codex exec --trust`)\n", filepath.Dir(res.Hooks.Path))
	}
}

// EventList names events for a message: "SessionStart, Stop".
func EventList(events []wiring.Event) string {
	names := make([]string, len(events))
	for i, e := range events {
		names[i] = e.Name
	}
	return strings.Join(names, ", ")
}
