package hooks

import (
	"github.com/bimri/bimri-hook/internal/approve"
	"github.com/bimri/bimri-hook/internal/event"
)

// PreToolUse is the plugin's approval: "allow" for a call of the
// plugin's own memory commands on the session's workspace (s: the command
// the hooks teach the agent, and the workspace they name) or its own MCP
// tools, which a plugin cannot allow with a permission rule; nothing for
// any other call, which the client then decides as it would without the
// hook. It touches no file: it runs before every Bash call of the session.
func PreToolUse(s approve.Session, in Input) Output {
	if !approve.Tool(in.ToolName, in.Command, s) {
		return Output{}
	}
	return Output{JSON: map[string]any{
		"hookSpecificOutput": map[string]any{
			"hookEventName":            string(event.PreToolUse),
			"permissionDecision":       "allow",
			"permissionDecisionReason": approvalReason,
		},
	}}
}
