package hooks

import (
	"github.com/bimri/bimri-hook/internal/approve"
	"github.com/bimri/bimri-hook/internal/event"
)

// PreToolUse allows a call of the plugin's own memory commands on the
// session's workspace or its own MCP tools, which a plugin cannot allow by
// a rule; for any other call it says nothing. It touches no file.
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
