package hooks

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bimri/bimri-hook/internal/event"
	"github.com/tidwall/gjson"
)

// maxInput bounds the hook input: a prompt can be long, but not this.
const maxInput = 1 << 20

// Input is one hook event as Claude Code sends it.
type Input struct {
	Event          event.Name // hook_event_name
	SessionID      string
	TranscriptPath string
	Cwd            string
	Source         string // SessionStart: startup, resume, clear, compact
	Reason         string // SessionEnd
	Trigger        string // PreCompact: manual, auto
	Prompt         string // UserPromptSubmit
	StopHookActive bool
	ToolName       string // PreToolUse: tool_name
	Command        string // PreToolUse: tool_input.command, the Bash tool's
	Agent          Agent  // the client, "" for Claude Code (agents.go)
}

// Decode validates and reads one event; an error is the hook's one
// stderr line, so it names what is wrong.
func Decode(data []byte) (Input, error) {
	if len(data) == 0 {
		return Input{}, errors.New("hook input is empty: expected one JSON object on stdin")
	}
	if len(data) > maxInput {
		return Input{}, fmt.Errorf("hook input is larger than %d bytes", maxInput)
	}
	if !gjson.ValidBytes(data) {
		return Input{}, errors.New("hook input is not valid JSON")
	}
	root := gjson.ParseBytes(data)
	if !root.IsObject() {
		return Input{}, errors.New("hook input is not a JSON object")
	}
	in := Input{
		Event:          event.Name(root.Get("hook_event_name").String()),
		SessionID:      root.Get("session_id").String(),
		TranscriptPath: root.Get("transcript_path").String(),
		// A client may name the workspace in workspace_roots, with no cwd.
		Cwd:            cmp.Or(root.Get("cwd").String(), root.Get("workspace_roots.0").String()),
		Source:         root.Get("source").String(),
		Reason:         root.Get("reason").String(),
		Trigger:        root.Get("trigger").String(),
		Prompt:         root.Get("prompt").String(),
		StopHookActive: root.Get("stop_hook_active").Bool(),
		ToolName:       root.Get("tool_name").String(),
		Command:        root.Get("tool_input.command").String(),
	}
	if in.Event == "" {
		return Input{}, errors.New("hook input has no hook_event_name")
	}
	if in.Cwd != "" && !filepath.IsAbs(in.Cwd) {
		return Input{}, fmt.Errorf("hook input cwd %q is not an absolute path", in.Cwd)
	}
	return in, nil
}

// ReadInput reads all of r, up to a byte past maxInput (Decode refuses
// more), waiting at most wait. A terminal is refused at once rather than
// waited on.
func ReadInput(r io.Reader, wait time.Duration) ([]byte, error) {
	if f, ok := r.(*os.File); ok {
		if info, err := f.Stat(); err == nil && info.Mode()&os.ModeCharDevice != 0 {
			return nil, errors.New("hook input must come on stdin as JSON, not from a terminal (try bimri-hook simulate)")
		}
	}
	var data []byte
	var err error
	done := make(chan struct{})
	go func() { // data and err are read only once done is closed
		data, err = io.ReadAll(io.LimitReader(r, maxInput+1))
		close(done)
	}()
	select {
	case <-done:
		if err != nil {
			return nil, fmt.Errorf("read hook input: %w", err)
		}
		return data, nil
	case <-time.After(wait):
		return nil, fmt.Errorf("no hook input on stdin after %s", wait)
	}
}

// Write prints the answer as Claude Code reads it: one JSON object on one
// line, or plain text, or nothing.
func (out Output) Write(w io.Writer) error {
	switch {
	case out.JSON != nil:
		// Whole or not at all, in one buffer with room for the largest
		// answer: the pages a short one leaves unwritten cost nothing.
		data, err := appendJSON(make([]byte, 0, 32<<10), out.JSON)
		if err != nil {
			return err
		}
		_, err = w.Write(append(data, '\n'))
		return err
	case out.Text != "":
		_, err := fmt.Fprintln(w, out.Text)
		return err
	}
	return nil
}

// appendJSON appends an answer's value as encoding/json writes it with
// no HTML escaping, so "<private>" reaches the model as written: a
// string, null, or an object of them, its keys sorted.
func appendJSON(b []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return appendJSONString(b, v), nil
	case map[string]any:
		b = append(b, '{')
		for i, k := range slices.Sorted(maps.Keys(v)) {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendJSON(append(appendJSONString(b, k), ':'), v[k]); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	}
	return nil, fmt.Errorf("hook answer holds a %T, not a string or an object", v)
}

// appendJSONString appends s quoted: control characters, U+2028 and
// U+2029 escaped, a byte that is not UTF-8 as U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch k := strings.IndexRune("\"\\\b\f\n\r\t", r); {
		case k >= 0:
			b = append(b, '\\', `"\bfnrt`[k])
		case r < 0x20 || r == '\u2028' || r == '\u2029' || r == utf8.RuneError && n == 1:
			b = fmt.Appendf(b, `\u%04x`, r)
		default:
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return append(b, '"')
}
