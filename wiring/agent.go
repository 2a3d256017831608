package wiring

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

// MCPTools are the plugin's own MCP tools that its PreToolUse hook
// approves, as the client names them: mcp__plugin_<plugin>_<server>__<tool>
// (MCPToolName builds one). Empty until the plugin declares its server.
var MCPTools []string

// MCPToolName is the name the client gives tool of the plugin's MCP
// server named server.
func MCPToolName(server, tool string) string {
	return "mcp__plugin_" + PluginName + "_" + server + "__" + tool
}
