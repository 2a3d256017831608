package wiring

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/bimri/bimri-hook/internal/event"
)

// pluginCommand and pluginArgs are what every hook of the plugin runs, in
// the exec form, through no shell: the plugin's dispatcher bin/bimri-hook
// (which runs the binary bundled for the platform, or scripts/launch.sh)
// with "hook". Claude Code substitutes ${CLAUDE_PLUGIN_ROOT} in each as
// plain text, so a folder with spaces needs no quotes, and starts the
// program itself (measured, 2.1.332). On Windows, where a program named
// without an extension is looked up with .exe, that is bin/bimri-hook.exe,
// and no POSIX shell is needed.
const pluginCommand = "${CLAUDE_PLUGIN_ROOT}/bin/bimri-hook"

// pluginArgs are pluginCommand's arguments.
var pluginArgs = []string{"hook"}

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

// pluginHooks returns the content of the plugin's hooks/hooks.json.
func pluginHooks() []byte {
	compact := `{"description":` + jsonString("bimri-hook: load bimri.md at session start, keep it up to date as the session goes") +
		`,"hooks":` + string(execHooks(pluginCommand, pluginArgs, PluginEvents())) + `}`
	var buf bytes.Buffer
	_ = json.Indent(&buf, []byte(compact), "", "  ") // compact is valid JSON
	buf.WriteByte('\n')
	return buf.Bytes()
}
