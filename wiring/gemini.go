package wiring

// The Gemini CLI's wiring: the hooks and the MCP server in its
// settings.json (.gemini/settings.json in a project, ~/.gemini/settings.json
// for the user). Its hooks have Claude Code's shape (event -> matcher
// groups -> command handlers) with Gemini's event names and timeouts in
// milliseconds; its MCP servers sit under "mcpServers" in the same file.

import (
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

var isGeminiHookCommand = isAgentHook(AgentGemini)

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
	command := c.GeminiHook()
	mine := func(s string) bool { return s == command || isGeminiHookCommand(s) }
	return installClient(settings, c, prev, GeminiEvents(), mine, func(e Event) []byte { return geminiGroup(command, e) },
		func(d *settingsDoc, r *Receipt) error { return d.wireMCP("mcpServers", geminiMCP(c), isGeminiMCP, r) })
}

// UninstallGemini takes out of a Gemini settings.json what InstallGemini
// put in, guided by its receipt as UninstallReceipt is.
func UninstallGemini(settings []byte, r Receipt) (out []byte, remove, changed bool, err error) {
	return uninstall(settings, &r, isGeminiHookCommand, func(d *settingsDoc, r Receipt) {
		d.unwireMCP("mcpServers", isGeminiMCP, r)
	})
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
