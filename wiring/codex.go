package wiring

// Codex's config.toml: the trust of each hook ([hooks.state."KEY"]) and
// the MCP servers ([mcp_servers.NAME]). bimri-hook owns whole tables there:
// it takes its own out and writes them again at the end; every other byte
// stays.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
	"github.com/tidwall/gjson"
)

// CodexHookState is one of our handlers as Codex's trust store names it:
// Key "<hooks.json path>:<event>:<group>:<handler>", Hash its trusted_hash.
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

// CodexHookStates lists our handlers in hooksJSON, the file at path.
func CodexHookStates(path string, hooksJSON []byte) ([]CodexHookState, error) {
	w, err := Codex.Inspect(hooksJSON)
	var out []CodexHookState
	for _, h := range w.Handlers {
		if label, ok := codexEventLabels[h.Event]; ok {
			key := fmt.Sprintf("%s:%s:%s:%s", path, label, h.path[2], h.path[4])
			out = append(out, CodexHookState{h.Event, key, codexHookHash(label, h.group.Get("matcher"), h.fields)})
		}
	}
	return out, err
}

// codexHookHash is Codex's command_hook_hash (codex-rs discovery.rs,
// 0.171.0): SHA-256 of sorted compact JSON of the event's label, the
// group's matcher (none for UserPromptSubmit and Stop) and the handler
// normalised (timeout 600 when unset, at least 1; async always given).
// The e2e test checks it against the real client's.
func codexHookHash(label string, matcher, h gjson.Result) string {
	handler := map[string]any{"type": "command", "command": h.Get("command").String(), "async": h.Get("async").Bool(), "timeout": int64(600)}
	if t := h.Get("timeout"); t.Exists() && t.Type != gjson.Null {
		handler["timeout"] = max(t.Int(), 1)
	}
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
	sum := sha256.Sum256(marshal(identity)) // serde_json escapes no <, > or & either
	return "sha256:" + hex.EncodeToString(sum[:])
}

// mcpHeader is the header of bimri-hook's MCP server's table.
var mcpHeader = "mcp_servers." + MCPServer

// EditCodexConfig takes out of a config.toml the trust of drop's hooks
// and, with dropMCP, the MCP server's tables; then adds at the end the
// trust of trust's hooks and, given binary, the server running it. Every
// other byte stays. The result must be TOML: one of our tables the user
// gave in another form (a dotted key) would be defined twice.
func EditCodexConfig(config []byte, drop []CodexHookState, dropMCP bool, trust []CodexHookState, binary string) (out []byte, changed bool, err error) {
	if _, err := ReadCodexConfig(config); err != nil {
		return nil, false, err
	}
	ours := map[string]bool{}
	for _, s := range drop {
		ours[trustHeader(s.Key)] = true
	}
	out = dropTables(config, func(h string) bool {
		return ours[h] || dropMCP && (h == mcpHeader || strings.HasPrefix(h, mcpHeader+"."))
	})
	var add []string
	for _, s := range trust {
		add = append(add, "["+trustHeader(s.Key)+"]\ntrusted_hash = "+tomlString(s.Hash)+"\n")
	}
	if binary != "" {
		add = append(add, "["+mcpHeader+"]\ncommand = "+tomlString(binary)+"\nargs = [\"mcp\"]\n")
	}
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

// dropTables removes each table whose header drop names, up to the next
// header, with the blank line before it. go-toml's parser finds the
// headers, never a look-alike line inside a multi-line string.
func dropTables(config []byte, drop func(string) bool) []byte {
	var out []byte
	from, dropping := 0, false
	next := func(at int) { // config[from:at] is the text before a header, or a table
		if !dropping {
			out = append(out, config[from:at]...)
		} else if last := bytes.LastIndexByte(out[:max(len(out)-1, 0)], '\n') + 1; len(bytes.TrimSpace(out[last:])) == 0 {
			out = out[:last]
		}
		from = at
	}
	var p unstable.Parser
	p.Reset(config)
	for p.NextExpression() {
		e := p.Expression()
		if e.Kind != unstable.Table && e.Kind != unstable.ArrayTable {
			continue
		}
		var parts []string
		for it := e.Key(); it.Next(); {
			if parts == nil {
				next(bytes.LastIndexByte(config[:it.Node().Raw.Offset], '\n') + 1)
			}
			parts = append(parts, headerPart(string(it.Node().Data)))
		}
		dropping = e.Kind == unstable.Table && drop(strings.Join(parts, "."))
	}
	next(len(config))
	return out
}

// headerPart writes one part of a dotted key, quoted when TOML needs it.
func headerPart(s string) string {
	if s != "" && strings.Trim(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") == "" {
		return s
	}
	return tomlString(s)
}

// tomlString quotes s as a TOML basic string: JSON's escapes are TOML's,
// but for DEL, which TOML wants escaped.
func tomlString(s string) string { return strings.ReplaceAll(jsonString(s), "\x7f", `\u007F`) }

// trustHeader is the header of the trust of the hook Codex names key.
func trustHeader(key string) string { return "hooks.state." + headerPart(key) }

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

// Trusts says whether Codex runs s: its hash trusted, s not disabled.
func (c CodexConfig) Trusts(s CodexHookState) bool {
	st, ok := c.Hooks.State[s.Key]
	return ok && st.TrustedHash == s.Hash && (st.Enabled == nil || *st.Enabled)
}

// ProjectTrusted says whether Codex loads root's .codex/ at all.
func (c CodexConfig) ProjectTrusted(root string) bool {
	return c.Projects[root].TrustLevel == "trusted"
}
