package wiring

// The Gemini CLI's wiring: the hooks and the MCP server in its
// settings.json (.gemini/settings.json in a project, ~/.gemini/settings.json
// for the user). Its hooks have Claude Code's shape (event -> matcher
// groups -> command handlers) with Gemini's event names and timeouts in
// milliseconds; its MCP servers sit under "mcpServers" in the same file.

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/tidwall/gjson"
)

// AgentGemini is the Gemini CLI's name where a command takes an agent
// (`bimri-hook hook gemini`, `install --agent gemini`).
const AgentGemini = "gemini"

// GeminiHookName is the name install gives its handlers: Gemini names a
// hook by it in /hooks and in its fingerprint of a project's hooks.
const GeminiHookName = "bimri-hook"

// GeminiEvents are the events install wires for the Gemini CLI (0.61.0),
// under Gemini's names, with their timeouts in seconds: the memory at
// SessionStart, recall at BeforeAgent (a prompt's submission), the
// session-end pass at SessionEnd. PreCompress is left out: 0.61.0 fires
// it before every check of whether to compress, on each turn, compression
// or none, and reads nothing from its answer that steers the summary.
func GeminiEvents() []Event {
	return []Event{
		{Name: "SessionStart", Timeout: 10},
		{Name: "BeforeAgent", Timeout: 10},
		{Name: "SessionEnd", Timeout: 10},
	}
}

// geminiHandler is one handler of Gemini's settings.json as install
// writes it. Gemini's timeout is in milliseconds.
type geminiHandler struct {
	Type    string `json:"type"`
	Name    string `json:"name"`
	Command string `json:"command"`
	Timeout int    `json:"timeout"`
}

// GeminiHook is the command Gemini's hooks run.
func (c Command) GeminiHook() string { return c.Hook() + " " + AgentGemini }

// isGeminiHookCommand tells whether a command is bimri-hook's Gemini hook,
// for a binary called bimri-hook in any folder.
func isGeminiHookCommand(command string) bool {
	rest, ok := strings.CutSuffix(command, " "+AgentGemini)
	return ok && isHookCommand(rest)
}

func geminiGroup(command string, e Event) []byte {
	h := geminiHandler{Type: "command", Name: GeminiHookName, Command: command, Timeout: e.Timeout * 1000}
	return marshal(struct {
		Hooks []geminiHandler `json:"hooks"`
	}{[]geminiHandler{h}})
}

// geminiMCP is the MCP server's entry under "mcpServers", trusted: its
// tools change the project's memory alone (as the Claude Code plugin's
// PreToolUse approves them), and Gemini's non-interactive mode declares
// no tool of an untrusted server to the model (measured on 0.61.0).
func geminiMCP(c Command) []byte {
	return marshal(struct {
		Command string   `json:"command"`
		Args    []string `json:"args"`
		Trust   bool     `json:"trust"`
	}{c.Binary, []string{"mcp"}, true})
}

// isGeminiMCP tells whether an mcpServers entry runs bimri-hook's server.
func isGeminiMCP(v gjson.Result) bool {
	args := v.Get("args").Array()
	return v.Get("command").Type == gjson.String && isBinaryName(v.Get("command").Str) &&
		len(args) == 1 && args[0].Str == "mcp"
}

// InstallGemini wires bimri-hook into the bytes of a Gemini settings.json,
// empty when the file does not exist yet: a handler running c.GeminiHook()
// for each of GeminiEvents, and MCPServer under "mcpServers". What is
// already as install writes it stays, so installing twice changes
// nothing; everything else keeps its bytes. prev is the receipt of an
// earlier install.
func InstallGemini(settings []byte, c Command, prev Receipt) (out []byte, r Receipt, changed bool, err error) {
	if c.Binary == "" {
		return nil, r, false, fmt.Errorf("no binary path to install")
	}
	d, err := parseSettings(settings)
	if err != nil {
		return nil, r, false, err
	}
	r = Receipt{Created: slices.Clone(prev.Created)}
	r.note("file", !d.fresh)
	command := c.GeminiHook()
	mine := func(s string) bool { return s == command || isGeminiHookCommand(s) }
	group := func(e Event) []byte { return geminiGroup(command, e) }
	if err := d.wireClient(GeminiEvents(), mine, group, &r); err != nil {
		return nil, r, false, err
	}
	if err := d.wireMCP("mcpServers", geminiMCP(c), isGeminiMCP, &r); err != nil {
		return nil, r, false, err
	}
	out, changed, err = d.result(settings)
	return out, r, changed, err
}

// UninstallGemini takes out of a Gemini settings.json what InstallGemini
// put in, guided by its receipt as UninstallReceipt is: the hooks, the
// MCP server, the containers install created, and the file when install
// created it and nothing else is left.
func UninstallGemini(settings []byte, r Receipt) (out []byte, remove, changed bool, err error) {
	if len(bytes.TrimSpace(settings)) == 0 {
		return settings, false, false, nil
	}
	d, err := parseSettings(settings)
	if err != nil {
		return nil, false, false, err
	}
	d.keep = func(path ...string) bool { return !r.created(strings.Join(path, ".")) }
	for _, name := range d.eventNames() {
		d.unwire(name, isGeminiHookCommand)
	}
	d.unwireMCP("mcpServers", isGeminiMCP, r)
	out, changed, err = d.result(settings)
	if err != nil {
		return nil, false, false, err
	}
	if r.created("file") && len(members(d.root())) == 0 {
		return out, true, true, nil
	}
	return out, false, changed, nil
}

// GeminiWired lists the Gemini events a settings.json runs bimri-hook's
// hook at, and whether it registers the MCP server.
func GeminiWired(settings []byte) (events []string, mcp bool, err error) {
	d, err := parseSettings(settings)
	if err != nil {
		return nil, false, err
	}
	for _, name := range d.eventNames() {
		if len(d.handlers(name, isGeminiHookCommand)) > 0 {
			events = append(events, name)
		}
	}
	return events, isGeminiMCP(d.get("mcpServers", MCPServer)), nil
}
