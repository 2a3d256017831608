package memfile

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ErrUnreadable means the bytes are not a memory file at all: empty,
// binary, cut off mid-write, or text with no BIMRI structure. Callers must
// not overwrite such a file; the store restores the backup instead.
var ErrUnreadable = errors.New("not a readable memory file")

const (
	titleLine = "# BIMRI Memory"
	endMarker = "<!-- END BIMRI -->"
)

var tierTitles = [3]string{
	"## Tier 1: Core Intelligence",
	"## Tier 2: Active Context",
	"## Tier 3: Pattern Recognition",
}

var (
	headerRe  = regexp.MustCompile(`^<!--\s*BIMRI\s+v?([^\s|]*)\s*\|(.*?)-->$`)
	tierRe    = regexp.MustCompile(`^##\s*tier\s*([123])\b`)
	listMark  = regexp.MustCompile(`^(?:[-*+]|\d+[.)])\s+`)
	idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,31}$`)
)

// zone is where the parser is in the file.
type zone int

const (
	inPreamble zone = iota
	inIntro
	inTier1
	inTier2
	inTier3
	inTrailer
)

// parser holds the state of one Parse.
type parser struct {
	f         *File
	warnings  []Warning
	zone      zone
	note      *Note // the note being collected, if any
	noteIn    *[]Block
	header    bool
	structure bool // saw anything that marks a BIMRI file
	seenTier  [3]bool
	content   [3]bool // the tier's zone has had a line that is not a template comment
	preamble  bool    // a run of preamble lines is open
	trailer   bool    // text after the END marker was reported
}

// Parse reads a memory file. It is lenient: files written by hand or by an
// agent following the protocol load, and any line that is not an entry or
// a pattern is kept as a Note where it stood, with a warning. It returns
// ErrUnreadable (wrapped) only for bytes that are not a memory file.
//
// Entries without an ID get one derived from their date and text, so the
// first write of such a file adds IDs.
func Parse(data []byte) (*File, []Warning, error) {
	if err := checkReadable(data); err != nil {
		return nil, nil, err
	}
	text := string(bytes.TrimPrefix(data, []byte("\uFEFF")))
	lines := strings.Split(text, "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	// CRLF line ends, and any other carriage returns that end a line: Render
	// writes "\n" alone, so a line that kept a final "\r" would read back
	// differently.
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, "\r")
	}

	p := &parser{f: &File{}}
	for i := 0; i < len(lines); i++ {
		i = p.line(lines, i)
	}
	p.endNote()
	for n := len(p.f.Preamble); n > 0 && strings.TrimSpace(p.f.Preamble[n-1]) == ""; n-- {
		p.f.Preamble = p.f.Preamble[:n-1]
	}
	if !p.structure {
		return nil, nil, fmt.Errorf("%w: no BIMRI header, headings or entries", ErrUnreadable)
	}
	if p.header && p.zone != inTrailer {
		// A file that starts like ours but never reaches the END marker was
		// cut off: reading it as complete would lose what was after the cut.
		return nil, nil, fmt.Errorf("%w: %q is missing (the file looks truncated)", ErrUnreadable, endMarker)
	}
	if !p.header {
		p.warn(0, "no BIMRI header line; a new one was made (Sessions: 0)")
	}
	p.assignIDs()
	return p.f, p.warnings, nil
}

// checkReadable rejects bytes that are plainly not text we wrote or a
// person typed.
func checkReadable(data []byte) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return fmt.Errorf("%w: the file is empty", ErrUnreadable)
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return fmt.Errorf("%w: the file holds binary data (NUL bytes)", ErrUnreadable)
	}
	if !utf8.Valid(data) {
		bad := 0
		for len(data) > 0 {
			r, size := utf8.DecodeRune(data)
			if r == utf8.RuneError && size == 1 {
				bad++
			}
			data = data[size:]
		}
		if bad > 16 {
			return fmt.Errorf("%w: the file is not UTF-8 text (%d invalid bytes)", ErrUnreadable, bad)
		}
	}
	return nil
}

func (p *parser) warn(line int, format string, args ...any) {
	p.warnings = append(p.warnings, Warning{Line: line, Message: fmt.Sprintf(format, args...)})
}

// line handles lines[i] and returns the index of the last line it used.
func (p *parser) line(lines []string, i int) int {
	raw := lines[i]
	t := strings.TrimSpace(raw)
	lineNo := i + 1

	if p.zone == inTrailer {
		if t != "" && !p.trailer {
			p.trailer = true
			p.warn(lineNo, "text after %q; kept as it was", endMarker)
		}
		p.f.Trailer = append(p.f.Trailer, raw)
		return i
	}
	if t == "" {
		p.endNote()
		// Blank lines between preamble lines are kept: the preamble renders
		// as one run of lines, and without them a line there could read as
		// the summary of the line before it.
		if p.zone == inPreamble && len(p.f.Preamble) > 0 {
			p.f.Preamble = append(p.f.Preamble, raw)
		}
		return i
	}
	if p.zone == inPreamble && !p.header && strings.HasPrefix(t, "<!--") {
		if m := headerRe.FindStringSubmatch(t); m != nil {
			if p.parseHeader(m, lineNo) {
				return i
			}
		}
	}
	if p.zone == inPreamble && p.f.Header.DueLine == "" && strings.HasPrefix(t, "<!-- Maintenance Due") {
		p.f.Header.DueLine = t
		p.structure = true
		return i
	}
	if p.zone == inPreamble && strings.EqualFold(t, titleLine) {
		p.endNote()
		p.structure = true
		p.zone = inIntro
		return i
	}
	if m := tierHeading(t); m != nil {
		p.endNote()
		p.structure = true
		n := int(m[1][0] - '0')
		if p.seenTier[n-1] {
			p.warn(lineNo, "Tier %d heading appears twice; its blocks were joined", n)
		}
		p.seenTier[n-1] = true
		p.zone = inTier1 + zone(n-1)
		return i
	}
	if t == endMarker || (strings.HasPrefix(t, "<!--") && strings.EqualFold(strings.Join(strings.Fields(t), " "), endMarker)) {
		p.endNote()
		p.structure = true
		p.zone = inTrailer
		return i
	}
	if tier := p.tier(); tier > 0 {
		// Template comments come before a tier's own content. Items moved
		// here from elsewhere do not count as content: they render after
		// the comments.
		if !p.content[tier-1] && isTemplateComment(t) {
			p.f.Tiers[tier-1].Comments = append(p.f.Tiers[tier-1].Comments, t)
			return i
		}
		p.content[tier-1] = true
	}

	body := stripListMark(t)
	if strings.HasPrefix(body, "[") {
		if used, ok := p.item(lines, i, body); ok {
			return used
		}
	}
	p.addNoteLine(raw, lineNo)
	return i
}

// tierHeading matches a tier heading ("## Tier 2: ...", any case); the
// cheap prefix test spares the regular expression on every other line.
func tierHeading(t string) []string {
	if !strings.HasPrefix(t, "##") {
		return nil
	}
	return tierRe.FindStringSubmatch(strings.ToLower(t))
}

// stripListMark drops a leading "- ", "* ", "+ " or "1. " list marker.
func stripListMark(t string) string {
	if t == "" || !strings.ContainsRune("-*+0123456789", rune(t[0])) {
		return t
	}
	return listMark.ReplaceAllString(t, "")
}

func (p *parser) tier() int {
	switch p.zone {
	case inTier1:
		return 1
	case inTier2:
		return 2
	case inTier3:
		return 3
	}
	return 0
}

func (p *parser) parseHeader(m []string, lineNo int) bool {
	h := Header{Version: m[1]}
	for _, part := range strings.Split(m[2], "|") {
		key, val, ok := strings.Cut(part, ":")
		if !ok {
			continue
		}
		key = strings.ToLower(strings.TrimSpace(key))
		val = strings.TrimSpace(val)
		switch key {
		case "last maintained":
			if d, ok := ParseDate(val); ok {
				h.LastMaintained = d
			}
		case "sessions":
			n, err := strconv.Atoi(val)
			if err != nil || n < 0 {
				p.warn(lineNo, "header has Sessions %q, not a count; the line was kept as a note", val)
				return false
			}
			h.Sessions = n
		case "token est":
			n, _ := strconv.Atoi(strings.TrimLeft(strings.ReplaceAll(val, ",", ""), "~ "))
			h.TokenEst = n
		}
	}
	h.DueLine = p.f.Header.DueLine
	p.f.Header = h
	p.header = true
	p.structure = true
	return true
}

// ParseHeader reads a memory file's first line, the header, alone: a
// caller that needs only the session count or the token estimate need not
// parse the whole file.
func ParseHeader(line string) (Header, bool) {
	m := headerRe.FindStringSubmatch(strings.TrimSpace(line))
	if m == nil {
		return Header{}, false
	}
	p := &parser{f: &File{}}
	if !p.parseHeader(m, 1) {
		return Header{}, false
	}
	return p.f.Header, true
}

// isTemplateComment recognises the comment lines the template puts under
// each tier heading; passes regenerate them from the config.
func isTemplateComment(t string) bool {
	for _, prefix := range []string{
		"<!-- Permanent foundational", "<!-- Only IMPORTANCE",
		"<!-- Current work state", "<!-- Ordered by composite",
		"<!-- Derived behavioral", "<!-- EMERGING (",
	} {
		if strings.HasPrefix(t, prefix) {
			return true
		}
	}
	return false
}

// item tries to read an entry or a pattern starting at lines[i]. It returns
// the index of the last line used and whether it read one.
func (p *parser) item(lines []string, i int, body string) (int, bool) {
	fields, rest, ok := splitFields(body)
	if !ok || len(fields) == 0 {
		return i, false
	}
	lineNo := i + 1
	used := i
	summary := strings.TrimSpace(rest)
	if summary == "" && i+1 < len(lines) && isSummaryLine(lines[i+1]) {
		summary = strings.TrimSpace(lines[i+1])
		used = i + 1
	}
	if _, isPattern := fields.get("PATTERN"); isPattern {
		pat, err := patternFromFields(fields, summary)
		if err != nil {
			p.warn(lineNo, "pattern kept as a note: %v", err)
			return i, false
		}
		p.endNote()
		if p.zone != inTier3 {
			p.warn(lineNo, "pattern outside Tier 3 was moved to Tier 3")
		}
		p.structure = true
		p.f.Tiers[2].Blocks = append(p.f.Tiers[2].Blocks, Block{Pattern: pat})
		return used, true
	}
	e, err := entryFromFields(fields, summary, nil)
	if err != nil {
		p.warn(lineNo, "entry kept as a note: %v", err)
		return i, false
	}
	p.endNote()
	p.structure = true
	tier := p.tier()
	switch tier {
	case 0, 3:
		p.warn(lineNo, "entry outside Tier 1 and Tier 2 was moved to Tier 2")
		tier = 2
	case 1:
		if e.Importance < 4 {
			p.warn(lineNo, "Tier 1 entry has importance %d; only 4 and 5 belong in Tier 1", e.Importance)
		}
	}
	p.f.Tiers[tier-1].Blocks = append(p.f.Tiers[tier-1].Blocks, Block{Entry: e})
	return used, true
}

// isSummaryLine says whether a line can be the summary under a tag line:
// any text that is not itself structure.
func isSummaryLine(raw string) bool {
	t := strings.TrimSpace(raw)
	if t == "" || strings.HasPrefix(t, "<!--") || strings.HasPrefix(t, "#") {
		return false
	}
	body := stripListMark(t)
	if fields, _, ok := splitFields(body); ok && len(fields) > 0 {
		return false
	}
	return true
}

// addNoteLine keeps a line that is not an entry or a pattern. Each run of
// such lines is reported once, at its first line, unless that line already
// has a warning of its own (a malformed tag line).
func (p *parser) addNoteLine(raw string, lineNo int) {
	var dst *[]Block
	switch tier := p.tier(); {
	case tier > 0:
		dst = &p.f.Tiers[tier-1].Blocks
	case p.zone == inIntro:
		dst = &p.f.Intro
	default:
		if !p.preamble {
			p.noteWarning(lineNo)
		}
		p.preamble = true
		p.f.Preamble = append(p.f.Preamble, raw)
		return
	}
	if p.note == nil || p.noteIn != dst {
		p.endNote()
		p.noteWarning(lineNo)
		p.note = &Note{}
		p.noteIn = dst
		*dst = append(*dst, Block{Note: p.note})
	}
	p.note.Lines = append(p.note.Lines, raw)
}

func (p *parser) noteWarning(lineNo int) {
	if n := len(p.warnings); n > 0 && p.warnings[n-1].Line == lineNo {
		return
	}
	p.warn(lineNo, "not an entry or a pattern; kept as a note where it stood")
}

func (p *parser) endNote() {
	p.note = nil
	p.noteIn = nil
	p.preamble = false
}

// assignIDs gives every entry and pattern a unique ID: explicit IDs first
// (a repeated one is replaced on its later use), then derived ones.
func (p *parser) assignIDs() {
	taken := map[string]bool{}
	var entries []*Entry
	var patterns []*Pattern
	for t := range p.f.Tiers {
		for _, b := range p.f.Tiers[t].Blocks {
			if b.Entry != nil {
				entries = append(entries, b.Entry)
			}
			if b.Pattern != nil {
				patterns = append(patterns, b.Pattern)
			}
		}
	}
	for _, e := range entries {
		if e.ID == "" {
			continue
		}
		if taken[e.ID] {
			old := e.ID
			e.ID = uniqueID("", EntryID(e.Date, e.Text), taken)
			p.warn(0, "entry ID %s appears twice; the later one is now %s", old, e.ID)
			continue
		}
		taken[e.ID] = true
	}
	for _, pt := range patterns {
		if pt.ID == "" {
			continue
		}
		if taken[pt.ID] {
			old := pt.ID
			pt.ID = uniqueID("p", PatternID(pt.Tags), taken)
			p.warn(0, "pattern ID %s appears twice; the later one is now %s", old, pt.ID)
			continue
		}
		taken[pt.ID] = true
	}
	for _, e := range entries {
		if e.ID == "" {
			e.ID = uniqueID("", EntryID(e.Date, e.Text), taken)
		}
	}
	for _, pt := range patterns {
		if pt.ID == "" {
			pt.ID = uniqueID("p", PatternID(pt.Tags), taken)
		}
	}
}

// field is one "[KEY:value]" of a tag line.
type field struct{ key, val string }

type fieldList []field

func (fl fieldList) get(key string) (string, bool) {
	for _, f := range fl {
		if f.key == key {
			return f.val, true
		}
	}
	return "", false
}

// splitFields reads the "[KEY:value]" groups at the start of s. Keys are
// upper-cased with spaces removed, so "[ importance : 3 ]" reads as
// IMPORTANCE=3. It stops at the first bracket group that is not a field;
// what is left is returned as rest. ok is false when s does not start with
// a field at all.
func splitFields(s string) (fieldList, string, bool) {
	var out fieldList
	for {
		s = strings.TrimLeft(s, " \t")
		if !strings.HasPrefix(s, "[") {
			break
		}
		end := strings.IndexByte(s, ']')
		if end < 0 {
			break
		}
		key, val, ok := strings.Cut(s[1:end], ":")
		key = strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(key), " ", ""))
		if !ok || key == "" || !isFieldKey(key) {
			break
		}
		out = append(out, field{key: key, val: strings.TrimSpace(val)})
		s = s[end+1:]
	}
	return out, s, len(out) > 0
}

func isFieldKey(k string) bool {
	for _, r := range k {
		if (r < 'A' || r > 'Z') && r != '_' {
			return false
		}
	}
	return true
}

// entryFields are the keys an entry's tag line may carry.
var entryFields = map[string]bool{"IMPORTANCE": true, "TIMESTAMP": true, "DATE": true, "TAGS": true, "WEIGHT": true, "ID": true}

// entryFromFields builds an entry; extra lists keys also allowed (the
// archive adds its own).
func entryFromFields(fields fieldList, summary string, extra map[string]bool) (*Entry, error) {
	seen := map[string]bool{}
	for _, f := range fields {
		k := f.key
		if k == "DATE" {
			k = "TIMESTAMP"
		}
		if !entryFields[k] && !extra[k] {
			return nil, fmt.Errorf("unknown field [%s:...]", f.key)
		}
		if seen[k] {
			return nil, fmt.Errorf("field %s appears twice", k)
		}
		seen[k] = true
	}
	e := &Entry{}
	imp, ok := fields.get("IMPORTANCE")
	if !ok {
		return nil, errors.New("no IMPORTANCE field")
	}
	n, err := strconv.Atoi(imp)
	if err != nil || n < 1 || n > 5 {
		return nil, fmt.Errorf("IMPORTANCE %q is not a whole number from 1 to 5", imp)
	}
	e.Importance = n
	date, ok := fields.get("TIMESTAMP")
	if !ok {
		date, ok = fields.get("DATE")
	}
	if !ok {
		return nil, errors.New("no TIMESTAMP field")
	}
	d, ok := ParseDate(date)
	if !ok {
		return nil, fmt.Errorf("TIMESTAMP %q is not a date (YYYY-MM-DD)", date)
	}
	e.Date = d
	if tags, ok := fields.get("TAGS"); ok {
		e.Tags = SplitTags(tags)
	}
	if w, ok := fields.get("WEIGHT"); ok {
		if v, err := strconv.ParseFloat(w, 64); err == nil && v >= 0 && v <= 100 {
			e.Weight = Weight(v*100 + 0.5)
			e.HasWeight = true
		}
	}
	if id, ok := fields.get("ID"); ok {
		id = strings.ToLower(id)
		if !idPattern.MatchString(id) {
			return nil, fmt.Errorf("ID %q is not 1-32 letters, digits or dashes", id)
		}
		e.ID = id
	}
	e.Text = Neutralize(summary)
	if e.Text == "" {
		return nil, errors.New("no summary on the tag line or the line after it")
	}
	return e, nil
}

var patternFields = map[string]bool{"PATTERN": true, "OBSERVATIONS": true, "OBS": true, "FIRST": true, "LAST": true, "TAGS": true, "EVIDENCE": true, "ID": true}

func patternFromFields(fields fieldList, summary string) (*Pattern, error) {
	seen := map[string]bool{}
	for _, f := range fields {
		k := f.key
		if k == "OBS" {
			k = "OBSERVATIONS"
		}
		if !patternFields[k] && !archiveFields[k] {
			return nil, fmt.Errorf("unknown field [%s:...]", f.key)
		}
		if seen[k] {
			return nil, fmt.Errorf("field %s appears twice", k)
		}
		seen[k] = true
	}
	pt := &Pattern{}
	lvl, _ := fields.get("PATTERN")
	pt.Level = Level(strings.ToUpper(lvl))
	if pt.Level != Emerging && pt.Level != Developing && pt.Level != Established {
		return nil, fmt.Errorf("level %q is not EMERGING, DEVELOPING or ESTABLISHED", lvl)
	}
	if tags, ok := fields.get("TAGS"); ok {
		pt.Tags = SplitTags(tags)
	}
	if ev, ok := fields.get("EVIDENCE"); ok {
		for _, id := range strings.Split(ev, ",") {
			id = strings.ToLower(strings.TrimSpace(id))
			if id == "" {
				continue
			}
			if !idPattern.MatchString(id) {
				return nil, fmt.Errorf("evidence ID %q is not 1-32 letters, digits or dashes", id)
			}
			pt.Evidence = append(pt.Evidence, id)
		}
	}
	obs, ok := fields.get("OBSERVATIONS")
	if !ok {
		obs, ok = fields.get("OBS")
	}
	if ok {
		n, err := strconv.Atoi(obs)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("OBSERVATIONS %q is not a count", obs)
		}
		pt.Observations = n
	}
	pt.Observations = max(pt.Observations, len(pt.Evidence))
	for _, k := range []string{"FIRST", "LAST"} {
		v, ok := fields.get(k)
		if !ok {
			continue
		}
		d, ok := ParseDate(v)
		if !ok {
			return nil, fmt.Errorf("%s %q is not a date (YYYY-MM-DD)", k, v)
		}
		if k == "FIRST" {
			pt.First = d
		} else {
			pt.Last = d
		}
	}
	if id, ok := fields.get("ID"); ok {
		id = strings.ToLower(id)
		if !idPattern.MatchString(id) {
			return nil, fmt.Errorf("ID %q is not 1-32 letters, digits or dashes", id)
		}
		pt.ID = id
	}
	pt.Text = Neutralize(summary)
	if pt.Text == "" {
		pt.Text = autoSentence(pt)
	}
	return pt, nil
}
