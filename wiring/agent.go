package wiring

import (
	"strings"

	"github.com/bimri/bimri-hook/internal/event"
)

// MemoryCommands are the subcommands the hooks teach the agent to run:
// the one list PreToolUse approves and install's rules allow.
var MemoryCommands = []string{"remember", "forget", "revive"}

// PluginName is the plugin's name, part of its MCP tools' names.
const PluginName = "bimri-hook"

// MCPServer is the MCP server's name, part of every tool name.
const MCPServer = "bimri"

// MCPTools are the plugin's MCP tools its PreToolUse approves, as the
// client names them (MCPToolName; measured by e2e/TestMeasureMCPTools).
// Written out, not built: nothing runs at a hook's start.
var MCPTools = []string{
	"mcp__plugin_bimri-hook_bimri__memory",
	"mcp__plugin_bimri-hook_bimri__remember",
	"mcp__plugin_bimri-hook_bimri__recall",
	"mcp__plugin_bimri-hook_bimri__forget",
	"mcp__plugin_bimri-hook_bimri__revive",
}

// MCPToolName is the name the client gives tool of the plugin's MCP
// server named server.
func MCPToolName(server, tool string) string {
	return "mcp__plugin_" + PluginName + "_" + server + "__" + tool
}

// PluginEvents are Events and PreToolUse, which approves the memory
// commands and MCP tools: a plugin cannot ship permission rules.
func PluginEvents() []Event {
	return append(Events(), Event{Name: string(event.PreToolUse), Timeout: 10, Matcher: ApprovalMatcher()})
}

// ApprovalMatcher names the tools the plugin's PreToolUse runs for: Bash
// and MCPTools. The client reads names and | as exact names (2.1.332).
func ApprovalMatcher() string {
	return strings.Join(append([]string{"Bash"}, MCPTools...), "|")
}
