package wiring

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// document is a JSON object edited in place: every edit splices bytes at
// gjson's offsets in the layout around it, and deleting an item takes out
// exactly the bytes adding it put in. sjson cannot: it puts a new key's
// comma after the whitespace before "}", and deleting an array's first
// item leaves the whitespace before it as a blank line.
type document struct {
	b       []byte
	nl      string // line ending: "\n", or "\r\n" in files that use it
	unit    string // one level of indentation
	compact bool   // the whole object is on one line: insert on one line too

	fresh   bool     // the file was empty: end it with a newline
	receipt *Receipt // given, an emptied container stays unless install made it
	flat    bool     // an event's list holds handlers, not matcher groups (Cursor)
	made    []string // what the edits made, as a receipt names it: "file", containers
}

// parseDocument checks that b holds a JSON object and learns its layout.
// Empty input is the empty object, laid out as Claude Code writes settings.
func parseDocument(b []byte) (*document, error) {
	d := &document{b: b, nl: "\n", unit: "  "}
	if len(bytes.TrimSpace(b)) == 0 {
		d.b, d.fresh, d.made = []byte("{}"), true, []string{"file"}
		return d, nil
	}
	if err := json.Unmarshal(b, new(json.RawMessage)); err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	if !gjson.ValidBytes(b) {
		return nil, errors.New("not valid JSON")
	}
	root := d.get()
	if !root.IsObject() {
		return nil, fmt.Errorf("not a JSON object but %s", describe(root))
	}
	if bytes.Contains(b, []byte("\r\n")) {
		d.nl = "\r\n"
	}
	d.compact = !strings.Contains(root.Raw, "\n") && len(members(root)) > 0
	// One level is the indentation of the first line that has one.
	for _, line := range strings.Split(root.Raw, "\n")[1:] {
		if indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]; indent != "" {
			d.unit = indent
			break
		}
	}
	return d, nil
}

// get returns the value at path (keys and indexes), with Index its offset;
// no path is the top-level value.
func (d *document) get(path ...string) gjson.Result {
	if len(path) == 0 {
		start := len(d.b) - len(bytes.TrimLeft(d.b, " \t\r\n"))
		r := gjson.ParseBytes(bytes.TrimSpace(d.b))
		r.Index = start
		return r
	}
	escaped := make([]string, len(path))
	for i, p := range path {
		escaped[i] = gjson.Escape(p)
	}
	return gjson.GetBytes(d.b, strings.Join(escaped, "."))
}

// member is an item of an object or array; key.Raw is empty in arrays.
type member struct{ key, value gjson.Result }

func (m member) start() int {
	if m.key.Raw != "" {
		return m.key.Index
	}
	return m.value.Index
}

func (m member) end() int { return m.value.Index + len(m.value.Raw) }

func members(c gjson.Result) []member {
	var ms []member
	c.ForEach(func(key, value gjson.Result) bool {
		ms = append(ms, member{key, value})
		return true
	})
	return ms
}

// set replaces the value at path, which exists, with raw JSON.
func (d *document) set(raw []byte, path ...string) {
	v := d.get(path...)
	d.splice(v.Index, v.Index+len(v.Raw), string(raw))
}

// del deletes the item at path, which exists, from the end of the one
// before it (the first: up to the next one's start), so that it takes out
// exactly what add put in; the only item leaves {} or [].
func (d *document) del(path ...string) {
	c, last := d.get(path[:len(path)-1]...), path[len(path)-1]
	ms := members(c)
	i := slices.IndexFunc(ms, func(m member) bool { return m.key.Str == last })
	if c.IsArray() {
		i, _ = strconv.Atoi(last)
	}
	switch {
	case len(ms) == 1:
		d.splice(c.Index+1, c.Index+len(c.Raw)-1, "")
	case i == 0:
		d.splice(ms[0].start(), ms[1].start(), "")
	default:
		d.splice(ms[i-1].end(), ms[i].end(), "")
	}
}

// add appends compact value to the container at path, named key in an
// object: on its siblings' line when they share one, else on a line of its
// own indented as they are, or one level more than the container's line.
func (d *document) add(value []byte, key string, path ...string) {
	c := d.get(path...)
	name := ""
	if c.IsObject() {
		name = jsonString(key)
	}
	ms := members(c)
	if len(ms) == 0 && !d.compact {
		outer := d.b[bytes.LastIndexByte(d.b[:c.Index], '\n')+1:]
		outer = outer[:len(outer)-len(bytes.TrimLeft(outer, " \t"))]
		inner := string(outer) + d.unit
		d.splice(c.Index+1, c.Index+len(c.Raw)-1, d.nl+inner+d.indent(name, value, inner)+d.nl+string(outer))
		return
	}
	if len(ms) == 0 {
		if name != "" {
			name += ":"
		}
		d.splice(c.Index+1, c.Index+1, name+string(value))
		return
	}
	// gap is the space before the first item, then between items.
	space := func(m member) string {
		return string(d.b[len(bytes.TrimRight(d.b[:m.start()], " \t\r\n")):m.start()])
	}
	gap := space(ms[0])
	end := ms[len(ms)-1].end()
	if i := strings.LastIndexByte(gap, '\n'); i >= 0 {
		d.splice(end, end, ","+d.nl+gap[i+1:]+d.indent(name, value, gap[i+1:]))
		return
	}
	switch {
	case len(ms) > 1:
		gap = space(ms[1])
	case !d.compact:
		gap = " "
	}
	if name != "" && gap != "" {
		name += ": "
	} else if name != "" {
		name += ":"
	}
	d.splice(end, end, ","+gap+name+string(value))
}

// indent lays out a member whose first line starts at prefix.
func (d *document) indent(name string, value []byte, prefix string) string {
	var buf bytes.Buffer
	if name != "" {
		buf.WriteString(name + ": ")
	}
	_ = json.Indent(&buf, value, prefix, d.unit) // value comes from json.Marshal
	return strings.ReplaceAll(buf.String(), "\n", d.nl)
}

func (d *document) splice(from, to int, text string) {
	d.b = append(d.b[:from:from], append([]byte(text), d.b[to:]...)...)
}

// marshal encodes v as compact JSON, leaving <, > and & as they are.
func marshal(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // only called on strings, numbers, bools and what holds them
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func jsonString(s string) string { return string(marshal(s)) }

// JSON is v (strings, numbers, bools, nil, and maps and lists of them) as
// one line of JSON, text as it is: no \u003c for <, as Claude Code writes it.
func JSON(v any) string { return string(marshal(v)) }

// describe names the JSON type of r for error messages.
func describe(r gjson.Result) string {
	switch {
	case r.IsObject():
		return "an object"
	case r.IsArray():
		return "an array"
	}
	return [...]string{gjson.Null: "null", gjson.False: "a boolean", gjson.Number: "a number", gjson.String: "a string", gjson.True: "a boolean"}[r.Type]
}
