// Package simulate runs one hook event as Claude Code would, without
// Claude Code: it builds the payload the client sends (Payload) and runs it
// on a copy of the workspace's memory (Copy), for `bimri-hook simulate
// EVENT`. The many-session run whose figures the docs quote is a developer
// tool apart, bench/lifesim (`make simulate`), which builds its payloads
// here too.
package simulate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bimri/bimri-hook/hooks"
	"github.com/bimri/bimri-hook/internal/event"
	"github.com/bimri/bimri-hook/internal/workspace"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
)

// DefaultSession is fixed so runs are reproducible and repeated events
// belong to one session: SessionEnd counts a session ID once.
const DefaultSession = "00000000-0000-4000-8000-000000000000"

// Events are the events simulate builds payloads for: those bimri-hook
// answers, and SubagentStop, which it must leave alone.
var Events = append(slices.Clone(event.Answered), event.SubagentStop)

// The values Claude Code 2.1.328 sends in each event's own field.
var (
	SessionSources  = []string{"startup", "resume", "clear", "compact"}
	EndReasons      = []string{"other", "clear", "resume", "logout", "prompt_input_exit"}
	CompactTriggers = []string{"manual", "auto"}
)

// eventFlags are the events each event-only flag applies to: a flag
// that would be ignored is refused.
var eventFlags = []struct {
	flag   string
	events []event.Name
}{
	{"prompt", []event.Name{event.UserPromptSubmit}},
	{"source", []event.Name{event.SessionStart}},
	{"reason", []event.Name{event.SessionEnd}},
	{"trigger", []event.Name{event.PreCompact}},
	{"stop-hook-active", []event.Name{event.Stop, event.SubagentStop}},
	{"context-only", []event.Name{event.SessionStart, event.UserPromptSubmit}},
}

// CheckFlags refuses what `simulate EVENT` would ignore or send wrong: a
// flag for another event, a value Claude Code never sends, no session.
func CheckFlags(ev event.Name, isSet func(string) bool, value func(string) string) error {
	for _, f := range eventFlags {
		if isSet(f.flag) && !slices.Contains(f.events, ev) {
			return fmt.Errorf("simulate: --%s does not apply to %s (only to %s)", f.flag, ev, event.List(f.events))
		}
	}
	for _, f := range []struct {
		flag    string
		allowed []string
	}{{"source", SessionSources}, {"reason", EndReasons}, {"trigger", CompactTriggers}} {
		if v := value(f.flag); !slices.Contains(f.allowed, v) {
			return fmt.Errorf("--%s %q is not one of %s", f.flag, v, strings.Join(f.allowed, ", "))
		}
	}
	if strings.TrimSpace(value("session")) == "" {
		return errors.New("simulate: --session must not be empty")
	}
	return nil
}

// CanonicalEvent spells an event as Claude Code does, whatever its case.
func CanonicalEvent(name string) (event.Name, bool) {
	for _, e := range Events {
		if strings.EqualFold(string(e), name) {
			return e, true
		}
	}
	return "", false
}

type Payload struct {
	Event          event.Name
	SessionID      string
	TranscriptPath string
	Cwd            string
	Source         string
	Reason         string
	Trigger        string
	Prompt         string
	StopHookActive bool
}

type jsonField struct {
	key   string
	value any
}

// JSON builds the hook input with the keys, in the order, that Claude Code
// 2.1.328 sends for the event (testdata/hook-inputs). Fields whose value
// only the client can know (prompt IDs, model, effort) are left out: no
// handler reads them.
func (p Payload) JSON() []byte {
	fields := []jsonField{
		{"session_id", p.SessionID},
		{"transcript_path", p.TranscriptPath},
		{"cwd", p.Cwd},
	}
	ev := jsonField{"hook_event_name", string(p.Event)}
	switch p.Event {
	case event.SessionStart:
		fields = append(fields, ev, jsonField{"source", p.Source})
	case event.UserPromptSubmit:
		fields = append(fields, jsonField{"permission_mode", "default"}, ev, jsonField{"prompt", p.Prompt})
	case event.Stop:
		fields = append(fields, jsonField{"permission_mode", "default"}, ev,
			jsonField{"stop_hook_active", p.StopHookActive}, jsonField{"last_assistant_message", ""})
	case event.PreCompact:
		fields = append(fields, ev, jsonField{"trigger", p.Trigger}, jsonField{"custom_instructions", nil})
	case event.SessionEnd:
		fields = append(fields, ev, jsonField{"reason", p.Reason})
	case event.SubagentStart:
		fields = append(fields, jsonField{"agent_id", "0000000000000000"}, jsonField{"agent_type", "general-purpose"}, ev)
	case event.SubagentStop:
		agent := "0000000000000000"
		fields = append(fields, jsonField{"permission_mode", "default"}, jsonField{"agent_id", agent}, jsonField{"agent_type", ""}, ev,
			jsonField{"stop_hook_active", p.StopHookActive},
			jsonField{"agent_transcript_path", strings.TrimSuffix(p.TranscriptPath, ".jsonl") + "/subagents/agent-" + agent + ".jsonl"},
			jsonField{"last_assistant_message", ""})
	default:
		fields = append(fields, ev)
	}
	var b bytes.Buffer
	b.WriteString("{\n")
	for i, f := range fields {
		key, _ := json.Marshal(f.key)
		value := marshalPlain(f.value)
		fmt.Fprintf(&b, "  %s: %s", key, value)
		if i < len(fields)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// marshalPlain encodes without HTML escaping, as Claude Code does.
func marshalPlain(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // strings, bools and nil always encode
	return bytes.TrimRight(b.Bytes(), "\n")
}

// TranscriptFor is where Claude Code keeps a session's transcript: under
// its config folder, in a folder named after the project path with every
// character that is not a letter or digit turned into "-".
func TranscriptFor(root, session string) string {
	base := workspace.ClaudeDir()
	slug := strings.Map(func(r rune) rune {
		if (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
			return r
		}
		return '-'
	}, root)
	return filepath.Join(base, "projects", slug, session+".jsonl")
}

func ContextText(out hooks.Output) (string, bool) {
	spec, ok := out.JSON["hookSpecificOutput"].(map[string]any)
	if !ok {
		return "", false
	}
	text, ok := spec["additionalContext"].(string)
	return text, ok
}

func PrintPayload(w io.Writer, payload []byte) {
	fmt.Fprintf(w, "simulate: hook input sent to the handler:\n%s", payload)
}

func PrintAnswer(w io.Writer, stdoutBytes int, out hooks.Output) {
	kind := "nothing"
	switch {
	case out.JSON != nil:
		kind = "JSON"
	case out.Text != "":
		kind = "plain text"
	}
	fmt.Fprintf(w, "simulate: exit 0; %d bytes on stdout (%s)\n", stdoutBytes, kind)
}

// Options are what `simulate EVENT` was given. IsSet and Value read its
// flags by name, for CheckFlags.
type Options struct {
	Event, Root          string
	Transcript           string // --transcript, or "" for the session's own
	ContextOnly, Verbose bool
	IsSet                func(string) bool
	Value                func(string) string
	StopHookActive       bool
}

// Answer answers one event as `bimri-hook hook` does, with the store at
// dir and the config of the workspace root.
type Answer func(root, dir string, in hooks.Input) (hooks.Output, error)

// Run builds the payload the client would send for the event, answers it
// on a copy of the workspace's memory (the workspace's files never
// change), and prints on stdout exactly what the client would receive;
// stderr says it ran on a copy and, when the client receives nothing, why.
func Run(stdout, stderr io.Writer, o Options, answer Answer) error {
	ev, ok := CanonicalEvent(o.Event)
	if !ok {
		return fmt.Errorf("simulate: unknown event %q (one of %s)", o.Event, event.List(Events))
	}
	if err := CheckFlags(ev, o.IsSet, o.Value); err != nil {
		return err
	}
	session := o.Value("session")
	transcript := TranscriptFor(o.Root, session)
	if o.Transcript != "" {
		var err error
		if transcript, err = filepath.Abs(o.Transcript); err != nil {
			return fmt.Errorf("--transcript %q: %w", o.Transcript, err)
		}
	}
	payload := Payload{
		Event: ev, SessionID: session, TranscriptPath: transcript, Cwd: o.Root,
		Source: o.Value("source"), Reason: o.Value("reason"), Trigger: o.Value("trigger"),
		Prompt: o.Value("prompt"), StopHookActive: o.StopHookActive,
	}.JSON()
	if o.Verbose {
		PrintPayload(stderr, payload)
	}
	in, err := hooks.Decode(payload)
	if err != nil {
		return err
	}
	out, err := onCopy(stderr, o.Root, in, answer)
	if err != nil {
		return fmt.Errorf("%s: %w", in.Event, err)
	}
	var buf bytes.Buffer
	if o.ContextOnly {
		if text, ok := ContextText(out); ok {
			buf.WriteString(text + "\n")
		}
	} else if err := out.Write(&buf); err != nil {
		return err
	}
	if o.Verbose {
		PrintAnswer(stderr, buf.Len(), out)
	}
	if buf.Len() == 0 {
		PrintNothing(stderr, ev, o.StopHookActive)
	}
	_, err = stdout.Write(buf.Bytes())
	return err
}

// onCopy answers in on a copy of the workspace's memory, and says so. The
// answer names the workspace, not the copy.
func onCopy(stderr io.Writer, root string, in hooks.Input, answer Answer) (hooks.Output, error) {
	if !slices.Contains(event.Answered, in.Event) {
		return hooks.Output{}, nil
	}
	dir, remove, err := Copy(root, store.Names{Memory: memfile.MemoryName, Backup: memfile.BackupName, Archive: memfile.ArchiveName, State: store.StateDir})
	if err != nil {
		return hooks.Output{}, err
	}
	defer remove()
	in.TranscriptPath = CopyTranscript(root, dir, in.TranscriptPath)
	in.Cwd = dir
	out, err := answer(root, dir, in)
	PrintCopied(stderr, root)
	return Restate(out, dir, root), err
}

// TrailingFlags reads the flags written after EVENT (args[0]) with set:
// urfave/cli stops reading flags at the first argument, but `simulate Stop
// --stop-hook-active` is the natural order. isBool holds every flag's
// name: whether it is a bool, which takes no value.
func TrailingFlags(args []string, isBool map[string]bool, set func(name, value string) error) error {
	for i := 1; i < len(args); i++ {
		arg := args[i]
		if arg == "--" || !strings.HasPrefix(arg, "-") {
			return fmt.Errorf("usage: simulate takes one EVENT, got also %q (see --help)", arg)
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		boolean, known := isBool[name]
		switch {
		case !known: // in urfave/cli's words for a flag before EVENT
			return fmt.Errorf("usage: flag provided but not defined: -%s (see --help)", name)
		case !hasValue && boolean:
			value = "true"
		case !hasValue && i+1 == len(args):
			return fmt.Errorf("usage: flag needs an argument: %s (see --help)", arg)
		case !hasValue:
			i++
			value = args[i]
		}
		if err := set(name, value); err != nil {
			return fmt.Errorf("usage: %s: %w (see --help)", arg, err)
		}
	}
	return nil
}
