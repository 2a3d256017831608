package memfile

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// A tag line's "[KEY:value]" fields, and the Entry or Pattern they make.

// validID: 1-32 lower-case letters, digits or dashes, not starting with a dash.
func validID(id string) bool { return len(id) > 0 && len(id) <= 32 && id[0] != '-' && idChars(id) }

// validAgent: up to 16 lower-case letters, digits and dashes.
func validAgent(s string) bool { return len(s) <= 16 && idChars(s) }

func idChars(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') })
}

// leadingDigits is the run of ASCII digits s starts with.
func leadingDigits(s string) string { return s[:len(s)-len(strings.TrimLeft(s, "0123456789"))] }

// field is one "[KEY:value]" of a tag line.
type field struct{ key, val string }

// fieldList is a tag line's fields; get is the first of keys they have.
type fieldList []field

func (fl fieldList) get(keys ...string) (string, bool) {
	for _, key := range keys {
		for _, f := range fl {
			if f.key == key {
				return f.val, true
			}
		}
	}
	return "", false
}

// splitFields reads the "[KEY:value]" groups s starts with ("[ importance
// : 3 ]" is IMPORTANCE=3) and the bold and italic markers between them, up
// to the first bracket group that is not a field; rest is what follows.
// They go into the array of reuse, when it has room: a reader of many tag
// lines gives each the last one's.
func splitFields(s string, reuse fieldList) (fields fieldList, rest string, bold bool, ok bool) {
	fields = reuse[:0]
	for {
		next := strings.TrimLeft(s, " \t*_")
		end := strings.IndexByte(next, ']')
		if !strings.HasPrefix(next, "[") || end < 0 {
			break
		}
		key, val, ok := strings.Cut(next[1:end], ":")
		key = strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(key), " ", ""))
		if !ok || key == "" || strings.ContainsFunc(key, func(r rune) bool { return (r < 'A' || r > 'Z') && r != '_' }) {
			break
		}
		bold = bold || strings.ContainsAny(s[:len(s)-len(next)], "*_")
		if cap(fields) == 0 { // one allocation for a tag line's fields
			fields = make(fieldList, 0, strings.Count(next, "]"))
		}
		fields = append(fields, field{key: key, val: strings.TrimSpace(val)})
		s = next[end+1:]
	}
	return fields, s, bold, len(fields) > 0
}

// The keys an entry's and a pattern's tag line may carry, and the other
// names models give some of them.
var (
	entryFields   = []string{"IMPORTANCE", "TIMESTAMP", "TAGS", "KEYWORDS", "AGENT", "WEIGHT", "ID", "HOLDS_WITH"}
	patternFields = []string{"PATTERN", "OBSERVATIONS", "FIRST", "LAST", "TAGS", "EVIDENCE", "ID"}
	fieldAlias    = map[string]string{"DATE": "TIMESTAMP", "OBS": "OBSERVATIONS", "CONFIDENCE": "PATTERN"}
)

// fieldReader reads a tag line's fields into an item: err is the first
// problem, after which every field reads as missing; how says what was
// read leniently. readFields refuses a field neither allowed nor extra,
// and one given twice under either of its names.
type fieldReader struct {
	fields fieldList
	how    []string
	err    error
}

func readFields(fields fieldList, allowed []string, extra map[string]bool) (r fieldReader) {
	r.fields = fields
	seen := map[string]bool{}
	for _, f := range fields {
		k := cmp.Or(fieldAlias[f.key], f.key)
		if !slices.Contains(allowed, k) && !extra[k] {
			r.fail("unknown field [%s:...]", f.key)
		} else if seen[k] {
			r.fail("field %s appears twice", k)
		}
		seen[k] = true
	}
	return r
}

func (r *fieldReader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf(format, args...)
	}
}

func (r *fieldReader) get(keys ...string) (string, bool) {
	if r.err != nil {
		return "", false
	}
	return r.fields.get(keys...)
}

// entryFromFields builds an entry from its fields and body lines; extra
// lists keys also allowed (the archive's). An undated entry comes back
// with a zero Date for the caller.
func entryFromFields(fields fieldList, body []string, extra map[string]bool) (*Entry, []string, error) {
	r := readFields(fields, entryFields, extra)
	e := &Entry{}
	if _, ok := r.get("IMPORTANCE"); !ok {
		r.fail("no IMPORTANCE field")
	}
	e.Importance = r.count(true, 1, 5, "a whole number from 1 to 5", "IMPORTANCE")
	e.Date = r.date("date", "TIMESTAMP", "DATE")
	e.Tags, e.Keywords = r.tags("TAGS"), r.tags("KEYWORDS")
	if agent, ok := r.get("AGENT"); ok && (!validAgent(agent) || agent == "") {
		r.fail("field AGENT %q is not a short lower-case name", agent)
	} else {
		e.Agent = agent
	}
	// "4.0 (floor)" is 4; a pass works out a weight not from 0 to 100 again.
	if w, ok := r.get("WEIGHT"); ok {
		v, err := strconv.ParseFloat(w[:len(w)-len(strings.TrimLeft(w, "0123456789."))], 64)
		if err == nil && v >= 0 && v <= 100 {
			e.Weight, e.HasWeight = Weight(v*100+0.5), true
			zeros := func(s string) string { return strings.TrimRight(strings.TrimRight(s, "0"), ".") }
			if canon := e.Weight.String(); w != canon && zeros(w) != zeros(canon) {
				r.how = append(r.how, fmt.Sprintf("weight %q read as %s", w, e.Weight))
			}
		}
	}
	e.ID = r.id()
	e.HoldsWith = normalIDs(r.ids("HOLDS_WITH"))
	if e.Text = neutralizeBody(body); e.Text == "" {
		r.fail("no summary on the tag line or the line after it")
	}
	if r.err != nil {
		return nil, nil, r.err
	}
	return e, r.how, nil
}

// patternFromFields builds a pattern from its fields and body lines.
func patternFromFields(fields fieldList, body []string) (*Pattern, []string, error) {
	r := readFields(fields, patternFields, archiveFields)
	pt := &Pattern{}
	lvl, _ := r.get("PATTERN", "CONFIDENCE")
	if pt.Level = Level(strings.ToUpper(lvl)); pt.Level != Emerging && pt.Level != Developing && pt.Level != Established {
		r.fail("level %q is not EMERGING, DEVELOPING or ESTABLISHED", lvl)
	}
	pt.Tags = r.tags("TAGS")
	pt.Evidence = r.ids("EVIDENCE")
	pt.Observations = max(r.count(false, 0, math.MaxInt, "a count", "OBSERVATIONS", "OBS"), len(pt.Evidence))
	pt.First, pt.Last = r.date("FIRST", "FIRST"), r.date("LAST", "LAST")
	pt.ID = r.id()
	if r.err != nil {
		return nil, nil, r.err
	}
	if pt.Text = neutralizeBody(body); pt.Text == "" {
		pt.Text = autoSentence(pt)
	}
	return pt, r.how, nil
}

// count reads the first of keys as a whole number from lo to hi, or the
// one it starts with ("4/5", "7 (since Nov)"), said in how; strict
// refuses "4.5" and "4,5". 0 when the field is not there.
func (r *fieldReader) count(strict bool, lo, hi int, want string, keys ...string) int {
	v, ok := r.get(keys...)
	if !ok {
		return 0
	}
	n, err := strconv.Atoi(v)
	if d := leadingDigits(v); err != nil && d != "" && (!strict || len(d) < len(v) && !strings.ContainsRune(".,", rune(v[len(d)]))) {
		n, err = strconv.Atoi(d)
		r.how = append(r.how, fmt.Sprintf("%s %q read as %d", strings.ToLower(keys[0]), v, n))
	}
	if err != nil || n < lo || n > hi {
		r.fail("%s %q is not %s", keys[0], v, want)
		return 0
	}
	return n
}

// date reads the first of keys as a date, zero when none (or an empty
// TIMESTAMP); what names it in how.
func (r *fieldReader) date(what string, keys ...string) time.Time {
	v, ok := r.get(keys...)
	if !ok || (v == "" && keys[0] == "TIMESTAMP") {
		return time.Time{}
	}
	d, ok := ParseDate(v)
	if !ok {
		r.fail("%s %q is not a date (YYYY-MM-DD)", keys[0], v)
	} else if v != d.Format(dateLayout) {
		r.how = append(r.how, fmt.Sprintf("%s %q read as %s", what, v, d.Format(dateLayout)))
	}
	return d
}

// tags reads a TAGS or KEYWORDS value: comma-separated, or "#tag #tag".
func (r *fieldReader) tags(key string) []string {
	s, ok := r.get(key)
	if !ok {
		return nil
	} else if !strings.Contains(s, "#") {
		return SplitTags(s)
	}
	if !slices.Contains(r.how, "'#' dropped from tags") {
		r.how = append(r.how, "'#' dropped from tags")
	}
	return NormalizeTags(strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '#' || unicode.IsSpace(r) }))
}

// ids reads a comma-separated list of entry IDs: EVIDENCE, HOLDS_WITH.
func (r *fieldReader) ids(key string) []string {
	ev, ok := r.get(key)
	if !ok {
		return nil
	}
	var ids []string
	for _, id := range strings.Split(ev, ",") {
		if id = strings.ToLower(strings.TrimSpace(id)); id == "" {
			continue
		} else if !validID(id) {
			r.fail("%s ID %q is not 1-32 letters, digits or dashes", strings.ToLower(key), id)
			return nil
		}
		ids = append(ids, id)
	}
	return ids
}

// id reads the ID field, "" when there is none.
func (r *fieldReader) id() string {
	id, ok := r.get("ID")
	if id = strings.ToLower(id); ok && !validID(id) {
		r.fail("ID %q is not 1-32 letters, digits or dashes", id)
	}
	return id
}

// Reading bimri.md as the store does: a committed file is read by every
// clone, so a damaged one that still holds entries must not empty memory.
// One saved in Windows-1252 (editors' default on Windows) is decoded, one
// missing its END marker read up to where it ends; the user is told, and
// the store sets the file aside before replacing it.

// Damage is what was wrong with a bimri.md that still reads.
type Damage struct {
	Decoded int  // lines that were not UTF-8, read as Windows-1252
	Cut     bool // no END marker: read up to where the file ends
}

// Any says whether anything was wrong.
func (d Damage) Any() bool { return d.Decoded > 0 || d.Cut }

// ParseStored parses bimri.md's bytes as the store reads them: decoded
// to UTF-8, and, when the END marker is missing, read as if it followed
// the last line. The damage is said in the first warning.
func ParseStored(data []byte) (*File, []Warning, Damage, error) {
	text, decoded := decodeText(data)
	d := Damage{Decoded: decoded}
	f, w, err := Parse(text)
	if errors.Is(err, errCut) {
		d.Cut = true
		f, w, err = Parse(append(slices.Clip(text), "\n"+endMarker+"\n"...))
	}
	if err != nil || !d.Any() {
		return f, w, d, err
	}
	return f, append([]Warning{{Message: "the file " + d.Describe()}}, w...), d, nil
}

// Describe says what was wrong, for the user.
func (d Damage) Describe() string {
	var what []string
	if d.Decoded > 0 {
		what = append(what, fmt.Sprintf("was not UTF-8 (%d lines): read it as Windows-1252 (Latin-1), and it is written back in UTF-8", d.Decoded))
	}
	if d.Cut {
		what = append(what, fmt.Sprintf("ended without its %q line, as if cut short: kept every entry up to where it ends", endMarker))
	}
	return strings.Join(what, ", and it ")
}

// windows1252 is the bytes 0x80-0x9F in Windows-1252, the five it leaves
// undefined as Latin-1 controls (as WHATWG); TestWindows1252IsCharmaps
// checks them against golang.org/x/text, which the binary does not link.
var windows1252 = [32]rune{
	'\u20AC', '\u0081', '\u201A', '\u0192', '\u201E', '\u2026', '\u2020', '\u2021',
	'\u02C6', '\u2030', '\u0160', '\u2039', '\u0152', '\u008D', '\u017D', '\u008F',
	'\u0090', '\u2018', '\u2019', '\u201C', '\u201D', '\u2022', '\u2013', '\u2014',
	'\u02DC', '\u2122', '\u0161', '\u203A', '\u0153', '\u009D', '\u017E', '\u0178',
}

// decodeText is data as UTF-8 text, and how many of its lines were
// decoded from Windows-1252: a line that is valid UTF-8 is kept, so a
// file edited both ways reads whole.
func decodeText(data []byte) ([]byte, int) {
	if utf8.Valid(data) {
		return data, 0
	}
	out := make([]byte, 0, len(data)+len(data)/8)
	decoded := 0
	for line := range bytes.Lines(data) {
		if utf8.Valid(line) {
			out = append(out, line...)
			continue
		}
		decoded++
		for _, c := range line {
			r := rune(c)
			if c >= 0x80 && c < 0xA0 {
				r = windows1252[c-0x80]
			}
			out = utf8.AppendRune(out, r)
		}
	}
	return out, decoded
}
