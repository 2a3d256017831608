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
	Name    string
	Timeout int    // seconds the client waits before it kills the hook
	Matcher string // the tools it fires for ("Bash|Write"); empty: every one
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
	KeptRule  string   `json:"kept_rule,omitempty"`  // KeptRules of older receipts; read, never written
}

// Made tells whether r records that install created what.
func (r Receipt) Made(what string) bool { return slices.Contains(r.Created, what) }

// kept lists KeptRules and the older receipt's KeptRule.
func (r Receipt) kept() []string {
	if r.KeptRule != "" && !slices.Contains(r.KeptRules, r.KeptRule) {
		return append(slices.Clone(r.KeptRules), r.KeptRule)
	}
	return r.KeptRules
}

// isHookCommand tells whether a hook command is bimri-hook's own: one
// shell word naming a binary called bimri-hook, then " hook".
func isHookCommand(command string) bool {
	binary, ok := HookBinary(command)
	return ok && isBinaryName(binary) && strings.HasSuffix(command, " hook") &&
		(command == Command{Binary: binary}.Hook() || command == ShellWord(binary)+" hook")
}

func isAgentRule(rule string) bool { return ruleSub(rule) != "" }

// ruleSub is the subcommand rule allows when Command.Rule made it; "" otherwise.
func ruleSub(rule string) string {
	for _, sub := range MemoryCommands {
		word, ok := strings.CutPrefix(rule, "Bash(")
		if !ok {
			return ""
		}
		if word, ok = strings.CutSuffix(word, " "+sub+":*)"); !ok {
			continue
		}
		binary, ok := shellUnquote(word)
		if ok && isBinaryName(binary) && rule == (Command{Binary: binary}).Rule(sub) {
			return sub
		}
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

// parseSettings parses a hooks JSON, refusing what the edits cannot do right.
func parseSettings(b []byte) (*document, error) {
	d, err := parseDocument(b)
	if err != nil {
		return nil, err
	}
	// The client reads the last of duplicate keys, the edits the first.
	for _, c := range []struct{ path, only []string }{
		{nil, []string{"hooks", "permissions"}}, {[]string{"hooks"}, nil}, {[]string{"permissions"}, []string{"allow"}},
	} {
		seen := make(map[string]bool)
		for _, m := range members(d.get(c.path...)) {
			k := m.key.Str
			if k == "" || (c.only != nil && !slices.Contains(c.only, k)) {
				continue
			}
			if seen[k] {
				return nil, fmt.Errorf("%q appears twice, and Claude Code reads only the last: merge them into one, then try again", strings.Join(append(slices.Clone(c.path), k), "."))
			}
			seen[k] = true
		}
	}
	for _, path := range []string{"hooks", "permissions", "permissions.allow"} {
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

// handlerRef locates a handler: its group's index, its index in the group.
type handlerRef struct {
	group, handler int
	command        string
}

// path is the path of the handler r of event.
func (d *document) path(event string, r handlerRef) []string {
	if d.flat {
		return []string{"hooks", event, strconv.Itoa(r.group)}
	}
	return []string{"hooks", event, strconv.Itoa(r.group), "hooks", strconv.Itoa(r.handler)}
}

// handlers lists, in file order, the command handlers of event for which
// mine is true.
func (d *document) handlers(event string, mine func(string) bool) []handlerRef {
	var refs []handlerRef
	for g, m := range members(d.get("hooks", event)) {
		if d.flat {
			if command := m.value.Get("command"); command.Type == gjson.String && mine(command.Str) {
				refs = append(refs, handlerRef{group: g, command: command.Str})
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
				refs = append(refs, handlerRef{group: g, handler: h, command: command.Str})
			}
		}
	}
	return refs
}

// wire makes event run want: it appends it, or updates the first handler
// of ours field by field and drops the others.
func (d *document) wire(e Event, want handlerJSON, mine func(string) bool) {
	refs := d.handlers(e.Name, mine)
	if len(refs) == 0 {
		var entry any = groupJSON{e.Matcher, []handlerJSON{want}}
		if d.flat {
			entry = want
		}
		d.appendTo(marshal(entry), "hooks", e.Name)
		return
	}
	keep := d.path(e.Name, refs[0])
	gjson.ParseBytes(marshal(want)).ForEach(func(k, v gjson.Result) bool {
		switch field := append(slices.Clone(keep), k.Str); {
		case !d.get(field...).Exists():
			d.add([]byte(v.Raw), k.Str, keep...)
		case !sameJSON(d.get(field...).Raw, []byte(v.Raw)):
			d.set([]byte(v.Raw), field...)
		}
		return true
	})
	for i := len(refs) - 1; i > 0; i-- {
		d.removeHandler(e.Name, refs[i])
	}
}

// unwire removes every handler of event for which mine is true.
func (d *document) unwire(event string, mine func(string) bool) {
	refs := d.handlers(event, mine)
	for i := len(refs) - 1; i >= 0; i-- {
		d.removeHandler(event, refs[i])
	}
}

// removeHandler deletes one handler, then the containers that leaves empty.
func (d *document) removeHandler(event string, r handlerRef) {
	g := strconv.Itoa(r.group)
	if !d.flat {
		d.del("hooks", event, g, "hooks", strconv.Itoa(r.handler))
		if len(members(d.get("hooks", event, g, "hooks"))) > 0 {
			return
		}
	}
	d.del("hooks", event, g)
	d.prune("hooks", event)
}

// appendTo appends value to the array at path, making what is missing.
func (d *document) appendTo(value []byte, path ...string) {
	for i := range path {
		if !d.get(path[:i+1]...).Exists() {
			v := "[" + string(value) + "]"
			for j := len(path) - 1; j > i; j-- {
				v = "{" + jsonString(path[j]) + ":" + v + "}"
			}
			d.add([]byte(v), path[i], path[:i]...)
			return
		}
	}
	d.add(value, "", path...)
}

// prune removes the container at path, and each above, while it is empty
// and not one to keep.
func (d *document) prune(path ...string) {
	for ; len(path) > 0 && len(members(d.get(path...))) == 0 && !d.keeps(path...); path = path[:len(path)-1] {
		d.del(path...)
	}
}

// rules lists the indexes of mine's rules in permissions.allow.
func (d *document) rules(mine func(string) bool) []int {
	var idx []int
	for i, m := range members(d.get("permissions", "allow")) {
		if m.value.Type == gjson.String && mine(m.value.Str) {
			idx = append(idx, i)
		}
	}
	return idx
}

// allow puts rule in permissions.allow once, in place of the first of
// mine's, and drops the others.
func (d *document) allow(rule string, mine func(string) bool) {
	idx := d.rules(mine)
	if len(idx) == 0 {
		d.appendTo([]byte(jsonString(rule)), "permissions", "allow")
		return
	}
	if members(d.get("permissions", "allow"))[idx[0]].value.Str != rule {
		d.set([]byte(jsonString(rule)), "permissions", "allow", strconv.Itoa(idx[0]))
	}
	for i := len(idx) - 1; i > 0; i-- {
		d.del("permissions", "allow", strconv.Itoa(idx[i]))
	}
}

// disallow removes mine's rules, and the containers that leaves empty.
func (d *document) disallow(mine func(string) bool) {
	idx := d.rules(mine)
	if len(idx) == 0 {
		return
	}
	for i := len(idx) - 1; i >= 0; i-- {
		d.del("permissions", "allow", strconv.Itoa(idx[i]))
	}
	d.prune("permissions", "allow")
}
