package hooks

import (
	"cmp"
	"errors"
	"fmt"
	"path/filepath"

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
