package wiring

// OpenCode's wiring: a plugin file in its plugins folder, which runs
// `bimri-hook hook opencode` on OpenCode's events, and the MCP server
// under "mcp" in its opencode.json (the project's, or the user's in
// ~/.config/opencode).

import (
	"bytes"
	_ "embed"
	"fmt"
	"strings"

	"github.com/tidwall/gjson"
)

// AgentOpenCode is OpenCode's name where a command takes an agent
// (`bimri-hook hook opencode`, `install --agent opencode`).
const AgentOpenCode = "opencode"

// OpenCodePluginFile is the plugin's file name in OpenCode's plugins
// folder.
const OpenCodePluginFile = "bimri-hook.js"

//go:embed opencode_plugin.js
var openCodePlugin string

// openCodePluginMark is the plugin's first line: a file of that name
// without it is the user's, and install leaves it alone.
const openCodePluginMark = "// bimri-hook's OpenCode plugin"

// OpenCodePlugin is the plugin's source, running c's binary.
func OpenCodePlugin(c Command) []byte {
	return []byte(strings.Replace(openCodePlugin, "__BIMRI_BINARY__", jsonString(c.Binary), 1))
}

// IsOpenCodePlugin tells whether a plugin file is bimri-hook's.
func IsOpenCodePlugin(data []byte) bool {
	return bytes.HasPrefix(data, []byte(openCodePluginMark))
}

// openCodeMCP is the MCP server's entry under opencode.json's "mcp": a
// local server, its command and arguments in one array.
func openCodeMCP(c Command) []byte {
	return marshal(struct {
		Type    string   `json:"type"`
		Command []string `json:"command"`
		Enabled bool     `json:"enabled"`
	}{"local", []string{c.Binary, "mcp"}, true})
}

// isOpenCodeMCP tells whether an mcp entry runs bimri-hook's server.
func isOpenCodeMCP(v gjson.Result) bool {
	cmd := v.Get("command").Array()
	return len(cmd) == 2 && cmd[0].Type == gjson.String && isBinaryName(cmd[0].Str) && cmd[1].Str == "mcp"
}

// InstallOpenCode registers MCPServer under "mcp" in the bytes of an
// opencode.json, empty when the file does not exist yet. An entry as
// install writes it stays, so installing twice changes nothing;
// everything else keeps its bytes. prev is the receipt of an earlier
// install.
func InstallOpenCode(config []byte, c Command, prev Receipt) (out []byte, r Receipt, changed bool, err error) {
	if c.Binary == "" {
		return nil, r, false, fmt.Errorf("no binary path to install")
	}
	return installMCPEntry(config, "mcp", openCodeMCP(c), isOpenCodeMCP, prev)
}

// UninstallOpenCode takes out of an opencode.json what InstallOpenCode
// put in, guided by its receipt: the MCP server, "mcp" when install
// created it, and the file when install created it and nothing else is
// left.
func UninstallOpenCode(config []byte, r Receipt) (out []byte, remove, changed bool, err error) {
	return uninstallMCPEntry(config, "mcp", isOpenCodeMCP, r)
}

// OpenCodeMCPWired tells whether an opencode.json registers the MCP
// server.
func OpenCodeMCPWired(config []byte) (bool, error) {
	return mcpEntryWired(config, "mcp", isOpenCodeMCP)
}

// Note records in r that install created what (a folder, say), when it
// did not exist before.
func (r *Receipt) Note(what string, existed bool) { r.note(what, existed) }

// Made tells whether r records that install created what.
func (r Receipt) Made(what string) bool { return r.created(what) }
