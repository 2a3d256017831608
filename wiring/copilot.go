package wiring

// The GitHub Copilot CLI's wiring: a hooks file of bimri-hook's own among
// the client's hook files (.github/hooks/ in a repository,
// ~/.copilot/hooks/ for the user), and the MCP server under "mcpServers"
// in its MCP config (.github/mcp.json, ~/.copilot/mcp-config.json).

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/tidwall/gjson"
)

// AgentCopilot is the Copilot CLI's name where a command takes an agent
// (`bimri-hook hook copilot`, `install --agent copilot`).
const AgentCopilot = "copilot"

// CopilotHooksFile is the name of bimri-hook's hooks file in Copilot's
// hooks folder, which loads every *.json there.
const CopilotHooksFile = "bimri-hook.json"

// CopilotEvents are the events install wires for the Copilot CLI
// (1.0.102), with their timeouts in seconds. Their PascalCase names make
// Copilot send Claude Code's field names (session_id, prompt, source,
// reason), where its camelCase events send its own. SessionEnd fires at
// the end of a `copilot -p` run, so it counts the session as under
// Claude Code; Stop is left out: its transcript is Copilot's own.
func CopilotEvents() []Event {
	return []Event{
		{Name: "SessionStart", Timeout: 10},
		{Name: "UserPromptSubmit", Timeout: 10},
		{Name: "SessionEnd", Timeout: 10},
	}
}

// CopilotHook is the command Copilot's hooks run.
func (c Command) CopilotHook() string { return c.Hook() + " " + AgentCopilot }

// CopilotHooks is bimri-hook's hooks file for Copilot, whole: a command
// handler running c.CopilotHook() for each of CopilotEvents, under
// "bash" (the POSIX shell Copilot runs it with; Hook quotes for it).
func CopilotHooks(c Command) []byte {
	type handler struct {
		Type       string `json:"type"`
		Bash       string `json:"bash"`
		TimeoutSec int    `json:"timeoutSec"`
	}
	hooks := map[string][]handler{}
	for _, e := range CopilotEvents() {
		hooks[e.Name] = []handler{{"command", c.CopilotHook(), e.Timeout}}
	}
	var buf bytes.Buffer
	_ = json.Indent(&buf, marshal(struct {
		Version int                  `json:"version"`
		Hooks   map[string][]handler `json:"hooks"`
	}{1, hooks}), "", "  ") // marshal gives valid JSON
	return append(buf.Bytes(), '\n')
}

// IsCopilotHooks tells whether a hooks file is bimri-hook's: valid JSON
// whose every handler runs bimri-hook's Copilot hook, and one at least.
func IsCopilotHooks(data []byte) bool {
	handlers := gjson.GetBytes(data, "hooks.@values|@flatten").Array()
	for _, h := range handlers {
		rest, ok := strings.CutSuffix(h.Get("bash").Str, " "+AgentCopilot)
		if !ok || !isHookCommand(rest) {
			return false
		}
	}
	return gjson.ValidBytes(data) && len(handlers) > 0
}

// copilotMCP is the MCP server's entry under "mcpServers", as `copilot
// mcp add` writes one: a local server, all its tools.
func copilotMCP(c Command) []byte {
	return marshal(struct {
		Type    string   `json:"type"`
		Command string   `json:"command"`
		Args    []string `json:"args"`
		Tools   []string `json:"tools"`
	}{"local", c.Binary, []string{"mcp"}, []string{"*"}})
}

// InstallCopilotMCP registers MCPServer under "mcpServers" in the bytes of
// a Copilot MCP config, empty when the file does not exist yet.
func InstallCopilotMCP(config []byte, c Command, prev Receipt) (out []byte, r Receipt, changed bool, err error) {
	return installMCPEntry(config, "mcpServers", copilotMCP(c), isGeminiMCP, prev)
}

// UninstallCopilotMCP takes out what InstallCopilotMCP put in.
func UninstallCopilotMCP(config []byte, r Receipt) (out []byte, remove, changed bool, err error) {
	return uninstallMCPEntry(config, "mcpServers", isGeminiMCP, r)
}

// CopilotMCPWired tells whether a Copilot MCP config registers the server.
func CopilotMCPWired(config []byte) (bool, error) {
	return mcpEntryWired(config, "mcpServers", isGeminiMCP)
}
