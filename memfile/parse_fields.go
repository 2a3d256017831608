package memfile

// A tag line's "[KEY:value]" fields, and the Entry or Pattern they make:
// each field checked, and what was read leniently said.

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// validID: 1-32 lower-case letters, digits or dashes, not starting with a dash.
func validID(id string) bool { return len(id) > 0 && len(id) <= 32 && id[0] != '-' && idChars(id) }

// idChars says whether s is lower-case letters, digits and dashes only.
func idChars(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') })
}

// leadingDigits is the run of ASCII digits s starts with.
func leadingDigits(s string) string { return s[:len(s)-len(strings.TrimLeft(s, "0123456789"))] }

// field is one "[KEY:value]" of a tag line.
type field struct{ key, val string }

type fieldList []field

// get is the value of the first of keys the fields have.
func (fl fieldList) get(keys ...string) (string, bool) {
	for _, key := range keys {
		if i := fl.index(key); i >= 0 {
			return fl[i].val, true
		}
	}
	return "", false
}

func (fl fieldList) index(key string) int {
	return slices.IndexFunc(fl, func(f field) bool { return f.key == key })
}

// splitFields reads the "[KEY:value]" groups s starts with ("[ importance
// : 3 ]" is IMPORTANCE=3), stepping over bold and italic markers (bold
// says so), up to the first bracket group that is not a field; rest is
// what follows, ok false when there is no field.
func splitFields(s string) (fields fieldList, rest string, bold bool, ok bool) {
	for {
		next := strings.TrimLeft(s, fieldMarks)
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
		fields = append(fields, field{key: key, val: strings.TrimSpace(val)})
		s = next[end+1:]
	}
	return fields, s, bold, len(fields) > 0
}

// fieldMarks may stand between fields: spaces, bold and italic markers.
const fieldMarks = " \t*_"

// The keys an entry's and a pattern's tag line may carry, and the other
// names models give some of them.
var (
	entryFields   = []string{"IMPORTANCE", "TIMESTAMP", "TAGS", "KEYWORDS", "AGENT", "WEIGHT", "ID", "HOLDS_WITH"}
	patternFields = []string{"PATTERN", "OBSERVATIONS", "FIRST", "LAST", "TAGS", "EVIDENCE", "ID"}
	fieldAlias    = map[string]string{"DATE": "TIMESTAMP", "OBS": "OBSERVATIONS", "CONFIDENCE": "PATTERN"}
)

// checkKeys refuses a field neither allowed nor extra, and one given
// twice under either of its names.
func checkKeys(fields fieldList, allowed []string, extra map[string]bool) error {
	seen := map[string]bool{}
	for _, f := range fields {
		k := cmp.Or(fieldAlias[f.key], f.key)
		if !slices.Contains(allowed, k) && !extra[k] {
			return fmt.Errorf("unknown field [%s:...]", f.key)
		}
		if seen[k] {
			return fmt.Errorf("field %s appears twice", k)
		}
		seen[k] = true
	}
	return nil
}

// entryFromFields builds an entry from its fields and body lines; extra
// lists keys also allowed (the archive's). how says what was read
// leniently; an undated entry comes back with a zero Date for the caller.
func entryFromFields(fields fieldList, body []string, extra map[string]bool) (*Entry, []string, error) {
	var how []string
	if err := checkKeys(fields, entryFields, extra); err != nil {
		return nil, nil, err
	}
	e := &Entry{}
	var ok bool
	var err error
	if e.Importance, ok, err = countField(fields, &how, true, 1, 5, "a whole number from 1 to 5", "IMPORTANCE"); !ok {
		err = errors.New("no IMPORTANCE field")
	}
	if err != nil {
		return nil, nil, err
	}
	if e.Date, err = dateField(fields, "date", &how, "TIMESTAMP", "DATE"); err != nil {
		return nil, nil, err
	}
	if tags, ok := fields.get("TAGS"); ok {
		e.Tags = splitTagList(tags, &how)
	}
	if kw, ok := fields.get("KEYWORDS"); ok {
		e.Keywords = splitTagList(kw, &how)
	}
	if agent, ok := fields.get("AGENT"); ok {
		if !validAgent(agent) || agent == "" {
			return nil, nil, fmt.Errorf("field AGENT %q is not a short lower-case name", agent)
		}
		e.Agent = agent
	}
	entryWeight(e, fields, &how)
	if e.ID, err = fieldID(fields); err != nil {
		return nil, nil, err
	}
	if e.HoldsWith, err = fieldIDs(fields, "HOLDS_WITH"); err != nil {
		return nil, nil, err
	}
	e.HoldsWith = normalIDs(e.HoldsWith)
	e.Text = neutralizeBody(body)
	if e.Text == "" {
		return nil, nil, errNoSummary
	}
	return e, how, nil
}

// countField reads the first of keys as a whole number from lo to hi,
// or the one it starts with ("4/5", "7 (since Nov)"), said in how; strict
// refuses "4.5" and "4,5". It says whether the field is there.
func countField(fields fieldList, how *[]string, strict bool, lo, hi int, want string, keys ...string) (int, bool, error) {
	v, ok := fields.get(keys...)
	if !ok {
		return 0, false, nil
	}
	n, err := strconv.Atoi(v)
	if d := leadingDigits(v); err != nil && d != "" && (!strict || len(d) < len(v) && !strings.ContainsRune(".,", rune(v[len(d)]))) {
		n, err = strconv.Atoi(d)
		*how = append(*how, fmt.Sprintf("%s %q read as %d", strings.ToLower(keys[0]), v, n))
	}
	if err != nil || n < lo || n > hi {
		return 0, true, fmt.Errorf("%s %q is not %s", keys[0], v, want)
	}
	return n, true, nil
}

// dateField reads the first of keys as a date, zero when none (or, for
// an entry's TIMESTAMP, empty); what names it in how.
func dateField(fields fieldList, what string, how *[]string, keys ...string) (time.Time, error) {
	v, ok := fields.get(keys...)
	if !ok || (v == "" && keys[0] == "TIMESTAMP") {
		return time.Time{}, nil
	}
	d, ok := ParseDate(v)
	if !ok {
		return time.Time{}, fmt.Errorf("%s %q is not a date (YYYY-MM-DD)", keys[0], v)
	}
	if v != d.Format(dateLayout) {
		*how = append(*how, fmt.Sprintf("%s %q read as %s", what, v, d.Format(dateLayout)))
	}
	return d, nil
}

// entryWeight reads a WEIGHT from 0 to 100 into e; a pass works any other
// out again.
func entryWeight(e *Entry, fields fieldList, how *[]string) {
	w, ok := fields.get("WEIGHT")
	if !ok {
		return
	}
	v, ok := leadingNumber(w)
	if !ok || v < 0 || v > 100 {
		return
	}
	e.Weight = Weight(v*100 + 0.5)
	e.HasWeight = true
	canon := e.Weight.String()
	if w != canon && strings.TrimRight(strings.TrimRight(w, "0"), ".") != strings.TrimRight(strings.TrimRight(canon, "0"), ".") {
		*how = append(*how, fmt.Sprintf("weight %q read as %s", w, e.Weight))
	}
}

var errNoSummary = errors.New("no summary on the tag line or the line after it")

// splitTagList reads a TAGS value: comma-separated, or "#tag #tag".
func splitTagList(s string, how *[]string) []string {
	if !strings.Contains(s, "#") {
		return SplitTags(s)
	}
	*how = appendOnce(*how, "'#' dropped from tags")
	return NormalizeTags(strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '#' || unicode.IsSpace(r) }))
}

// leadingNumber reads the number a value starts with: "4.0 (floor)" is 4.
func leadingNumber(s string) (float64, bool) {
	v, err := strconv.ParseFloat(s[:len(s)-len(strings.TrimLeft(s, "0123456789."))], 64)
	return v, err == nil
}

// patternFromFields builds a pattern from its fields and body lines; how
// says what was read leniently.
func patternFromFields(fields fieldList, body []string) (*Pattern, []string, error) {
	var how []string
	if err := checkKeys(fields, patternFields, archiveFields); err != nil {
		return nil, nil, err
	}
	pt := &Pattern{}
	lvl, _ := fields.get("PATTERN", "CONFIDENCE")
	pt.Level = Level(strings.ToUpper(lvl))
	if pt.Level != Emerging && pt.Level != Developing && pt.Level != Established {
		return nil, nil, fmt.Errorf("level %q is not EMERGING, DEVELOPING or ESTABLISHED", lvl)
	}
	if tags, ok := fields.get("TAGS"); ok {
		pt.Tags = splitTagList(tags, &how)
	}
	var err error
	if pt.Evidence, err = fieldIDs(fields, "EVIDENCE"); err != nil {
		return nil, nil, err
	}
	if pt.Observations, _, err = countField(fields, &how, false, 0, math.MaxInt, "a count", "OBSERVATIONS", "OBS"); err != nil {
		return nil, nil, err
	}
	pt.Observations = max(pt.Observations, len(pt.Evidence))
	if pt.First, err = dateField(fields, "FIRST", &how, "FIRST"); err != nil {
		return nil, nil, err
	}
	if pt.Last, err = dateField(fields, "LAST", &how, "LAST"); err != nil {
		return nil, nil, err
	}
	if pt.ID, err = fieldID(fields); err != nil {
		return nil, nil, err
	}
	pt.Text = neutralizeBody(body)
	if pt.Text == "" {
		pt.Text = autoSentence(pt)
	}
	return pt, how, nil
}

// fieldIDs reads a comma-separated list of entry IDs: EVIDENCE, HOLDS_WITH.
func fieldIDs(fields fieldList, key string) ([]string, error) {
	ev, ok := fields.get(key)
	if !ok {
		return nil, nil
	}
	var ids []string
	for _, id := range strings.Split(ev, ",") {
		id = strings.ToLower(strings.TrimSpace(id))
		if id == "" {
			continue
		}
		if !validID(id) {
			return nil, fmt.Errorf("%s ID %q is not 1-32 letters, digits or dashes", strings.ToLower(key), id)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// fieldID reads the ID field, "" when there is none.
func fieldID(fields fieldList) (string, error) {
	id, ok := fields.get("ID")
	if id = strings.ToLower(id); ok && !validID(id) {
		return "", fmt.Errorf("ID %q is not 1-32 letters, digits or dashes", id)
	}
	return id, nil
}

// validAgent says whether s may name an agent: up to 16 lower-case
// letters, digits and dashes.
func validAgent(s string) bool { return len(s) <= 16 && idChars(s) }
