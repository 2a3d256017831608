package wiring

// Codex's trust of each hook of its hooks.json, and its config.toml: the
// trust it keeps for each hook ([hooks.state."KEY"] tables) and the MCP
// servers it starts ([mcp_servers.NAME]). bimri-hook owns whole tables
// there, found by their header: it takes its own out and writes them again
// at the end of the file, and every other byte stays.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
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

// TrustTable is the config.toml table that tells Codex the user trusts a
// hook.
func TrustTable(s CodexHookState) string {
	return "[" + TrustHeader(s.Key) + "]\ntrusted_hash = " + tomlString(s.Hash) + "\n"
}

// MCPTable registers bimri-hook's MCP server with Codex, which starts it
// in the session's folder.
func MCPTable(c Command) string {
	return "[" + MCPHeader + "]\ncommand = " + tomlString(c.Binary) + "\nargs = [\"mcp\"]\n"
}

// MCPHeader is the header of MCPTable.
var MCPHeader = "mcp_servers." + MCPServer

// EditCodexConfig takes the tables whose header drop names out of a
// config.toml's bytes, then adds tables at the end, and checks that the
// result is TOML Codex can read. A header of drop's that the file gives
// in another form (a dotted key inside another table) is an error that
// says what to remove, since a second definition would make the file
// unreadable. What the edit does not touch keeps its bytes.
func EditCodexConfig(config []byte, drop func(header string) bool, add []string) (out []byte, changed bool, err error) {
	if len(bytes.TrimSpace(config)) > 0 {
		var v map[string]any
		if err := toml.Unmarshal(config, &v); err != nil {
			return nil, false, fmt.Errorf("not TOML Codex can read: %w", err)
		}
	}
	out = dropTables(config, drop)
	for _, t := range add {
		if len(out) > 0 && !bytes.HasSuffix(out, []byte("\n")) {
			out = append(out, '\n')
		}
		if len(bytes.TrimSpace(out)) > 0 && !bytes.HasSuffix(out, []byte("\n\n")) {
			out = append(out, '\n')
		}
		out = append(out, t...)
	}
	if bytes.Equal(out, config) {
		return config, false, nil
	}
	var v map[string]any
	if err := toml.Unmarshal(out, &v); err != nil {
		return nil, false, fmt.Errorf("the file defines a table bimri-hook writes in another form (remove it, then try again): %w", err)
	}
	return out, true, nil
}

// dropTables removes each table whose header drop names, from its header
// line to the next header, with the blank line before it. go-toml's
// parser finds the headers, so a line inside a multi-line string that
// looks like one is never taken for one. config is valid TOML.
func dropTables(config []byte, drop func(string) bool) []byte {
	type header struct {
		at   int // the start of its line
		drop bool
	}
	var hs []header
	var p unstable.Parser
	p.Reset(config)
	for p.NextExpression() {
		e := p.Expression()
		if e.Kind != unstable.Table && e.Kind != unstable.ArrayTable {
			continue
		}
		var parts []string
		at := -1
		for it := e.Key(); it.Next(); {
			if at < 0 {
				at = bytes.LastIndexByte(config[:it.Node().Raw.Offset], '\n') + 1
			}
			parts = append(parts, HeaderPart(string(it.Node().Data)))
		}
		hs = append(hs, header{at, e.Kind == unstable.Table && drop(strings.Join(parts, "."))})
	}
	if len(hs) == 0 {
		return config
	}
	out := slices.Clone(config[:hs[0].at])
	for i, h := range hs {
		end := len(config)
		if i+1 < len(hs) {
			end = hs[i+1].at
		}
		if !h.drop {
			out = append(out, config[h.at:end]...)
			continue
		}
		if len(out) > 0 {
			last := bytes.LastIndexByte(out[:len(out)-1], '\n') + 1
			if len(bytes.TrimSpace(out[last:])) == 0 {
				out = out[:last]
			}
		}
	}
	return out
}

// HeaderPart writes one part of a dotted key: bare when TOML allows it,
// else quoted.
func HeaderPart(s string) string {
	if s != "" && strings.Trim(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") == "" {
		return s
	}
	return tomlString(s)
}

// tomlString quotes s as a TOML basic string: JSON's escapes are TOML's,
// but for DEL, which TOML wants escaped.
func tomlString(s string) string { return strings.ReplaceAll(jsonString(s), "\x7f", `\u007F`) }

// TrustHeader is the header of TrustTable for key, as dropTables reads it.
func TrustHeader(key string) string { return "hooks.state." + HeaderPart(key) }

// CodexConfig is what bimri-hook reads of Codex's config.toml.
type CodexConfig struct {
	Hooks struct {
		State map[string]struct {
			Enabled     *bool  `toml:"enabled"`
			TrustedHash string `toml:"trusted_hash"`
		} `toml:"state"`
	} `toml:"hooks"`
	Projects map[string]struct {
		TrustLevel string `toml:"trust_level"`
	} `toml:"projects"`
	MCPServers map[string]struct {
		Command string   `toml:"command"`
		Args    []string `toml:"args"`
	} `toml:"mcp_servers"`
}

// ReadCodexConfig parses a config.toml's bytes; empty is the empty config.
func ReadCodexConfig(config []byte) (CodexConfig, error) {
	var c CodexConfig
	if err := toml.Unmarshal(config, &c); err != nil {
		return c, fmt.Errorf("not TOML Codex can read: %w", err)
	}
	return c, nil
}

// Trusts says whether Codex runs the hook s: its trust store holds s's
// hash, and the user has not disabled it.
func (c CodexConfig) Trusts(s CodexHookState) bool {
	st, ok := c.Hooks.State[s.Key]
	return ok && st.TrustedHash == s.Hash && (st.Enabled == nil || *st.Enabled)
}

// ProjectTrusted says whether Codex loads the project folder root's
// .codex/ (hooks.json, config.toml): only for a project the user trusts.
func (c CodexConfig) ProjectTrusted(root string) bool {
	return c.Projects[root].TrustLevel == "trusted"
}
