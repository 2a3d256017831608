package wiring

import (
	"strings"

	"github.com/bimri/bimri-hook/internal/event"
)

// MemoryCommands are the bimri-hook subcommands the hooks teach the agent
// to run through its Bash tool, to change memory: the one list that the
// plugin's PreToolUse hook approves (package approve), that the command
// marks as the agent's own (they wait longer for the lock), and that
// install's permission rules are to cover. A command the hooks start to
// teach goes here, and nowhere else.
var MemoryCommands = []string{"remember", "forget", "revive"}

// PluginName is the plugin's name in .claude-plugin/plugin.json. The client
// names the tools of the plugin's MCP servers after it.
const PluginName = "bimri-hook"

// MCPServer is the plugin's MCP server's name in .mcp.json: part of
// every tool name the client gives the agent.
const MCPServer = "bimri"

// MCPTools are the plugin's own MCP tools that its PreToolUse hook
// approves, as the client names them: mcp__plugin_<plugin>_<server>__<tool>
// (MCPToolName builds one; measured on Claude Code 2.1.332 by
// e2e/TestMeasureMCPTools, with the plugin loaded from a folder and
// installed from its marketplace alike): the server is MCPServer, and the
// tools are the MCP server's five (a test of cmd/bimri-hook holds the three
// together). Written out, not built: nothing runs at a hook's start.
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

// PluginEvents returns the events the plugin wires: the same as Events,
// with the same timeouts, since the launcher never makes an event wait
// for a build; and PreToolUse for the Bash tool and the plugin's MCP
// tools (ApprovalMatcher), whose answer approves the plugin's own memory
// commands: a plugin cannot ship permission rules.
func PluginEvents() []Event {
	return append(Events(), Event{Name: string(event.PreToolUse), Timeout: 10, Matcher: ApprovalMatcher()})
}

// ApprovalMatcher names the tools the plugin's PreToolUse hook is run
// for: the Bash tool, which runs MemoryCommands, and MCPTools. The client
// reads a matcher of names and | as the exact names (2.1.332), so the hook
// starts for no other tool.
func ApprovalMatcher() string {
	return strings.Join(append([]string{"Bash"}, MCPTools...), "|")
}
