package wiring

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// Event is a Claude Code hook event that bimri-hook answers.
type Event struct {
	Name    string
	Timeout int // seconds Claude Code waits before it kills the hook
}

// Events returns the events Install wires, in the order a session meets
// them. The binary answers each in milliseconds; the timeouts only bound a
// hook that hangs.
func Events() []Event {
	return []Event{
		{Name: "SessionStart", Timeout: 10},
		{Name: "UserPromptSubmit", Timeout: 10},
		{Name: "Stop", Timeout: 10},
		{Name: "PreCompact", Timeout: 10},
		// Claude Code cancels SessionEnd hooks after about 1.5 s whatever
		// this says.
		{Name: "SessionEnd", Timeout: 5},
	}
}

// handler and matcherGroup are the shapes of settings.json's hooks: each
// event holds a list of matcher groups, each group a list of handlers.
// bimri-hook's group has no matcher, so it runs for every source, reason
// and trigger of its event.
type handler struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout"`
}

type matcherGroup struct {
	Hooks []handler `json:"hooks"`
}

func group(command string, e Event) []byte {
	return marshal(matcherGroup{Hooks: []handler{{Type: "command", Command: command, Timeout: e.Timeout}}})
}

// Hooks returns, as compact JSON, the value of a "hooks" key (in
// settings.json or in a plugin's hooks/hooks.json) that runs command for
// each of events, in their order.
func Hooks(command string, events []Event) []byte {
	b := []byte{'{'}
	for i, e := range events {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, jsonString(e.Name)...)
		b = append(b, ":["...)
		b = append(b, group(command, e)...)
		b = append(b, ']')
	}
	return append(b, '}')
}

// Install wires bimri-hook into the bytes of a Claude Code settings.json,
// which may be empty when the file does not exist yet: a hook running
// c.Hook() for every event of Events, and c.PermissionRule() in
// permissions.allow. Everything else keeps its bytes. bimri-hook's own
// entries from an earlier install, found by their command (see Uninstall),
// are updated where they stand rather than added again, so installing twice
// changes nothing the second time and changed reports false.
//
// Input that is not a JSON object, or whose "hooks", hook event lists,
// "permissions" or "permissions.allow" have the wrong type, is an error,
// and nothing is rewritten.
func Install(settings []byte, c Command) (out []byte, changed bool, err error) {
	if c.Binary == "" {
		return nil, false, errors.New("no binary path to install")
	}
	if strings.ContainsFunc(c.Binary, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return nil, false, fmt.Errorf("binary path %q has a control character", c.Binary)
	}
	d, err := parseSettings(settings)
	if err != nil {
		return nil, false, err
	}
	hook := c.Hook()
	mine := func(command string) bool { return command == hook || isHookCommand(command) }
	wired := make(map[string]bool)
	for _, e := range Events() {
		wired[e.Name] = true
		if v := d.get("hooks", e.Name); v.Exists() && !v.IsArray() {
			return nil, false, fmt.Errorf("%q is %s, not an array", "hooks."+e.Name, describe(v))
		}
		if err := d.wire(e, hook, mine); err != nil {
			return nil, false, err
		}
	}
	// Events that an earlier version wired and this one no longer does.
	for _, name := range d.eventNames() {
		if !wired[name] {
			d.unwire(name, mine)
		}
	}
	rule := c.PermissionRule()
	if err := d.allow(rule, func(r string) bool { return r == rule || isRememberRule(r) }); err != nil {
		return nil, false, err
	}
	return d.result(settings)
}

// Uninstall removes from the bytes of a settings.json what Install adds:
// every hook handler whose command names the bimri-hook binary and ends in
// " hook", every permissions.allow rule "Bash(… remember:*)" naming it, and
// the matcher groups, event lists, "hooks", "allow" and "permissions" that
// these removals leave empty; nothing else. Uninstalling after installing
// into a file gives back that file's exact bytes, unless the file had an
// empty list or object that Install filled: that goes too, as it cannot be
// told from one that Install created.
func Uninstall(settings []byte) (out []byte, changed bool, err error) {
	if len(bytes.TrimSpace(settings)) == 0 {
		return settings, false, nil
	}
	d, err := parseSettings(settings)
	if err != nil {
		return nil, false, err
	}
	for _, name := range d.eventNames() {
		d.unwire(name, isHookCommand)
	}
	d.disallow(isRememberRule)
	return d.result(settings)
}

// isHookCommand tells whether a hook command is bimri-hook's own: it names
// the binary and runs its hook subcommand, whatever the binary's path.
func isHookCommand(command string) bool {
	command = strings.TrimSpace(command)
	return strings.HasSuffix(command, " hook") && strings.Contains(command, Name)
}

// isRememberRule tells whether a permission rule is the one PermissionRule
// makes, for any path of the binary.
func isRememberRule(rule string) bool {
	return strings.HasPrefix(rule, "Bash(") && strings.HasSuffix(rule, " remember:*)") &&
		strings.Contains(rule, Name)
}

// settingsDoc is a settings.json being edited.
type settingsDoc struct {
	*document
	fresh bool // the file was empty: end it with a newline
}

func parseSettings(b []byte) (*settingsDoc, error) {
	doc, err := parseDocument(b)
	if err != nil {
		return nil, err
	}
	d := &settingsDoc{document: doc, fresh: len(bytes.TrimSpace(b)) == 0}
	for _, want := range []struct {
		path   []string
		object bool
	}{
		{[]string{"hooks"}, true},
		{[]string{"permissions"}, true},
		{[]string{"permissions", "allow"}, false},
	} {
		v := d.get(want.path...)
		switch {
		case !v.Exists(), want.object && v.IsObject(), !want.object && v.IsArray():
		case want.object:
			return nil, fmt.Errorf("%q is %s, not an object", strings.Join(want.path, "."), describe(v))
		default:
			return nil, fmt.Errorf("%q is %s, not an array", strings.Join(want.path, "."), describe(v))
		}
	}
	return d, nil
}

// result returns the edited bytes, or the original ones when nothing
// changed.
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
func (d *settingsDoc) wire(e Event, command string, mine func(string) bool) error {
	hooks := d.get("hooks")
	if !hooks.Exists() {
		d.add(d.root(), "hooks", []byte("{"+jsonString(e.Name)+":["+string(group(command, e))+"]}"))
		return nil
	}
	list := d.get("hooks", e.Name)
	if !list.Exists() {
		d.add(hooks, e.Name, []byte("["+string(group(command, e))+"]"))
		return nil
	}
	refs := d.handlers(e.Name, mine)
	if len(refs) == 0 {
		d.add(list, "", group(command, e))
		return nil
	}
	keep := refs[0].path(e.Name)
	if refs[0].command != command {
		if err := d.set(command, append(keep, "command")...); err != nil {
			return err
		}
	}
	switch timeout := d.get(append(keep, "timeout")...); {
	case !timeout.Exists():
		d.add(d.get(keep...), "timeout", []byte(strconv.Itoa(e.Timeout)))
	case timeout.Type != gjson.Number || timeout.Num != float64(e.Timeout):
		if err := d.set(e.Timeout, append(keep, "timeout")...); err != nil {
			return err
		}
	}
	for i := len(refs) - 1; i > 0; i-- {
		d.removeHandler(e.Name, refs[i])
	}
	return nil
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
	d.remove(d.get("hooks", event, g, "hooks"), r.handler)
	if len(members(d.get("hooks", event, g, "hooks"))) > 0 {
		return
	}
	d.remove(d.get("hooks", event), r.group)
	if len(members(d.get("hooks", event))) > 0 {
		return
	}
	d.removeKey(d.get("hooks"), event)
	if len(members(d.get("hooks"))) > 0 {
		return
	}
	d.removeKey(d.root(), "hooks")
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
func (d *settingsDoc) allow(rule string, mine func(string) bool) error {
	perms := d.get("permissions")
	if !perms.Exists() {
		d.add(d.root(), "permissions", []byte(`{"allow":[`+jsonString(rule)+`]}`))
		return nil
	}
	list := d.get("permissions", "allow")
	if !list.Exists() {
		d.add(perms, "allow", []byte("["+jsonString(rule)+"]"))
		return nil
	}
	idx := d.rules(mine)
	if len(idx) == 0 {
		d.add(list, "", []byte(jsonString(rule)))
		return nil
	}
	if members(list)[idx[0]].value.Str != rule {
		if err := d.set(rule, "permissions", "allow", strconv.Itoa(idx[0])); err != nil {
			return err
		}
	}
	for i := len(idx) - 1; i > 0; i-- {
		d.remove(d.get("permissions", "allow"), idx[i])
	}
	return nil
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
	if len(members(d.get("permissions", "allow"))) > 0 {
		return
	}
	d.removeKey(d.get("permissions"), "allow")
	if len(members(d.get("permissions"))) > 0 {
		return
	}
	d.removeKey(d.root(), "permissions")
}
