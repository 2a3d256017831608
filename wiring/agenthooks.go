package wiring

import (
	"fmt"

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
