package wiring

import (
	"strings"

	"github.com/bimri/bimri-hook/internal/event"
)

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
