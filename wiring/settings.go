package wiring

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/bimri/bimri-hook/internal/event"
	"github.com/tidwall/gjson"
)

// Event is a hook event that bimri-hook answers.
type Event struct {
	Name         string
	Timeout      int    // seconds (Gemini: milliseconds) the client waits before it kills the hook
	Matcher      string // the tools it fires for ("Bash|Write"); empty: every one
	ContextLimit int    // Codex: the additionalContextLimit of a hook whose context reaches the model
}

// Events are Claude Code's events install wires, in a session's order.
func Events() []Event {
	var out []Event
	for _, name := range event.Answered {
		timeout := 10
		if name == event.SessionEnd {
			timeout = 5 // the client cancels it sooner whatever this says
		}
		out = append(out, Event{Name: string(name), Timeout: timeout})
	}
	return out
}

// handlerJSON and groupJSON are the shapes of settings.json's hooks, which
// other clients copy: an event's list of matcher groups of handlers.
type handlerJSON struct {
	Type         string `json:"type,omitempty"`
	Name         string `json:"name,omitempty"`
	Command      string `json:"command"`
	Timeout      int    `json:"timeout"`
	ContextLimit int    `json:"additionalContextLimit,omitempty"`
}

type groupJSON struct {
	Matcher string        `json:"matcher,omitempty"`
	Hooks   []handlerJSON `json:"hooks"`
}

// Receipt is what an install added to a file, so that uninstall takes out
// exactly that and gives back the bytes.
type Receipt struct {
	Created   []string `json:"created,omitempty"`    // "file", "hooks", "hooks.<event>", "permissions", a folder...
	KeptRules []string `json:"kept_rules,omitempty"` // the user's own rules, there before install: uninstall leaves them
}

// Made tells whether r (given) records that install created what.
func (r *Receipt) Made(what string) bool { return r != nil && slices.Contains(r.Created, what) }

// isHookCommand tells whether a hook command is bimri-hook's own: one
// shell word naming a binary called bimri-hook, then " hook".
func isHookCommand(command string) bool {
	word, ok := strings.CutSuffix(command, " hook")
	binary, quoted := shellUnquote(word)
	return ok && quoted && isBinaryName(binary)
}

func isAgentRule(rule string) bool { return ruleSub(rule) != "" }

// ruleSub is the subcommand rule allows when Command.Rule made it; "" otherwise.
func ruleSub(rule string) string {
	word := strings.TrimPrefix(rule, "Bash(")
	i := strings.LastIndexByte(word, ' ')
	if i < 0 {
		return ""
	}
	binary, _ := shellUnquote(word[:i])
	sub := strings.TrimSuffix(word[i+1:], ":*)")
	if slices.Contains(MemoryCommands, sub) && isBinaryName(binary) && rule == (Command{Binary: binary}).Rule(sub) {
		return sub
	}
	return ""
}

// isBinaryName tells whether path's last element is bimri-hook(.exe).
func isBinaryName(path string) bool {
	base := path[strings.LastIndexAny(path, `/\`)+1:]
	return base == Name || base == Name+".exe"
}

func (d *document) keeps(path ...string) bool {
	return d.receipt != nil && !d.receipt.Made(strings.Join(path, "."))
}

// parse parses the client's hooks JSON, refusing what the edits cannot do
// right.
func (cl Client) parse(b []byte) (*document, error) {
	d, err := parseDocument(b)
	if err != nil {
		return nil, err
	}
	d.flat = cl.Flat
	// The client reads the last of duplicate keys, the edits the first:
	// those on the way to ours and the events are refused.
	edited := []string{"hooks", "permissions", "permissions.allow"}
	for _, parent := range [][]string{nil, {"hooks"}, {"permissions"}} {
		seen := make(map[string]bool)
		for _, m := range members(d.get(parent...)) {
			k := strings.Join(append(slices.Clone(parent), m.key.Str), ".")
			if m.key.Str != "" && (slices.Contains(edited, k) || len(parent) == 1 && parent[0] == "hooks") {
				if seen[k] {
					return nil, fmt.Errorf("%q appears twice, and Claude Code reads only the last: merge them into one, then try again", k)
				}
				seen[k] = true
			}
		}
	}
	for _, path := range edited {
		v := d.get(strings.Split(path, ".")...)
		want, ok := "an object", v.IsObject()
		if path == "permissions.allow" {
			want, ok = "an array", v.IsArray()
		}
		if v.Exists() && !ok {
			return nil, fmt.Errorf("%q is %s, not %s", path, describe(v), want)
		}
	}
	return d, nil
}

// result returns the edited bytes, or the original ones when unchanged.
func (d *document) result(original []byte) ([]byte, bool, error) {
	out := d.b
	if d.fresh {
		out = append(out, d.nl...)
	}
	if bytes.Equal(out, original) {
		return original, false, nil
	}
	if err := json.Unmarshal(out, new(json.RawMessage)); err != nil {
		// A bug here must not cost the user their settings.
		return nil, false, fmt.Errorf("editing settings produced invalid JSON: %w", err)
	}
	return out, true, nil
}

// eventNames lists the keys of "hooks" that hold a list.
func (d *document) eventNames() []string {
	var names []string
	for _, m := range members(d.get("hooks")) {
		if m.value.IsArray() {
			names = append(names, m.key.Str)
		}
	}
	return names
}

// item is one of bimri-hook's entries: a handler, a rule or the MCP
// server, at path; text is its command or rule.
type item struct {
	path []string
	text string
}

// handlers lists, in file order, the command handlers of event for which
// mine is true.
func (d *document) handlers(event string, mine func(string) bool) []item {
	var items []item
	for g, m := range members(d.get("hooks", event)) {
		group := []string{"hooks", event, strconv.Itoa(g)}
		if d.flat {
			if command := m.value.Get("command"); command.Type == gjson.String && mine(command.Str) {
				items = append(items, item{group, command.Str})
			}
			continue
		}
		hooks := m.value.Get("hooks")
		if !m.value.IsObject() || !hooks.IsArray() {
			continue
		}
		for h, hd := range hooks.Array() {
			command := hd.Get("command")
			if hd.Get("type").Str == "command" && command.Type == gjson.String && mine(command.Str) {
				items = append(items, item{slices.Concat(group, []string{"hooks", strconv.Itoa(h)}), command.Str})
			}
		}
	}
	return items
}

// rules lists mine's rules in permissions.allow.
func (d *document) rules(mine func(string) bool) []item {
	var items []item
	for i, m := range members(d.get("permissions", "allow")) {
		if m.value.Type == gjson.String && mine(m.value.Str) {
			items = append(items, item{[]string{"permissions", "allow", strconv.Itoa(i)}, m.value.Str})
		}
	}
	return items
}

// ours lists bimri-hook's entries: its handlers by event, its rules, its
// MCP server.
func (d *document) ours(cl Client) []item {
	var items []item
	for _, event := range d.eventNames() {
		items = append(items, d.handlers(event, cl.isHook)...)
	}
	if cl.Rules {
		items = append(items, d.rules(isAgentRule)...)
	}
	if cl.MCPKey != "" && isMCP(d.get(cl.MCPKey, MCPServer)) {
		items = append(items, item{path: []string{cl.MCPKey, MCPServer}})
	}
	return items
}

// wire makes event run want: in place of the first handler of ours, the
// others dropped, or appended in a group of its own.
func (d *document) wire(e Event, want handlerJSON, mine func(string) bool) {
	items := d.handlers(e.Name, mine)
	var entry any = want
	if len(items) == 0 && !d.flat {
		entry = groupJSON{e.Matcher, []handlerJSON{want}}
	}
	d.put(marshal(entry), items, "hooks", e.Name)
}

// put makes want the first of items (an object field by field) and
// removes the others; with none, it appends want to the array at list.
func (d *document) put(want []byte, items []item, list ...string) {
	if len(items) == 0 {
		d.insert(want, append(list, "")...)
		return
	}
	at := items[0].path
	if v := gjson.ParseBytes(want); !v.IsObject() {
		if !sameJSON(d.get(at...).Raw, want) {
			d.set(want, at...)
		}
	} else {
		v.ForEach(func(k, v gjson.Result) bool {
			switch field := append(slices.Clone(at), k.Str); {
			case !d.get(field...).Exists():
				d.add([]byte(v.Raw), k.Str, at...)
			case !sameJSON(d.get(field...).Raw, []byte(v.Raw)):
				d.set([]byte(v.Raw), field...)
			}
			return true
		})
	}
	d.remove(items[1:])
}

// remove deletes items, last first, each with the containers that leaves
// empty: a matcher group with no handler, then what prune takes.
func (d *document) remove(items []item) {
	for i := len(items) - 1; i >= 0; i-- {
		path := items[i].path
		d.del(path...)
		path = path[:len(path)-1]
		if len(path) == 4 && len(members(d.get(path...))) == 0 {
			d.del(path[:3]...)
			path = path[:2]
		}
		d.prune(path...)
	}
}

// insert puts value at path, making the containers missing on the way
// (recorded in made): the last key names it in an object, "" appends it
// to an array.
func (d *document) insert(value []byte, path ...string) {
	i := 0
	for i < len(path)-1 && d.get(path[:i+1]...).Exists() {
		i++
	}
	v := string(value)
	for j := len(path) - 1; j > i; j-- {
		if path[j] == "" {
			v = "[" + v + "]"
		} else {
			v = "{" + jsonString(path[j]) + ":" + v + "}"
		}
	}
	d.add([]byte(v), path[i], path[:i]...)
	for ; i < len(path)-1; i++ {
		d.made = append(d.made, strings.Join(path[:i+1], "."))
	}
}

// prune removes the container at path, and each above, while it is empty
// and not one to keep.
func (d *document) prune(path ...string) {
	for ; len(path) > 0 && len(members(d.get(path...))) == 0 && !d.keeps(path...); path = path[:len(path)-1] {
		d.del(path...)
	}
}
