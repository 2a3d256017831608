package wiring

// The Codex CLI's wiring: its hooks.json (the shape of Claude Code's
// settings hooks: event -> matcher groups -> command handlers), the trust
// Codex asks of each hook, and the MCP server in its config.toml.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/bimri/bimri-hook/internal/event"
	"github.com/tidwall/gjson"
)

// AgentCodex is the Codex CLI's name where a command takes an agent
// (`bimri-hook hook codex`, `install --agent codex`).
const AgentCodex = "codex"

// CodexContextLimit is the additionalContextLimit, in Codex's tokens
// (a quarter of the UTF-8 bytes, rounded up), install gives the hooks
// whose context reaches the model. Codex's default, 2,500, cuts a
// context of more than 10,000 bytes in its middle (measured on 0.171.0:
// "Warning: truncated output"); the memory view is up to 10,000 UTF-16
// code units, at most 30,000 bytes, which 7,500 tokens always hold.
const CodexContextLimit = 7500

// CodexEvents are the events install wires for Codex. Codex has no
// SessionEnd: the session is counted at its Stop. PreCompact is left
// out: Codex reads no compaction instructions from it.
func CodexEvents() []Event {
	return []Event{
		{Name: string(event.SessionStart), Timeout: 10},
		{Name: string(event.UserPromptSubmit), Timeout: 10},
		{Name: string(event.Stop), Timeout: 10},
	}
}

// codexHandler is one handler of Codex's hooks.json as install writes it.
type codexHandler struct {
	Type         string `json:"type"`
	Command      string `json:"command"`
	Timeout      int    `json:"timeout"`
	ContextLimit int    `json:"additionalContextLimit,omitempty"`
}

// CodexHook is the command Codex's hooks run: the binary, quoted, then
// "hook codex", which tells the command whose payload it reads.
func (c Command) CodexHook() string { return c.Hook() + " " + AgentCodex }

// isAgentHook says whether command is bimri-hook's hook for agent, for a
// binary called bimri-hook in any folder.
func isAgentHook(agent string) func(string) bool {
	return func(command string) bool {
		rest, ok := strings.CutSuffix(command, " "+agent)
		return ok && isHookCommand(rest)
	}
}

var isCodexHookCommand = isAgentHook(AgentCodex)

func codexGroup(command string, e Event) []byte {
	h := codexHandler{Type: "command", Command: command, Timeout: e.Timeout}
	if e.Name == string(event.SessionStart) || e.Name == string(event.UserPromptSubmit) {
		h.ContextLimit = CodexContextLimit
	}
	return marshal(codexGroupJSON{Hooks: []codexHandler{h}})
}

type codexGroupJSON struct {
	Hooks []codexHandler `json:"hooks"`
}

// InstallCodex wires bimri-hook into the bytes of a Codex hooks.json,
// empty when the file does not exist yet: a handler running c.CodexHook()
// for each of CodexEvents. A handler of ours already as install writes it
// stays where it is, so installing twice changes nothing; one that differs
// is replaced by a new group at the end of its event's list. Everything
// else keeps its bytes. prev is the receipt of an earlier install.
func InstallCodex(hooksJSON []byte, c Command, prev Receipt) (out []byte, r Receipt, changed bool, err error) {
	command := c.CodexHook()
	mine := func(s string) bool { return s == command || isCodexHookCommand(s) }
	return installClient(hooksJSON, c, prev, CodexEvents(), mine, func(e Event) []byte { return codexGroup(command, e) }, nil)
}

// UninstallCodex takes out of a Codex hooks.json what InstallCodex put
// in, guided by its receipt as UninstallReceipt is.
func UninstallCodex(hooksJSON []byte, r Receipt) (out []byte, remove, changed bool, err error) {
	return uninstall(hooksJSON, &r, isCodexHookCommand, nil)
}

// installClient wires another client's hooks into its JSON file (Codex's
// hooks.json, Gemini's settings.json) as InstallReceipt does Claude
// Code's; more adds anything else of bimri-hook's the file holds.
func installClient(b []byte, c Command, prev Receipt, events []Event, mine func(string) bool, group func(Event) []byte, more func(*settingsDoc, *Receipt) error) (out []byte, r Receipt, changed bool, err error) {
	if c.Binary == "" {
		return nil, r, false, fmt.Errorf("no binary path to install")
	}
	d, err := parseSettings(b)
	if err != nil {
		return nil, r, false, err
	}
	r = Receipt{Created: slices.Clone(prev.Created)}
	r.note("file", !d.fresh)
	if err := d.wireClient(events, mine, group, &r); err != nil {
		return nil, r, false, err
	}
	if more != nil {
		if err := more(d, &r); err != nil {
			return nil, r, false, err
		}
	}
	out, changed, err = d.result(b)
	return out, r, changed, err
}

// sameJSON says whether raw and want hold the same JSON value.
func sameJSON(raw string, want []byte) bool {
	var a, b any
	if json.Unmarshal([]byte(raw), &a) != nil || json.Unmarshal(want, &b) != nil {
		return false
	}
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// CodexHookState is one of bimri-hook's handlers in a Codex hooks.json,
// as Codex's trust store names it: Key is "<hooks.json path>:<event>:
// <group index>:<handler index>" and Hash the "sha256:..." Codex keeps as
// its trusted_hash once the user trusts it.
type CodexHookState struct {
	Event string
	Key   string
	Hash  string
}

// codexEventLabels are Codex's names of the events in trust keys.
var codexEventLabels = map[string]string{
	"PreToolUse": "pre_tool_use", "PermissionRequest": "permission_request",
	"PostToolUse": "post_tool_use", "PreCompact": "pre_compact", "PostCompact": "post_compact",
	"SessionStart": "session_start", "UserPromptSubmit": "user_prompt_submit", "Stop": "stop",
	"SessionEnd": "session_end", "SubagentStart": "subagent_start", "SubagentStop": "subagent_stop",
}

// CodexHookStates lists bimri-hook's Codex handlers in hooksJSON, the
// file at path, with the key and hash Codex trusts each under.
func CodexHookStates(path string, hooksJSON []byte) ([]CodexHookState, error) {
	d, err := parseSettings(hooksJSON)
	if err != nil {
		return nil, err
	}
	var out []CodexHookState
	for _, name := range d.eventNames() {
		label, ok := codexEventLabels[name]
		if !ok {
			continue
		}
		for _, ref := range d.handlers(name, isCodexHookCommand) {
			g := d.get("hooks", name, fmt.Sprint(ref.group))
			h := g.Get("hooks").Array()[ref.handler]
			out = append(out, CodexHookState{
				Event: name,
				Key:   fmt.Sprintf("%s:%s:%d:%d", path, label, ref.group, ref.handler),
				Hash:  codexHookHash(label, g.Get("matcher"), h),
			})
		}
	}
	return out, nil
}

// codexHookHash is the hash Codex gives a command handler (codex-rs
// hooks/src/engine/discovery.rs, command_hook_hash, as of 0.171.0): the
// SHA-256 of compact JSON with sorted keys of the event's label, the
// group's matcher (none for UserPromptSubmit and Stop, which take none)
// and the one handler, normalised: its timeout always given (600 when
// unset, at least 1), async always given, unset fields left out. The
// e2e test checks it against the hash the real client computes.
func codexHookHash(label string, matcher, h gjson.Result) string {
	handler := map[string]any{
		"type":    "command",
		"command": h.Get("command").String(),
		"async":   h.Get("async").Bool(),
	}
	timeout := int64(600)
	if t := h.Get("timeout"); t.Exists() && t.Type != gjson.Null {
		timeout = max(t.Int(), 1)
	}
	handler["timeout"] = timeout
	if s := h.Get("statusMessage"); s.Type == gjson.String {
		handler["statusMessage"] = s.Str
	}
	if l := h.Get("additionalContextLimit"); l.Exists() && l.Type != gjson.Null {
		handler["additionalContextLimit"] = l.Int()
	}
	identity := map[string]any{"event_name": label, "hooks": []any{handler}}
	if matcher.Type == gjson.String && label != "user_prompt_submit" && label != "stop" {
		identity["matcher"] = matcher.Str
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // serde_json escapes no <, > or &
	_ = enc.Encode(identity) // maps of plain values always encode
	sum := sha256.Sum256(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	return "sha256:" + hex.EncodeToString(sum[:])
}
