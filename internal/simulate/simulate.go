// Package simulate runs one hook event as Claude Code would, without
// Claude Code, for `bimri-hook simulate EVENT`: it builds the payload the
// client sends (Payload) and answers it on a copy of the workspace's
// memory. bench/lifesim (`make simulate`) builds its payloads here too.
package simulate

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bimri/bimri-hook/hooks"
	"github.com/bimri/bimri-hook/internal/event"
	"github.com/bimri/bimri-hook/internal/inspect"
	"github.com/bimri/bimri-hook/internal/workspace"
	"github.com/bimri/bimri-hook/wiring"
)

// DefaultSession is fixed so runs are reproducible and repeated events
// belong to one session: SessionEnd counts a session ID once.
const DefaultSession = "00000000-0000-4000-8000-000000000000"

// Events are those bimri-hook answers, and SubagentStop, which it must
// leave alone.
var Events = append(slices.Clone(event.Answered), event.SubagentStop)

// The values Claude Code 2.1.328 sends in each event's own field.
var (
	SessionSources  = []string{"startup", "resume", "clear", "compact"}
	EndReasons      = []string{"other", "clear", "resume", "logout", "prompt_input_exit"}
	CompactTriggers = []string{"manual", "auto"}
)

// eventKeys are the keys Claude Code 2.1.328 sends for each event after
// session_id, transcript_path and cwd, in its order (testdata/hook-inputs).
// Keys only the client can fill (prompt IDs, model, effort) are left out:
// no handler reads them.
var eventKeys = map[event.Name][]string{
	event.SessionStart:     {"hook_event_name", "source"},
	event.UserPromptSubmit: {"permission_mode", "hook_event_name", "prompt"},
	event.Stop:             {"permission_mode", "hook_event_name", "stop_hook_active", "last_assistant_message"},
	event.PreCompact:       {"hook_event_name", "trigger", "custom_instructions"},
	event.SessionEnd:       {"hook_event_name", "reason"},
	event.SubagentStart:    {"agent_id", "agent_type", "hook_event_name"},
	event.SubagentStop: {"permission_mode", "agent_id", "hook_event_name", "stop_hook_active",
		"agent_transcript_path", "last_assistant_message"},
}

// Payload is the hook input the client sends for in, as its JSON.
func Payload(in hooks.Input) []byte {
	const agent = "0000000000000000"
	values := map[string]any{
		"session_id": in.SessionID, "transcript_path": in.TranscriptPath, "cwd": in.Cwd,
		"hook_event_name": string(in.Event), "source": in.Source, "prompt": in.Prompt, "reason": in.Reason,
		"trigger": in.Trigger, "stop_hook_active": in.StopHookActive, "permission_mode": "default",
		"last_assistant_message": "", "custom_instructions": nil, "agent_id": agent, "agent_type": "general-purpose",
		"agent_transcript_path": strings.TrimSuffix(in.TranscriptPath, ".jsonl") + "/subagents/agent-" + agent + ".jsonl",
	}
	keys := append([]string{"session_id", "transcript_path", "cwd"}, eventKeys[in.Event]...)
	lines := make([]string, len(keys))
	for i, k := range keys {
		lines[i] = fmt.Sprintf("  %q: %s", k, wiring.JSON(values[k]))
	}
	return []byte("{\n" + strings.Join(lines, ",\n") + "\n}\n")
}

// transcriptFor is where Claude Code keeps a session's transcript: a
// folder named after the project path, every character not a letter or
// digit turned into "-".
func transcriptFor(root, session string) string {
	slug := strings.Map(func(r rune) rune {
		if (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
			return r
		}
		return '-'
	}, root)
	return filepath.Join(workspace.ClaudeDir(), "projects", slug, session+".jsonl")
}

// ContextText is the additionalContext of an answer, if it has one.
func ContextText(out hooks.Output) (string, bool) {
	spec, _ := out.JSON["hookSpecificOutput"].(map[string]any)
	text, ok := spec["additionalContext"].(string)
	return text, ok
}

// Flags are simulate's command-line flags, read by name (a *cli.Context).
type Flags interface {
	IsSet(name string) bool
	String(name string) string
	Bool(name string) bool
}

// Answer answers one event as `bimri-hook hook` does, with the store at
// dir and the config of the workspace root.
type Answer func(root, dir string, in hooks.Input) (hooks.Output, error)

// eventFlags are the events each event-only flag applies to: a flag that
// would be ignored is refused.
var eventFlags = map[string][]event.Name{
	"prompt": {event.UserPromptSubmit}, "source": {event.SessionStart}, "reason": {event.SessionEnd},
	"trigger": {event.PreCompact}, "stop-hook-active": {event.Stop, event.SubagentStop},
	"context-only": {event.SessionStart, event.UserPromptSubmit},
}

// check refuses what the event would ignore or the client never sends.
func check(name string, f Flags) (event.Name, error) {
	i := slices.IndexFunc(Events, func(e event.Name) bool { return strings.EqualFold(string(e), name) })
	if i < 0 {
		return "", fmt.Errorf("simulate: unknown event %q (one of %s)", name, event.List(Events))
	}
	ev, values := Events[i], map[string][]string{"source": SessionSources, "reason": EndReasons, "trigger": CompactTriggers}
	for _, flag := range []string{"prompt", "source", "reason", "trigger", "stop-hook-active", "context-only"} {
		if f.IsSet(flag) && !slices.Contains(eventFlags[flag], ev) {
			return "", fmt.Errorf("simulate: --%s does not apply to %s (only to %s)", flag, ev, event.List(eventFlags[flag]))
		}
		if v := f.String(flag); values[flag] != nil && !slices.Contains(values[flag], v) {
			return "", fmt.Errorf("--%s %q is not one of %s", flag, v, strings.Join(values[flag], ", "))
		}
	}
	if strings.TrimSpace(f.String("session")) == "" {
		return "", errors.New("simulate: --session must not be empty")
	}
	return ev, nil
}

// Run builds the payload the client would send, answers it on a copy of
// the workspace's memory, and prints on stdout exactly what the client
// would receive; stderr says it ran on a copy and, when the client
// receives nothing, why.
func Run(stdout, stderr io.Writer, name, root string, f Flags, answer Answer) error {
	ev, err := check(name, f)
	if err != nil {
		return err
	}
	in := hooks.Input{Event: ev, SessionID: f.String("session"), TranscriptPath: transcriptFor(root, f.String("session")), Cwd: root,
		Source: f.String("source"), Reason: f.String("reason"), Trigger: f.String("trigger"), Prompt: f.String("prompt"), StopHookActive: f.Bool("stop-hook-active")}
	if t := f.String("transcript"); t != "" {
		if in.TranscriptPath, err = filepath.Abs(t); err != nil {
			return fmt.Errorf("--transcript %q: %w", t, err)
		}
	}
	contextOnly, verbose := f.Bool("context-only"), f.Bool("verbose")
	payload := Payload(in)
	if verbose {
		fmt.Fprintf(stderr, "simulate: hook input sent to the handler:\n%s", payload)
	}
	if in, err = hooks.Decode(payload); err != nil {
		return err
	}
	var out hooks.Output
	if slices.Contains(event.Answered, ev) {
		out, err = onCopy(root, in, answer)
		fmt.Fprintf(stderr, "simulate: ran on a copy of the memory in %s; nothing there changed\n", root)
		if err != nil {
			return fmt.Errorf("%s: %w", ev, err)
		}
	}
	var buf bytes.Buffer
	if text, ok := ContextText(out); contextOnly && ok {
		buf.WriteString(text + "\n")
	} else if !contextOnly {
		if err := out.Write(&buf); err != nil {
			return err
		}
	}
	if verbose {
		kind := inspect.Pick(out.JSON != nil, "JSON", inspect.Pick(out.Text != "", "plain text", "nothing"))
		fmt.Fprintf(stderr, "simulate: exit 0; %d bytes on stdout (%s)\n", buf.Len(), kind)
	}
	if buf.Len() == 0 {
		fmt.Fprintf(stderr, "simulate: Claude Code receives nothing for %s: %s\n", ev, nothingBecause(ev, in.StopHookActive))
	}
	_, err = stdout.Write(buf.Bytes())
	return err
}

// nothingBecause says why the client receives nothing for ev.
func nothingBecause(ev event.Name, stopHookActive bool) string {
	switch {
	case !slices.Contains(event.Answered, ev):
		return "bimri-hook does not answer " + string(ev)
	case ev == event.SessionEnd:
		return "the client shows nothing a SessionEnd hook says; the session-end pass ran (on the copy)"
	case ev == event.Stop && stopHookActive:
		return "the turn follows a Stop that kept it going, so bimri-hook lets it stop; the pass changed nothing worth telling the user"
	case ev == event.Stop:
		return "no work to record since the last record (or the session was nudged for it already), and the pass changed nothing worth telling the user"
	case ev == event.UserPromptSubmit:
		return "nothing archived or left out of the session-start view bears on this prompt enough to recall"
	case ev == event.SubagentStart:
		return "Tier 1 is empty, so a subagent gets no memory"
	}
	return "bimri-hook had nothing to say"
}
