package wiring

// Cursor's wiring, from its documentation (no Cursor client runs here):
// its hooks.json (.cursor/hooks.json in a project, ~/.cursor/hooks.json
// for the user) has version 1 and, under "hooks", each event's list of
// handlers themselves, {"command": ..., "timeout": ...}, no matcher
// groups; a user's own handlers share the file and keep their bytes.

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
)

// AgentCursor is Cursor's name where a command takes an agent (`bimri-hook
// hook cursor`, `install --agent cursor`).
const AgentCursor = "cursor"

// CursorEvents are the events install wires for Cursor, under its
// names, with their timeouts in seconds: the memory at sessionStart
// (whose additional_context Cursor gives the agent), the session-end
// pass at sessionEnd. beforeSubmitPrompt is left out: Cursor takes no
// context from it, only whether the prompt goes on.
func CursorEvents() []Event {
	return []Event{{Name: "sessionStart", Timeout: 10}, {Name: "sessionEnd", Timeout: 10}}
}

// CursorHook is the command Cursor's hooks run.
func (c Command) CursorHook() string { return c.Hook() + " " + AgentCursor }

func isCursorHookCommand(command string) bool {
	rest, ok := strings.CutSuffix(command, " "+AgentCursor)
	return ok && isHookCommand(rest)
}

// InstallCursor wires bimri-hook into the bytes of a Cursor hooks.json,
// empty when the file does not exist yet: a handler running
// c.CursorHook() for each of CursorEvents. What is already as install
// writes it stays; everything else keeps its bytes.
func InstallCursor(hooks []byte, c Command, prev Receipt) (out []byte, r Receipt, changed bool, err error) {
	if c.Binary == "" {
		return nil, r, false, fmt.Errorf("no binary path to install")
	}
	d, err := parseSettings(hooks)
	if err != nil {
		return nil, r, false, err
	}
	d.flat = true
	r = Receipt{Created: slices.Clone(prev.Created)}
	r.note("file", !d.fresh)
	if !d.get("version").Exists() {
		r.note("version", false)
		d.add(d.root(), "version", []byte("1"))
	}
	command := c.CursorHook()
	mine := func(s string) bool { return s == command || isCursorHookCommand(s) }
	handler := func(e Event) []byte {
		return marshal(struct {
			Command string `json:"command"`
			Timeout int    `json:"timeout"`
		}{command, e.Timeout})
	}
	if err := d.wireClient(CursorEvents(), mine, handler, &r); err != nil {
		return nil, r, false, err
	}
	out, changed, err = d.result(hooks)
	return out, r, changed, err
}

// UninstallCursor takes out of a Cursor hooks.json what InstallCursor put
// in, guided by its receipt: the handlers, the containers and version
// install added, and the file when install created it and nothing else
// is left.
func UninstallCursor(hooks []byte, r Receipt) (out []byte, remove, changed bool, err error) {
	if len(bytes.TrimSpace(hooks)) == 0 {
		return hooks, false, false, nil
	}
	d, err := parseSettings(hooks)
	if err != nil {
		return nil, false, false, err
	}
	d.flat = true
	d.keep = func(path ...string) bool { return !r.created(strings.Join(path, ".")) }
	for _, name := range d.eventNames() {
		d.unwire(name, isCursorHookCommand)
	}
	if r.created("version") && !d.get("hooks").Exists() {
		d.removeKey(d.root(), "version")
	}
	out, changed, err = d.result(hooks)
	if err != nil {
		return nil, false, false, err
	}
	if r.created("file") && len(members(d.root())) == 0 {
		return out, true, true, nil
	}
	return out, false, changed, nil
}

// CursorWired lists the events a Cursor hooks.json runs bimri-hook's
// hook at.
func CursorWired(hooks []byte) ([]string, error) {
	d, err := parseSettings(hooks)
	if err != nil {
		return nil, err
	}
	d.flat = true
	var events []string
	for _, name := range d.eventNames() {
		if len(d.handlers(name, isCursorHookCommand)) > 0 {
			events = append(events, name)
		}
	}
	return events, nil
}
