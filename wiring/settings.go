package wiring

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/bimri/bimri-hook/internal/event"
	"github.com/tidwall/gjson"
)

// Event is a Claude Code hook event that bimri-hook answers.
type Event struct {
	Name    string
	Timeout int // seconds Claude Code waits before it kills the hook
	// Matcher limits the event to these tools ("Bash|Write"); empty, it
	// fires for every source, reason, trigger or tool of its event.
	Matcher string
}

// Events are the events InstallReceipt wires: every event bimri-hook
// answers, in the order a session meets them.
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
// other clients copy: each event holds a list of matcher groups, each
// group a list of handlers.
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

// Receipt is what an install added to a file that was not there before
// it, so that uninstall takes out exactly that and gives back the bytes.
type Receipt struct {
	Created []string `json:"created,omitempty"` // "file", "hooks", "hooks.<event>", "permissions", a folder...
	// KeptRules are the user's own rules, identical to ones install would
	// add, that were there before install: uninstall leaves them.
	KeptRules []string `json:"kept_rules,omitempty"`
	KeptRule  string   `json:"kept_rule,omitempty"` // KeptRules of older receipts; read, never written
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

// InstallReceipt wires bimri-hook into the bytes of a Claude Code
// settings.json (empty when there is no file yet): a hook running c.Hook()
// for every event of Events, and c.Rules() in permissions.allow.
// Everything else keeps its bytes; our entries from an earlier install are
// updated where they stand. r is prev, the receipt of an earlier install,
// with what this one created.
func InstallReceipt(settings []byte, c Command, prev Receipt) (out []byte, r Receipt, changed bool, err error) {
	if c.Binary == "" {
		return nil, r, false, errors.New("no binary path to install")
	}
	if strings.ContainsFunc(c.Binary, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return nil, r, false, fmt.Errorf("binary path %q has a control character", c.Binary)
	}
	d, err := parseSettings(settings)
	if err != nil {
		return nil, r, false, err
	}
	r = Receipt{Created: slices.Clone(prev.Created), KeptRules: prev.kept()}
	r.Note("file", !d.fresh)
	hook := c.Hook()
	mine := func(command string) bool { return command == hook || isHookCommand(command) }
	// Rules there while bimri-hook's hooks are not: the user wrote them.
	userRules := len(prev.Created) == 0 && len(prev.kept()) == 0
	for _, name := range d.eventNames() {
		userRules = userRules && len(d.handlers(name, mine)) == 0
	}
	if err := d.wireEvents(Events(), mine, &r, func(e Event) { d.wire(e, hook, mine) }); err != nil {
		return nil, r, false, err
	}
	r.Note("permissions", d.get("permissions").Exists())
	r.Note("permissions.allow", d.get("permissions", "allow").Exists())
	for _, sub := range MemoryCommands {
		rule := c.Rule(sub)
		if userRules && len(d.rules(func(s string) bool { return s == rule })) > 0 {
			r.KeptRules = append(r.KeptRules, rule)
		}
		d.allow(rule, func(s string) bool { return s == rule || ruleSub(s) == sub })
	}
	out, changed, err = d.result(settings)
	return out, r, changed, err
}

// Uninstall removes from the bytes of a settings.json what InstallReceipt
// adds. Guided by the install's receipt r, it removes only the containers
// the install created, keeps the user's own rules, and says remove when
// the install created the file and nothing else is left in it; without
// one (nil), it removes every container our entries leave empty.
func Uninstall(settings []byte, r *Receipt) (out []byte, remove, changed bool, err error) {
	return uninstall(settings, r, false, isHookCommand, func(d *settingsDoc, r Receipt) {
		kept := map[string]bool{}
		d.disallow(func(rule string) bool {
			if slices.Contains(r.kept(), rule) && !kept[rule] {
				kept[rule] = true
				return false
			}
			return isAgentRule(rule)
		})
	})
}

// uninstall takes out of a client's JSON file the hook handlers ours says
// are bimri-hook's, then what more removes, then the containers that
// leaves empty: every one without a receipt (r nil), else those install
// created.
func uninstall(b []byte, r *Receipt, flat bool, ours func(string) bool, more func(*settingsDoc, Receipt)) (out []byte, remove, changed bool, err error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return b, false, false, nil
	}
	d, err := parseSettings(b)
	if err != nil {
		return nil, false, false, err
	}
	d.flat, d.receipt = flat, r
	var rc Receipt
	if r != nil {
		rc = *r
	}
	for _, name := range d.eventNames() {
		d.unwire(name, ours)
	}
	if more != nil {
		more(d, rc)
	}
	out, changed, err = d.result(b)
	if err != nil {
		return nil, false, false, err
	}
	if rc.Made("file") && len(members(d.root())) == 0 {
		return out, true, true, nil
	}
	return out, false, changed, nil
}

// isHookCommand tells whether a hook command is bimri-hook's own: one
// shell word naming a binary called bimri-hook, then " hook". A command
// that merely mentions it ("notify-send bimri-hook hook") is not.
func isHookCommand(command string) bool {
	binary, ok := HookBinary(command)
	return ok && isBinaryName(binary) && strings.HasSuffix(command, " hook") &&
		(command == Command{Binary: binary}.Hook() || command == ShellWord(binary)+" hook")
}

func isAgentRule(rule string) bool { return ruleSub(rule) != "" }

// ruleSub is the subcommand rule allows when Command.Rule made it, for a
// binary called bimri-hook in any folder; "" otherwise.
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

// settingsDoc is a settings.json being edited.
type settingsDoc struct {
	*document
	fresh   bool     // the file was empty: end it with a newline
	receipt *Receipt // given, an emptied container stays unless install made it
	flat    bool     // an event's list holds handlers, not matcher groups (Cursor)
}

func (d *settingsDoc) keeps(path ...string) bool {
	return d.receipt != nil && !d.receipt.Made(strings.Join(path, "."))
}

func parseSettings(b []byte) (*settingsDoc, error) {
	doc, err := parseDocument(b)
	if err != nil {
		return nil, err
	}
	d := &settingsDoc{document: doc, fresh: len(bytes.TrimSpace(b)) == 0}
	// Claude Code reads the last of duplicate keys, the edits the first:
	// with two, an install would wire what the client never reads.
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
func (d *settingsDoc) result(original []byte) ([]byte, bool, error) {
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

// eventNames lists the keys of "hooks" that hold a list of matcher groups.
func (d *settingsDoc) eventNames() []string {
	var names []string
	for _, m := range members(d.get("hooks")) {
		if m.value.IsArray() {
			names = append(names, m.key.Str)
		}
	}
	return names
}

// handlerRef locates a handler in an event's list: the index of its
// matcher group, and its index in that group's hooks.
type handlerRef struct {
	group, handler int
	command        string
}

func (r handlerRef) path(event string) []string {
	return []string{"hooks", event, strconv.Itoa(r.group), "hooks", strconv.Itoa(r.handler)}
}

// handlers lists, in file order, the command handlers of event for which
// mine is true.
func (d *settingsDoc) handlers(event string, mine func(string) bool) []handlerRef {
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

// wire makes event run command: it adds bimri-hook's matcher group, or
// updates the first handler of bimri-hook's it finds and drops the others.
func (d *settingsDoc) wire(e Event, command string, mine func(string) bool) {
	refs := d.handlers(e.Name, mine)
	if len(refs) == 0 {
		d.appendTo(marshal(groupJSON{e.Matcher, []handlerJSON{{Type: "command", Command: command, Timeout: e.Timeout}}}), "hooks", e.Name)
		return
	}
	keep := refs[0].path(e.Name)
	if refs[0].command != command {
		d.set(command, append(keep, "command")...)
	}
	switch timeout := d.get(append(keep, "timeout")...); {
	case !timeout.Exists():
		d.add(d.get(keep...), "timeout", []byte(strconv.Itoa(e.Timeout)))
	case timeout.Type != gjson.Number || timeout.Num != float64(e.Timeout):
		d.set(e.Timeout, append(keep, "timeout")...)
	}
	for i := len(refs) - 1; i > 0; i-- {
		d.removeHandler(e.Name, refs[i])
	}
}

// unwire removes every handler of event for which mine is true.
func (d *settingsDoc) unwire(event string, mine func(string) bool) {
	refs := d.handlers(event, mine)
	for i := len(refs) - 1; i >= 0; i-- {
		d.removeHandler(event, refs[i])
	}
}

// removeHandler deletes one handler, then each enclosing group, event list
// and "hooks" object that this deletion leaves empty.
func (d *settingsDoc) removeHandler(event string, r handlerRef) {
	g := strconv.Itoa(r.group)
	if !d.flat {
		d.remove(d.get("hooks", event, g, "hooks"), r.handler)
		if len(members(d.get("hooks", event, g, "hooks"))) > 0 {
			return
		}
	}
	d.remove(d.get("hooks", event), r.group)
	d.prune("hooks", event)
}

// appendTo appends value to the array at path, making the objects and the
// array of path that are missing.
func (d *settingsDoc) appendTo(value []byte, path ...string) {
	for i := range path {
		if !d.get(path[:i+1]...).Exists() {
			v := "[" + string(value) + "]"
			for j := len(path) - 1; j > i; j-- {
				v = "{" + jsonString(path[j]) + ":" + v + "}"
			}
			d.add(d.get(path[:i]...), path[i], []byte(v))
			return
		}
	}
	d.add(d.get(path...), "", value)
}

// prune removes the container at path, and each above it, while it is
// empty and not one to keep.
func (d *settingsDoc) prune(path ...string) {
	for ; len(path) > 0 && len(members(d.get(path...))) == 0 && !d.keeps(path...); path = path[:len(path)-1] {
		d.removeKey(d.get(path[:len(path)-1]...), path[len(path)-1])
	}
}

// rules lists the indexes in permissions.allow of the rules for which
// mine is true.
func (d *settingsDoc) rules(mine func(string) bool) []int {
	var idx []int
	for i, m := range members(d.get("permissions", "allow")) {
		if m.value.Type == gjson.String && mine(m.value.Str) {
			idx = append(idx, i)
		}
	}
	return idx
}

// allow puts rule in permissions.allow once, in place of the first rule of
// bimri-hook's already there, and drops the others.
func (d *settingsDoc) allow(rule string, mine func(string) bool) {
	idx := d.rules(mine)
	if len(idx) == 0 {
		d.appendTo([]byte(jsonString(rule)), "permissions", "allow")
		return
	}
	list := d.get("permissions", "allow")
	if members(list)[idx[0]].value.Str != rule {
		d.set(rule, "permissions", "allow", strconv.Itoa(idx[0]))
	}
	for i := len(idx) - 1; i > 0; i-- {
		d.remove(d.get("permissions", "allow"), idx[i])
	}
}

// disallow removes the rules for which mine is true, then "allow" and
// "permissions" if that leaves them empty.
func (d *settingsDoc) disallow(mine func(string) bool) {
	idx := d.rules(mine)
	if len(idx) == 0 {
		return
	}
	for i := len(idx) - 1; i >= 0; i-- {
		d.remove(d.get("permissions", "allow"), idx[i])
	}
	d.prune("permissions", "allow")
}
