package memfile

// The old parser's fields, entries and patterns, and its readers of a
// stored file and of the archive: the rest of the oracle of
// parse_oracle_internal_test.go, apart to keep each file a size to read.

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

type oldField struct{ key, val string }

type oldFieldList []oldField

func (fl oldFieldList) get(keys ...string) (string, bool) {
	for _, key := range keys {
		if i := fl.index(key); i >= 0 {
			return fl[i].val, true
		}
	}
	return "", false
}

func (fl oldFieldList) index(key string) int {
	return slices.IndexFunc(fl, func(f oldField) bool { return f.key == key })
}

func oldSplitFields(s string) (fields oldFieldList, rest string, bold bool, ok bool) {
	for {
		next := strings.TrimLeft(s, oldFieldMarks)
		if !strings.HasPrefix(next, "[") {
			break
		}
		end := strings.IndexByte(next, ']')
		if end < 0 {
			break
		}
		key, val, ok := strings.Cut(next[1:end], ":")
		key = strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(key), " ", ""))
		if !ok || key == "" || strings.ContainsFunc(key, func(r rune) bool { return (r < 'A' || r > 'Z') && r != '_' }) {
			break
		}
		if strings.ContainsAny(s[:len(s)-len(next)], "*_") {
			bold = true
		}
		fields = append(fields, oldField{key: key, val: strings.TrimSpace(val)})
		s = next[end+1:]
	}
	return fields, s, bold, len(fields) > 0
}

const oldFieldMarks = " \t*_"

var (
	oldEntryFields   = []string{"IMPORTANCE", "TIMESTAMP", "TAGS", "KEYWORDS", "AGENT", "WEIGHT", "ID", "HOLDS_WITH"}
	oldPatternFields = []string{"PATTERN", "OBSERVATIONS", "FIRST", "LAST", "TAGS", "EVIDENCE", "ID"}
	oldFieldAlias    = map[string]string{"DATE": "TIMESTAMP", "OBS": "OBSERVATIONS", "CONFIDENCE": "PATTERN"}
)

type oldFieldReader struct {
	fields oldFieldList
	how    []string
	err    error
}

func (r *oldFieldReader) checkKeys(allowed []string, extra map[string]bool) {
	seen := map[string]bool{}
	for _, f := range r.fields {
		k := cmp.Or(oldFieldAlias[f.key], f.key)
		if !slices.Contains(allowed, k) && !extra[k] {
			r.fail(fmt.Errorf("unknown field [%s:...]", f.key))
		} else if seen[k] {
			r.fail(fmt.Errorf("field %s appears twice", k))
		}
		seen[k] = true
	}
}

func (r *oldFieldReader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

func (r *oldFieldReader) get(keys ...string) (string, bool) {
	if r.err != nil {
		return "", false
	}
	return r.fields.get(keys...)
}

func oldEntryFromFields(fields oldFieldList, body []string, extra map[string]bool) (*Entry, []string, error) {
	r := oldFieldReader{fields: fields}
	r.checkKeys(oldEntryFields, extra)
	e := &Entry{}
	if _, ok := r.get("IMPORTANCE"); !ok {
		r.fail(errors.New("no IMPORTANCE field"))
	}
	e.Importance = r.count(true, 1, 5, "a whole number from 1 to 5", "IMPORTANCE")
	e.Date = r.date("date", "TIMESTAMP", "DATE")
	e.Tags, e.Keywords = r.tags("TAGS"), r.tags("KEYWORDS")
	if agent, ok := r.get("AGENT"); ok && (!oldValidAgent(agent) || agent == "") {
		r.fail(fmt.Errorf("field AGENT %q is not a short lower-case name", agent))
	} else {
		e.Agent = agent
	}
	r.weight(e)
	e.ID = r.id()
	e.HoldsWith = normalIDs(r.ids("HOLDS_WITH"))
	if e.Text = neutralizeBody(body); e.Text == "" {
		r.fail(oldErrNoSummary)
	}
	if r.err != nil {
		return nil, nil, r.err
	}
	return e, r.how, nil
}

func (r *oldFieldReader) count(strict bool, lo, hi int, want string, keys ...string) int {
	v, ok := r.get(keys...)
	if !ok {
		return 0
	}
	n, err := strconv.Atoi(v)
	if d := oldLeadingDigits(v); err != nil && d != "" && (!strict || len(d) < len(v) && !strings.ContainsRune(".,", rune(v[len(d)]))) {
		n, err = strconv.Atoi(d)
		r.how = append(r.how, fmt.Sprintf("%s %q read as %d", strings.ToLower(keys[0]), v, n))
	}
	if err != nil || n < lo || n > hi {
		r.fail(fmt.Errorf("%s %q is not %s", keys[0], v, want))
		return 0
	}
	return n
}

func (r *oldFieldReader) date(what string, keys ...string) time.Time {
	v, ok := r.get(keys...)
	if !ok || (v == "" && keys[0] == "TIMESTAMP") {
		return time.Time{}
	}
	d, ok := ParseDate(v)
	if !ok {
		r.fail(fmt.Errorf("%s %q is not a date (YYYY-MM-DD)", keys[0], v))
	} else if v != d.Format(dateLayout) {
		r.how = append(r.how, fmt.Sprintf("%s %q read as %s", what, v, d.Format(dateLayout)))
	}
	return d
}

func (r *oldFieldReader) weight(e *Entry) {
	w, ok := r.get("WEIGHT")
	if !ok {
		return
	}
	v, err := strconv.ParseFloat(w[:len(w)-len(strings.TrimLeft(w, "0123456789."))], 64)
	if err != nil || v < 0 || v > 100 {
		return
	}
	e.Weight = Weight(v*100 + 0.5)
	e.HasWeight = true
	canon := e.Weight.String()
	if w != canon && strings.TrimRight(strings.TrimRight(w, "0"), ".") != strings.TrimRight(strings.TrimRight(canon, "0"), ".") {
		r.how = append(r.how, fmt.Sprintf("weight %q read as %s", w, e.Weight))
	}
}

var oldErrNoSummary = errors.New("no summary on the tag line or the line after it")

func (r *oldFieldReader) tags(key string) []string {
	s, ok := r.get(key)
	if !ok {
		return nil
	}
	if !strings.Contains(s, "#") {
		return SplitTags(s)
	}
	r.how = oldAppendOnce(r.how, "'#' dropped from tags")
	return NormalizeTags(strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '#' || unicode.IsSpace(r) }))
}

func oldPatternFromFields(fields oldFieldList, body []string) (*Pattern, []string, error) {
	r := oldFieldReader{fields: fields}
	r.checkKeys(oldPatternFields, oldArchiveFields)
	pt := &Pattern{}
	lvl, _ := r.get("PATTERN", "CONFIDENCE")
	if pt.Level = Level(strings.ToUpper(lvl)); pt.Level != Emerging && pt.Level != Developing && pt.Level != Established {
		r.fail(fmt.Errorf("level %q is not EMERGING, DEVELOPING or ESTABLISHED", lvl))
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

func (r *oldFieldReader) ids(key string) []string {
	ev, ok := r.get(key)
	if !ok {
		return nil
	}
	var ids []string
	for _, id := range strings.Split(ev, ",") {
		if id = strings.ToLower(strings.TrimSpace(id)); id == "" {
			continue
		}
		if !oldValidID(id) {
			r.fail(fmt.Errorf("%s ID %q is not 1-32 letters, digits or dashes", strings.ToLower(key), id))
			return nil
		}
		ids = append(ids, id)
	}
	return ids
}

func (r *oldFieldReader) id() string {
	id, ok := r.get("ID")
	if id = strings.ToLower(id); ok && !oldValidID(id) {
		r.fail(fmt.Errorf("ID %q is not 1-32 letters, digits or dashes", id))
	}
	return id
}

func oldValidAgent(s string) bool { return len(s) <= 16 && oldIdChars(s) }

type oldDamage struct {
	Decoded int
	Cut     bool
}

func (d oldDamage) Any() bool { return d.Decoded > 0 || d.Cut }

func oldParseStored(data []byte) (*File, []Warning, oldDamage, error) {
	text, decoded := oldDecodeText(data)
	d := oldDamage{Decoded: decoded}
	f, w, err := oldParse(text)
	if errors.Is(err, oldErrCut) {
		d.Cut = true
		f, w, err = oldParse(append(slices.Clip(text), "\n"+oldEndMarker+"\n"...))
	}
	if err != nil || !d.Any() {
		return f, w, d, err
	}
	return f, append([]Warning{{Message: "the file " + d.Describe()}}, w...), d, nil
}

func (d oldDamage) Describe() string {
	var what string
	if d.Decoded > 0 {
		what = fmt.Sprintf("was not UTF-8 (%d lines): read it as Windows-1252 (Latin-1), and it is written back in UTF-8", d.Decoded)
	}
	if d.Cut {
		if what != "" {
			what += ", and it "
		}
		what += fmt.Sprintf("ended without its %q line, as if cut short: kept every entry up to where it ends", oldEndMarker)
	}
	return what
}

var oldWindows1252 = [32]rune{
	'\u20AC', '\u0081', '\u201A', '\u0192', '\u201E', '\u2026', '\u2020', '\u2021',
	'\u02C6', '\u2030', '\u0160', '\u2039', '\u0152', '\u008D', '\u017D', '\u008F',
	'\u0090', '\u2018', '\u2019', '\u201C', '\u201D', '\u2022', '\u2013', '\u2014',
	'\u02DC', '\u2122', '\u0161', '\u203A', '\u0153', '\u009D', '\u017E', '\u0178',
}

func oldDecodeText(data []byte) ([]byte, int) {
	if utf8.Valid(data) {
		return data, 0
	}
	out := make([]byte, 0, len(data)+len(data)/8)
	decoded := 0
	for rest := data; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line = rest[:i+1]
		}
		rest = rest[len(line):]
		if utf8.Valid(line) {
			out = append(out, line...)
			continue
		}
		decoded++
		for _, c := range line {
			switch {
			case c < 0x80:
				out = append(out, c)
			case c < 0xA0:
				out = utf8.AppendRune(out, oldWindows1252[c-0x80])
			default:
				out = utf8.AppendRune(out, rune(c))
			}
		}
	}
	return out, decoded
}

var oldArchiveFields = map[string]bool{"TIER": true, "ARCHIVED": true, "REASON": true}

func oldParseArchive(data []byte) ([]ArchiveRecord, []Warning) {
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	var out []ArchiveRecord
	var warnings []Warning
	for i := 0; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(t, "[") {
			continue
		}
		fields, rest, _, ok := oldSplitFields(t)
		if !ok {
			continue
		}
		lineNo := i + 1 // the tag line, reported even when the summary is on the next
		var body []string
		i, body = oldItemBody(lines, i, strings.TrimSpace(rest))
		rec := ArchiveRecord{Tier: 2}
		if v, ok := fields.get("TIER"); ok && len(v) == 1 && v[0] >= '1' && v[0] <= '3' {
			rec.Tier = int(v[0] - '0')
		}
		if v, ok := fields.get("ARCHIVED"); ok {
			rec.ArchivedOn, _ = ParseDate(v)
		}
		rec.Reason, _ = fields.get("REASON")
		var err error
		if _, isPattern := fields.get("PATTERN"); isPattern {
			rec.Tier = 3
			rec.Pattern, _, err = oldPatternFromFields(fields, body)
		} else {
			rec.Entry, _, err = oldEntryFromFields(fields, body, oldArchiveFields)
			if err == nil && rec.Entry.Date.IsZero() {
				rec.Entry.Date = rec.ArchivedOn
			}
			if err == nil && rec.Entry.ID == "" {
				rec.Entry.ID = EntryID(rec.Entry.Date, rec.Entry.Text)
			}
		}
		if err != nil {
			warnings = append(warnings, Warning{Line: lineNo, Message: "archive record skipped: " + err.Error()})
			continue
		}
		out = append(out, rec)
	}
	return out, warnings
}
