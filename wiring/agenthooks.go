package wiring

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/tidwall/gjson"
)

// note records in r that install created what, when it did not exist.
func (r *Receipt) note(what string, exists bool) {
	if !exists && !r.created(what) {
		r.Created = append(r.Created, what)
	}
}

// wireClient makes each of events run the handler group(e) in another
// client's hooks (Codex's hooks.json, Gemini's settings.json): a group of
// ours already as group gives it stays where it is, so installing twice
// changes nothing; one that differs is replaced by a new group at the end
// of its event's list; ours under an event not listed are taken out. It
// notes in r the containers it creates.
func (d *settingsDoc) wireClient(events []Event, mine func(string) bool, group func(Event) []byte, r *Receipt) error {
	wired := map[string]bool{}
	for _, e := range events {
		wired[e.Name] = true
		if v := d.get("hooks", e.Name); v.Exists() && !v.IsArray() {
			return fmt.Errorf("%q is %s, not an array", "hooks."+e.Name, describe(v))
		}
		r.note("hooks", d.get("hooks").Exists())
		r.note("hooks."+e.Name, d.get("hooks", e.Name).Exists())
		want := group(e)
		refs := d.handlers(e.Name, mine)
		if len(refs) == 1 && sameJSON(d.get("hooks", e.Name, fmt.Sprint(refs[0].group)).Raw, want) {
			continue
		}
		d.unwire(e.Name, mine)
		switch list := d.get("hooks", e.Name); {
		case !d.get("hooks").Exists():
			d.add(d.root(), "hooks", []byte("{"+jsonString(e.Name)+":["+string(want)+"]}"))
		case !list.Exists():
			d.add(d.get("hooks"), e.Name, []byte("["+string(want)+"]"))
		default:
			d.add(list, "", want)
		}
	}
	for _, name := range d.eventNames() {
		if !wired[name] {
			d.unwire(name, mine)
		}
	}
	return nil
}

// wireMCP puts want, the MCP server's entry, under key.MCPServer of a
// client's config (Gemini's mcpServers, OpenCode's mcp), unless it is
// there already as want is; an entry of that name that is not
// bimri-hook's server (isOurs) is refused, not overwritten. It notes in r
// a key object it creates.
func (d *settingsDoc) wireMCP(key string, want []byte, isOurs func(gjson.Result) bool, r *Receipt) error {
	if v := d.get(key); v.Exists() && !v.IsObject() {
		return fmt.Errorf("%q is %s, not an object", key, describe(v))
	}
	r.note(key, d.get(key).Exists())
	v := d.get(key, MCPServer)
	if v.Exists() && sameJSON(v.Raw, want) {
		return nil
	}
	if v.Exists() && !isOurs(v) {
		return fmt.Errorf("%q runs %s, not bimri-hook's server: rename it, then try again", key+"."+MCPServer, v.Get("command").Raw)
	}
	if servers := d.get(key); servers.Exists() {
		d.removeKey(servers, MCPServer)
		d.add(d.get(key), MCPServer, want)
	} else {
		d.add(d.root(), key, []byte("{"+jsonString(MCPServer)+":"+string(want)+"}"))
	}
	return nil
}

// unwireMCP takes bimri-hook's server out of key, and key itself when
// install created it (r) and nothing else is left in it.
func (d *settingsDoc) unwireMCP(key string, isOurs func(gjson.Result) bool, r Receipt) {
	if servers := d.get(key); servers.IsObject() && isOurs(d.get(key, MCPServer)) {
		d.removeKey(servers, MCPServer)
		if len(members(d.get(key))) == 0 && r.created(key) {
			d.removeKey(d.root(), key)
		}
	}
}

// installMCPEntry registers want, the MCP server's entry, under key in
// the bytes of a client's JSON config (OpenCode's opencode.json, Copilot's
// MCP config), empty when the file does not exist yet. An entry as install
// writes it stays, so installing twice changes nothing; everything else
// keeps its bytes. prev is the receipt of an earlier install.
func installMCPEntry(config []byte, key string, want []byte, isOurs func(gjson.Result) bool, prev Receipt) (out []byte, r Receipt, changed bool, err error) {
	d, err := parseSettings(config)
	if err != nil {
		return nil, r, false, err
	}
	r = Receipt{Created: slices.Clone(prev.Created)}
	r.note("file", !d.fresh)
	if err := d.wireMCP(key, want, isOurs, &r); err != nil {
		return nil, r, false, err
	}
	out, changed, err = d.result(config)
	return out, r, changed, err
}

// uninstallMCPEntry takes out of a client's JSON config what
// installMCPEntry put in, guided by its receipt: the server, key when
// install created it, and the file (remove) when install created it and
// nothing else is left.
func uninstallMCPEntry(config []byte, key string, isOurs func(gjson.Result) bool, r Receipt) (out []byte, remove, changed bool, err error) {
	if len(bytes.TrimSpace(config)) == 0 {
		return config, false, false, nil
	}
	d, err := parseSettings(config)
	if err != nil {
		return nil, false, false, err
	}
	d.unwireMCP(key, isOurs, r)
	out, changed, err = d.result(config)
	if err != nil {
		return nil, false, false, err
	}
	if r.created("file") && len(members(d.root())) == 0 {
		return out, true, true, nil
	}
	return out, false, changed, nil
}

// mcpEntryWired tells whether a client's JSON config registers bimri-hook's
// server under key.
func mcpEntryWired(config []byte, key string, isOurs func(gjson.Result) bool) (bool, error) {
	d, err := parseSettings(config)
	if err != nil {
		return false, err
	}
	return isOurs(d.get(key, MCPServer)), nil
}
