package wiring

import "fmt"

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
