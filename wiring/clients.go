package wiring

// The coding agents install wires, as one table Install, Uninstall and
// Inspect read.

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/bimri/bimri-hook/internal/event"
	"github.com/tidwall/gjson"
)

// Client is one coding agent install wires.
type Client struct {
	Agent  string  // its name for --agent, the last word of its hook command, and its command on PATH
	Name   string  // its name in messages
	Events []Event // the events install wires, under the client's names
	Named  bool    // our handlers carry a "name" (Gemini's /hooks shows it)
	Flat   bool    // Cursor's shape: an event's list holds untyped handlers, not matcher groups, and "version": 1
	Rules  bool    // permissions.allow gets a rule for each of MemoryCommands
	MCPKey string  // the key of its JSON file the MCP server goes under; "" when none does
	MCP    string  // the server's entry, %s the binary as a JSON string
	// Own, when the client has one, is bimri-hook's own file among the
	// client's, whole, which holds the hooks; IsOwn tells it from a user's
	// file of that name.
	Own     func(c Command) []byte
	OwnName string
	IsOwn   func([]byte) bool
}

// Claude is Claude Code: settings.json runs the bare hook at Events and
// allows the memory commands.
var Claude = Client{Agent: "claude", Name: "Claude Code", Events: Events(), Rules: true}

// codexContextLimit is the additionalContextLimit (tokens: a quarter of
// the bytes) of hooks whose context reaches the model: Codex's default of
// 2,500 cuts the middle out of a memory view of up to 30,000 bytes.
const codexContextLimit = 7500

// Codex is the Codex CLI (0.171.0): hooks.json in Claude Code's shape,
// trust and MCP server in config.toml (codex.go). No SessionEnd: the
// session is counted at Stop.
var Codex = Client{
	Agent: "codex", Name: "Codex",
	Events: []Event{{Name: string(event.SessionStart), Timeout: 10, ContextLimit: codexContextLimit},
		{Name: string(event.UserPromptSubmit), Timeout: 10, ContextLimit: codexContextLimit}, {Name: string(event.Stop), Timeout: 10}},
}

// Gemini is the Gemini CLI (0.61.0): hooks and MCP server in settings.json,
// timeouts in milliseconds, handlers named for its /hooks. PreCompress is
// left out: it fires every turn. The server is trusted, or gemini -p
// declares none of its tools.
var Gemini = Client{
	Agent: "gemini", Name: "Gemini", Named: true,
	Events: []Event{{Name: "SessionStart", Timeout: 10000}, {Name: "BeforeAgent", Timeout: 10000}, {Name: "SessionEnd", Timeout: 10000}},
	MCPKey: "mcpServers",
	MCP:    `{"command":%s,"args":["mcp"],"trust":true}`,
}

//go:embed opencode_plugin.js
var openCodePlugin string

// OpenCode: a plugin file of ours, known by its first line, runs the hook
// on its events; the MCP server goes under "mcp" in opencode.json.
var OpenCode = Client{
	Agent: "opencode", Name: "OpenCode",
	Events: []Event{{Name: "chat.system.transform"}, {Name: "chat.message"}, {Name: "session.idle"}},
	MCPKey: "mcp",
	MCP:    `{"type":"local","command":[%s,"mcp"],"enabled":true}`,
	Own: func(c Command) []byte {
		return []byte(strings.Replace(openCodePlugin, "__BIMRI_BINARY__", jsonString(c.Binary), 1))
	},
	OwnName: "plugin",
	IsOwn:   func(data []byte) bool { return bytes.HasPrefix(data, []byte("// bimri-hook's OpenCode plugin")) },
}

// Copilot is the GitHub Copilot CLI (1.0.102): a hooks file of ours among
// its hook files, the MCP server as `copilot mcp add` writes one. Stop is
// left out: its transcript is Copilot's own.
var Copilot = Client{
	Agent: "copilot", Name: "Copilot",
	Events:  copilotEvents,
	MCPKey:  "mcpServers",
	MCP:     `{"type":"local","command":%s,"args":["mcp"],"tools":["*"]}`,
	Own:     copilotHooks,
	OwnName: "hooks file",
	IsOwn: func(data []byte) bool {
		handlers := gjson.GetBytes(data, "hooks.@values|@flatten").Array()
		return gjson.ValidBytes(data) && len(handlers) > 0 &&
			!slices.ContainsFunc(handlers, func(h gjson.Result) bool { return !(Client{Agent: "copilot"}).isHook(h.Get("bash").Str) })
	},
}

var copilotEvents = []Event{{Name: "SessionStart", Timeout: 10}, {Name: "UserPromptSubmit", Timeout: 10}, {Name: "SessionEnd", Timeout: 10}}

// Cursor, from its documentation (never run here): flat handler lists.
// beforeSubmitPrompt is left out: it takes no context.
var Cursor = Client{
	Agent: "cursor", Name: "Cursor", Flat: true,
	Events: []Event{{Name: "sessionStart", Timeout: 10}, {Name: "sessionEnd", Timeout: 10}},
}

// Clients are the clients besides Claude Code, in --agent all's order.
var Clients = []Client{Codex, Gemini, OpenCode, Copilot, Cursor}

// Hook is the command the client's hooks run: Command.Hook, then (but for
// Claude Code) the agent, whose payload the command reads.
func (cl Client) Hook(c Command) string { return c.Hook() + cl.agentWord() }

func (cl Client) isHook(command string) bool {
	rest, ok := strings.CutSuffix(command, cl.agentWord())
	return ok && isHookCommand(rest)
}

func (cl Client) agentWord() string {
	if cl.Agent == Claude.Agent {
		return ""
	}
	return " " + cl.Agent
}

// copilotHooks is bimri-hook's hooks file for Copilot, whole.
func copilotHooks(c Command) []byte {
	var events []string
	for _, e := range copilotEvents {
		events = append(events, fmt.Sprintf(`%s:[{"type":"command","bash":%s,"timeoutSec":%d}]`, jsonString(e.Name), jsonString(c.Hook()+" copilot"), e.Timeout))
	}
	var buf bytes.Buffer
	_ = json.Indent(&buf, []byte(`{"version":1,"hooks":{`+strings.Join(events, ",")+"}}"), "", "  ") // valid: jsonString quotes
	return append(buf.Bytes(), '\n')
}

// isMCP tells whether an MCP server's entry runs bimri-hook's server: its
// command and args (or its command list) are the binary, then "mcp".
func isMCP(v gjson.Result) bool {
	words := append(v.Get("command").Array(), v.Get("args").Array()...)
	return len(words) == 2 && words[0].Type == gjson.String && isBinaryName(words[0].Str) && words[1].Str == "mcp"
}

// Install wires bimri-hook into the client's JSON file (empty when there
// is none): a handler running cl.Hook(c) at each event, the rules, the MCP
// server. Our handlers from an earlier install are updated where they
// stand, and every other byte stays. r is prev with what this one created.
func (cl Client) Install(b []byte, c Command, prev Receipt) (out []byte, r Receipt, changed bool, err error) {
	if c.Binary == "" || strings.ContainsFunc(c.Binary, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return nil, r, false, fmt.Errorf("binary path %q: empty, or with a control character", c.Binary)
	}
	d, err := cl.parse(b)
	if err != nil {
		return nil, r, false, err
	}
	r = Receipt{Created: slices.Clone(prev.Created), KeptRules: prev.KeptRules}
	if cl.Flat && !d.get("version").Exists() {
		d.add([]byte("1"), "version")
		d.made = append(d.made, "version")
	}
	command := cl.Hook(c)
	mine := func(s string) bool { return s == command || cl.isHook(s) }
	// Rules there while bimri-hook's hooks are not: the user wrote them.
	userRules := len(prev.Created) == 0 && len(prev.KeptRules) == 0
	for _, name := range d.eventNames() {
		userRules = userRules && len(d.handlers(name, mine)) == 0
	}
	if cl.Own == nil {
		for _, e := range cl.Events {
			if v := d.get("hooks", e.Name); v.Exists() && !v.IsArray() {
				return nil, r, false, fmt.Errorf("%q is %s, not an array", "hooks."+e.Name, describe(v))
			}
			h := handlerJSON{Type: "command", Command: command, Timeout: e.Timeout, ContextLimit: e.ContextLimit}
			if cl.Flat {
				h.Type = ""
			}
			if cl.Named {
				h.Name = Name
			}
			d.wire(e, h, mine)
		}
		for _, name := range d.eventNames() {
			if !slices.ContainsFunc(cl.Events, func(e Event) bool { return e.Name == name }) {
				d.remove(d.handlers(name, mine)) // an earlier version's event
			}
		}
	}
	if cl.Rules {
		for _, sub := range MemoryCommands {
			rule := c.Rule(sub)
			if userRules && len(d.rules(func(s string) bool { return s == rule })) > 0 {
				r.KeptRules = append(r.KeptRules, rule)
			}
			d.put([]byte(jsonString(rule)), d.rules(func(s string) bool { return s == rule || ruleSub(s) == sub }), "permissions", "allow")
		}
	}
	if cl.MCPKey != "" {
		if err := d.wireMCP(cl.MCPKey, []byte(fmt.Sprintf(cl.MCP, jsonString(c.Binary)))); err != nil {
			return nil, r, false, err
		}
	}
	for _, made := range d.made {
		r.Note(made, false)
	}
	out, changed, err = d.result(b)
	return out, r, changed, err
}

// Uninstall takes out what Install put in. With its receipt r it removes
// only the containers install created, keeps the user's own rules, and
// says remove when install created the file and it is left empty; without
// (nil), every container our entries leave empty goes.
func (cl Client) Uninstall(b []byte, r *Receipt) (out []byte, remove, changed bool, err error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return b, false, false, nil
	}
	d, err := cl.parse(b)
	if err != nil {
		return nil, false, false, err
	}
	d.receipt = r
	var kept []string
	if r != nil {
		kept = slices.Clone(r.KeptRules)
	}
	d.remove(slices.DeleteFunc(d.ours(cl), func(it item) bool {
		i := slices.Index(kept, it.text) // the first of a rule the user had stays
		if i >= 0 {
			kept = slices.Delete(kept, i, i+1)
		}
		return i >= 0
	}))
	if r.Made("version") && !d.get("hooks").Exists() {
		d.del("version")
	}
	out, changed, err = d.result(b)
	if err != nil {
		return nil, false, false, err
	}
	if r.Made("file") && len(members(d.get())) == 0 {
		return out, true, true, nil
	}
	return out, false, changed, nil
}

// Note records in r that install created what, when it did not exist.
func (r *Receipt) Note(what string, exists bool) {
	if !exists && !r.Made(what) {
		r.Created = append(r.Created, what)
	}
}

// wireMCP puts want, the MCP server's entry, under key.MCPServer; an entry
// of that name that is not bimri-hook's is refused.
func (d *document) wireMCP(key string, want []byte) error {
	if v := d.get(key); v.Exists() && !v.IsObject() {
		return fmt.Errorf("%q is %s, not an object", key, describe(v))
	}
	v := d.get(key, MCPServer)
	if v.Exists() && sameJSON(v.Raw, want) {
		return nil
	}
	if v.Exists() && !isMCP(v) {
		return fmt.Errorf("%q runs %s, not bimri-hook's server: rename it, then try again", key+"."+MCPServer, v.Get("command").Raw)
	}
	if v.Exists() {
		d.del(key, MCPServer)
	}
	d.insert(want, key, MCPServer)
	return nil
}

// sameJSON says whether raw and want hold the same JSON value.
func sameJSON(raw string, want []byte) bool {
	var a, b any
	return json.Unmarshal([]byte(raw), &a) == nil && json.Unmarshal(want, &b) == nil && reflect.DeepEqual(a, b)
}
