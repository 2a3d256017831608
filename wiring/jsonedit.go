package wiring

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/tidwall/gjson"
)

// document is a JSON object edited in place: every edit splices bytes at
// gjson's offsets in the layout around it, and removing an item deletes
// exactly the bytes adding it inserted. sjson cannot: it puts a new key's
// comma after the whitespace before "}", with no space after the colon,
// and leaves "{\n  }" when it deletes the last member.
type document struct {
	b       []byte
	nl      string // line ending: "\n", or "\r\n" in files that use it
	unit    string // one level of indentation
	compact bool   // the whole object is on one line: insert on one line too
	colon   string // what separates a key from its value on one line
	comma   string // what separates items on one line

	fresh   bool     // the file was empty: end it with a newline
	receipt *Receipt // given, an emptied container stays unless install made it
	flat    bool     // an event's list holds handlers, not matcher groups (Cursor)
}

// parseDocument checks that b holds a JSON object and learns its layout.
// Empty input is the empty object, laid out as Claude Code writes settings.
func parseDocument(b []byte) (*document, error) {
	d := &document{nl: "\n", unit: "  ", colon: ": ", comma: ", "}
	if len(bytes.TrimSpace(b)) == 0 {
		d.b, d.fresh = []byte("{}"), true
		return d, nil
	}
	if err := json.Unmarshal(b, new(json.RawMessage)); err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	if !gjson.ValidBytes(b) {
		return nil, errors.New("not valid JSON")
	}
	d.b = b
	root := d.root()
	if !root.IsObject() {
		return nil, fmt.Errorf("not a JSON object but %s", describe(root))
	}
	if bytes.Contains(b, []byte("\r\n")) {
		d.nl = "\r\n"
	}
	ms := members(root)
	if !strings.ContainsRune(root.Raw, '\n') && len(ms) > 0 {
		// One line, as scripts write JSON: keep to it and its spacing.
		d.compact = true
		key := ms[0]
		d.colon = string(d.b[key.start+len(key.key.Raw) : key.value.Index])
		d.comma = "," + d.colon[strings.IndexByte(d.colon, ':')+1:]
		if len(ms) > 1 {
			d.comma = string(d.b[ms[0].end():ms[1].start])
		}
		return d, nil
	}
	// The indentation of the first key on its own line is one level.
	prev := root.Index + 1
	for _, m := range ms {
		if gap := d.b[prev:m.start]; bytes.ContainsRune(gap, '\n') {
			d.unit = string(gap[bytes.LastIndexByte(gap, '\n')+1:])
			break
		}
		prev = m.end()
	}
	return d, nil
}

// root is the top-level value, with Raw trimmed to the value itself.
func (d *document) root() gjson.Result {
	start := len(d.b) - len(bytes.TrimLeft(d.b, " \t\r\n"))
	end := len(bytes.TrimRight(d.b, " \t\r\n"))
	r := gjson.ParseBytes(d.b[start:end])
	r.Raw = string(d.b[start:end])
	r.Index = start
	return r
}

// get returns the value at path (keys and indexes), with Index its offset.
func (d *document) get(path ...string) gjson.Result {
	if len(path) == 0 {
		return d.root()
	}
	escaped := make([]string, len(path))
	for i, p := range path {
		escaped[i] = gjson.Escape(p)
	}
	return gjson.GetBytes(d.b, strings.Join(escaped, "."))
}

// member is an item of an object or array, with its place in the document.
type member struct {
	key   gjson.Result // the key of an object member; Raw is empty in arrays
	start int          // offset of the key's opening quote, or of the element
	value gjson.Result // value.Index is the value's offset in the document
}

func (m member) end() int { return m.value.Index + len(m.value.Raw) }

// members lists the items of c, whose Index is its offset.
func members(c gjson.Result) []member {
	var ms []member
	c.ForEach(func(key, value gjson.Result) bool {
		m := member{key: key, start: value.Index, value: value}
		if key.Raw != "" {
			m.start = key.Index
		}
		ms = append(ms, m)
		return true
	})
	return ms
}

// set replaces the value at path, which must exist, with raw JSON.
func (d *document) set(raw []byte, path ...string) {
	v := d.get(path...)
	d.splice(v.Index, v.Index+len(v.Raw), string(raw))
}

// add appends compact value to c, named key in an object, indented as its
// siblings, or one level more than c's line when c is empty.
func (d *document) add(c gjson.Result, key string, value []byte) {
	open, end := c.Index, c.Index+len(c.Raw)-1
	ms := members(c)
	name := ""
	if c.IsObject() {
		name = jsonString(key)
	}
	switch {
	case d.compact || (len(ms) > 0 && !bytes.ContainsRune(d.b[open:ms[0].start], '\n')):
		// A one-line container stays on one line.
		colon, comma := d.colon, d.comma
		if !d.compact {
			colon, comma = ": ", ", "
			if len(ms) > 1 {
				comma = string(d.b[ms[0].end():ms[1].start])
			}
		}
		text := respace(value, colon, comma)
		if name != "" {
			text = name + colon + text
		}
		if len(ms) == 0 {
			d.splice(open+1, open+1, text)
		} else {
			last := ms[len(ms)-1].end()
			d.splice(last, last, comma+text)
		}
	case len(ms) == 0:
		outer := d.lineIndent(open)
		inner := outer + d.unit
		d.splice(open+1, end, d.nl+inner+d.member(name, value, inner)+d.nl+outer)
	default:
		inner := d.lineIndent(ms[0].start)
		last := ms[len(ms)-1].end()
		d.splice(last, last, ","+d.nl+inner+d.member(name, value, inner))
	}
}

// member lays out one member starting at indentation prefix.
func (d *document) member(name string, value []byte, prefix string) string {
	var buf bytes.Buffer
	if name != "" {
		buf.WriteString(name + ": ")
	}
	// value comes from json.Marshal, so Indent cannot fail.
	_ = json.Indent(&buf, value, prefix, d.unit)
	return strings.ReplaceAll(buf.String(), "\n", d.nl)
}

// remove deletes the i-th member of c, from the end of the one before it
// (the first: up to the next one's start).
func (d *document) remove(c gjson.Result, i int) {
	ms := members(c)
	switch {
	case len(ms) == 1:
		d.splice(c.Index+1, c.Index+len(c.Raw)-1, "")
	case i == 0:
		d.splice(ms[0].start, ms[1].start, "")
	default:
		d.splice(ms[i-1].end(), ms[i].end(), "")
	}
}

// removeKey deletes the first member of object c named key, if any.
func (d *document) removeKey(c gjson.Result, key string) {
	for i, m := range members(c) {
		if m.key.Str == key {
			d.remove(c, i)
			return
		}
	}
}

func (d *document) splice(from, to int, text string) {
	b := make([]byte, 0, len(d.b)-(to-from)+len(text))
	b = append(b, d.b[:from]...)
	b = append(b, text...)
	d.b = append(b, d.b[to:]...)
}

// lineIndent returns the leading blanks of the line holding offset pos.
func (d *document) lineIndent(pos int) string {
	start := bytes.LastIndexByte(d.b[:pos], '\n') + 1
	end := start
	for end < len(d.b) && (d.b[end] == ' ' || d.b[end] == '\t') {
		end++
	}
	return string(d.b[start:end])
}

// respace rewrites the separators of compact JSON outside strings.
func respace(compact []byte, colon, comma string) string {
	var b strings.Builder
	inString, escaped := false, false
	for _, c := range compact {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == ':':
			b.WriteString(colon)
			continue
		case c == ',':
			b.WriteString(comma)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// marshal encodes v as compact JSON, leaving <, > and & as they are.
func marshal(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // only called on plain strings, ints and structs of them
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func jsonString(s string) string { return string(marshal(s)) }

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
