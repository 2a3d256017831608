// Package hooks answers Claude Code's hook events: one handler per event,
// each a function of the event, the environment and the store. The
// command in cmd/bimri-hook decodes stdin and prints what a handler
// returns; handlers never print, exit or read the clock themselves.
package hooks

import (
	"strings"

	"github.com/bimri/bimri-hook/internal/event"
)

// Output is a handler's answer. At most one of JSON and Text is set; both
// empty means exit 0 with nothing on stdout.
type Output struct {
	JSON map[string]any // printed as one JSON object
	Text string         // printed as plain text (PreCompact's instructions)
}

// Handle dispatches one event. Events bimri-hook does not use
// (SubagentStop, tool events, ones newer than this binary) change nothing.
func Handle(env Env, in Input) (Output, error) {
	switch in.Event {
	case event.SessionStart:
		return SessionStart(env, in)
	case event.UserPromptSubmit:
		return UserPromptSubmit(env, in)
	case event.Stop:
		return Stop(env, in)
	case event.PreCompact:
		return PreCompact(env, in)
	case event.SessionEnd:
		return SessionEnd(env, in)
	case event.SubagentStart:
		return SubagentStart(env, in)
	}
	return Output{}, nil
}

func additionalContext(ev event.Name, text string) Output {
	return Output{JSON: map[string]any{
		"hookSpecificOutput": map[string]any{
			"hookEventName":     string(ev),
			"additionalContext": text,
		},
	}}
}

func systemMessage(msg string) Output {
	return Output{JSON: map[string]any{"systemMessage": msg}}
}

// userMessage shows the user the messages that are not empty, one line
// each, or answers nothing when all are.
func userMessage(msgs ...string) Output {
	var lines []string
	for _, m := range msgs {
		if m != "" {
			lines = append(lines, m)
		}
	}
	if len(lines) == 0 {
		return Output{}
	}
	return systemMessage(strings.Join(lines, "\n"))
}
