// Package hooks answers Claude Code's hook events: one handler per event,
// each a function of the event, the environment and the store. The
// command in cmd/bimri-hook decodes stdin and prints what a handler
// returns; handlers never print, exit or read the clock themselves.
package hooks

import (
	"time"

	"github.com/bimri/bimri-hook/memfile"
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
	case "SessionStart":
		return SessionStart(env, in)
	case "UserPromptSubmit":
		return UserPromptSubmit(env, in)
	case "Stop":
		return Stop(env, in)
	case "PreCompact":
		return PreCompact(env, in)
	case "SessionEnd":
		return SessionEnd(env, in)
	}
	return Output{}, nil
}

func (env Env) today() time.Time { return env.Now }

// pass runs the session-end pass inside a transaction and queues what it
// archived.
func pass(env Env, tx *memfile.Tx, opt memfile.Options) memfile.Report {
	next, rep := memfile.Maintain(tx.File, env.today(), env.Config, opt)
	tx.File = next
	tx.Archive = append(tx.Archive, rep.Archived...)
	return rep
}

// archivedEntries reads the archive's entries for a deep pass.
func archivedEntries(tx *memfile.Tx) []memfile.Entry {
	recs, err := tx.ReadArchive()
	if err != nil {
		return nil
	}
	var out []memfile.Entry
	for _, r := range recs {
		if r.Entry != nil {
			out = append(out, *r.Entry)
		}
	}
	return out
}

func additionalContext(event, text string) Output {
	return Output{JSON: map[string]any{
		"hookSpecificOutput": map[string]any{
			"hookEventName":     event,
			"additionalContext": text,
		},
	}}
}

func systemMessage(msg string) Output {
	return Output{JSON: map[string]any{"systemMessage": msg}}
}
