package wiring

// The trust Codex asks of each hook in its hooks.json.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"github.com/tidwall/gjson"
)

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
		for _, ref := range d.handlers(name, Codex.isHook) {
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
