// Package event names the Claude Code hook events as hook_event_name
// spells them: the one list the hooks, install and simulate use.
package event

// Name is a hook event's name.
type Name string

// The events bimri-hook meets.
const (
	SessionStart     Name = "SessionStart"
	UserPromptSubmit Name = "UserPromptSubmit"
	Stop             Name = "Stop"
	PreCompact       Name = "PreCompact"
	SessionEnd       Name = "SessionEnd"
	// SubagentStart gives a subagent a small pack of memory.
	SubagentStart Name = "SubagentStart"
	// SubagentStop reaches a hook too, but bimri-hook leaves it alone:
	// a subagent's turn is not the session's.
	SubagentStop Name = "SubagentStop"
	// PreToolUse is answered for the plugin only, which wires it for its
	// own tools (wiring.PluginEvents): it approves the plugin's memory
	// commands, which a plugin cannot allow with a permission rule.
	PreToolUse Name = "PreToolUse"
)

// Answered are the events bimri-hook answers and install wires, in the
// order a session meets them (a new one also needs a case in hooks.Handle).
var Answered = []Name{SessionStart, UserPromptSubmit, Stop, PreCompact, SessionEnd, SubagentStart}

// List writes names for a message: "SessionStart, Stop".
func List(names []Name) string {
	s := ""
	for i, n := range names {
		if i > 0 {
			s += ", "
		}
		s += string(n)
	}
	return s
}
