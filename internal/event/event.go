// Package event names the Claude Code hook events as hook_event_name
// spells them: the one list the hooks, install and simulate use.
package event

import "strings"

// Name is a hook event's name.
type Name string

const (
	SessionStart     Name = "SessionStart"
	UserPromptSubmit Name = "UserPromptSubmit"
	Stop             Name = "Stop"
	PreCompact       Name = "PreCompact"
	SessionEnd       Name = "SessionEnd"
	SubagentStart    Name = "SubagentStart" // gives a subagent a small pack of memory
	// SubagentStop reaches a hook too, but a subagent's turn is not the
	// session's: bimri-hook leaves it alone.
	SubagentStop Name = "SubagentStop"
	// PreToolUse is wired by the plugin only, to approve its own memory
	// commands, which a plugin cannot allow with a permission rule.
	PreToolUse Name = "PreToolUse"
)

// Answered are the events bimri-hook answers and install wires, in the
// order a session meets them (a new one also needs a case in hooks.Handle).
var Answered = []Name{SessionStart, UserPromptSubmit, Stop, PreCompact, SessionEnd, SubagentStart}

// List writes names for a message: "SessionStart, Stop".
func List(names []Name) string {
	s := make([]string, len(names))
	for i, n := range names {
		s[i] = string(n)
	}
	return strings.Join(s, ", ")
}
