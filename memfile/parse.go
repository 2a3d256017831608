package memfile

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// The parser reads the file line by line: each line is structure (the
// header, title, a tier heading, the END marker), a tier's template
// comment, an item's tag line with its body, or part of a note.
// parse_fields.go reads a tag line's fields.

var (
	// ErrUnreadable means the bytes are not a memory file: empty, binary,
	// cut off, or without BIMRI structure. The store restores the backup.
	ErrUnreadable = errors.New("not a readable memory file")
	// errCut is a file that never reaches the END marker; ParseStored
	// reads it up to where it ends.
	errCut     = fmt.Errorf("%w: %q is missing (the file looks truncated)", ErrUnreadable, endMarker)
	tierTitles = [3]string{"## Tier 1: Core Intelligence", "## Tier 2: Active Context", "## Tier 3: Pattern Recognition"}
)

// The title and END marker, and the zones of the file besides the tiers 1-3.
const (
	titleLine  = "# BIMRI Memory"
	endMarker  = "<!-- END BIMRI -->"
	inPreamble = 0
	inIntro    = 4
	inTrailer  = 5
)

// prosePattern is a pattern as models write it in Tier 3: "**DEVELOPING
// (3 obs)** ...", "EMERGING (2 obs): ...", "ESTABLISHED: ...". The lines
// of a fixed shape are read by plain string code, with nothing to compile.
var (
	prosePattern = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[*_]*\s*(?i:(emerging|developing|established))\b\s*([*_]*)\s*(?:[(\[]\s*(\d+)\s*(?i:obs|observations?)\.?\s*[)\]])?\s*([*_]*)\s*([:\x{2013}\x{2014}-]?)\s*(.*)$`)
	})
	hashTag = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:^|\s)#([\p{L}\p{N}][\p{L}\p{N}_.-]*)`) })
	// templateStarts begin the comments under each tier heading, after "<!-- ".
	templateStarts = [...]string{"Permanent foundational", "Only IMPORTANCE", "Current work state", "Ordered by composite", "Derived behavioral", "EMERGING ("}
)

// space is the ASCII white space of regular expressions' \s.
const space = " \t\n\f\r"

// tierHeading is the tier a heading names ("## Tier 2: ...", "##tier 3"), 0 for none.
func tierHeading(t string) int {
	s, ok := strings.CutPrefix(t, "##")
	if s = strings.TrimLeft(s, space); !ok || len(s) < 4 || !strings.EqualFold(s[:4], "tier") {
		return 0
	}
	if s = strings.TrimLeft(s[4:], space); s == "" || s[0] < '1' || s[0] > '3' || len(s) > 1 && wordByte(s[1]) {
		return 0
	}
	return int(s[0] - '0')
}

// wordByte is a byte of regular expressions' \w.
func wordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func isTemplateComment(t string) bool {
	s, ok := strings.CutPrefix(t, "<!-- ")
	return ok && slices.ContainsFunc(templateStarts[:], func(start string) bool { return strings.HasPrefix(s, start) })
}

// cutListMark is s after the list marker it starts with ("- ", "12. ", "3) ").
func cutListMark(s string) (string, bool) {
	rest := strings.TrimLeft(s, "0123456789")
	switch {
	case s != "" && strings.IndexByte("-*+", s[0]) >= 0:
		rest = s[1:]
	case len(rest) < len(s) && rest != "" && (rest[0] == '.' || rest[0] == ')'):
		rest = rest[1:]
	default:
		return s, false
	}
	if after := strings.TrimLeft(rest, space); len(after) < len(rest) {
		return after, true
	}
	return s, false
}

// parser holds the state of one Parse.
type parser struct {
	f         *File
	lines     []string
	warnings  []Warning
	zone      int   // inPreamble, a tier, inIntro or inTrailer
	note      *Note // the open run of note lines, if any
	header    bool
	structure bool // saw anything that marks a BIMRI file
	seenTier  [3]bool
	content   [3]bool // the tier had a line that is not a template comment
	trailer   bool    // text after the END marker was reported
	untagged  []*Pattern
	untagLine []int     // the lines of the untagged prose patterns
	fields    fieldList // the last tag line's, its array reused
}

// Parse reads a memory file leniently: any line that is not an entry or
// a pattern is kept as a Note where it stood, with a warning; entries
// without an ID get one derived from their date and text. It returns
// ErrUnreadable (wrapped) only for bytes that are not a memory file.
func Parse(data []byte) (*File, []Warning, error) {
	switch {
	case len(bytes.TrimSpace(data)) == 0:
		return nil, nil, fmt.Errorf("%w: the file is empty", ErrUnreadable)
	case bytes.IndexByte(data, 0) >= 0:
		return nil, nil, fmt.Errorf("%w: the file holds binary data (NUL bytes)", ErrUnreadable)
	case !utf8.Valid(data) && len(data)-len(bytes.ToValidUTF8(data, nil)) > 16: // a few bad bytes are kept as they are
		return nil, nil, fmt.Errorf("%w: the file is not UTF-8 text (%d invalid bytes)", ErrUnreadable, len(data)-len(bytes.ToValidUTF8(data, nil)))
	}
	// Render writes "\n" alone, so a last empty line and "\r"s go.
	p := &parser{f: &File{}, lines: strings.Split(strings.TrimSuffix(strings.TrimPrefix(string(data), "\uFEFF"), "\n"), "\n")}
	for i, l := range p.lines {
		p.lines[i] = strings.TrimRight(l, "\r")
	}
	for i := 0; i < len(p.lines); i++ {
		i = p.line(i)
	}
	for n := len(p.f.Preamble); n > 0 && strings.TrimSpace(p.f.Preamble[n-1]) == ""; n-- {
		p.f.Preamble = p.f.Preamble[:n-1]
	}
	switch {
	case !p.structure:
		return nil, nil, fmt.Errorf("%w: no BIMRI header, headings or entries", ErrUnreadable)
	case p.header && p.zone != inTrailer: // cut off: reading it as whole would lose the rest
		return nil, nil, errCut
	case !p.header:
		p.warn(0, false, "no BIMRI header line; a new one was made (Sessions: 0)")
	}
	p.tagUntagged()
	p.assignIDs()
	return p.f, p.warnings, nil
}

// warn records a warning; converted says the line was read leniently and
// the next write changes how it looks.
func (p *parser) warn(line int, converted bool, format string, args ...any) {
	p.warnings = append(p.warnings, Warning{Line: line, Message: fmt.Sprintf(format, args...), Converted: converted})
}

// line reads line i and returns the index of the last line it used.
func (p *parser) line(i int) int {
	raw, lineNo := p.lines[i], i+1
	t := strings.TrimSpace(raw)
	tier := p.zone % 4 // 0 outside the tiers
	n := tierHeading(t)
	switch {
	case p.zone == inTrailer:
		if t != "" && !p.trailer {
			p.trailer = true
			p.warn(lineNo, false, "text after %q; kept as it was", endMarker)
		}
		p.f.Trailer = append(p.f.Trailer, raw)
	case t == "":
		p.note = nil
		// Blank lines between preamble lines are kept, or a line there
		// could read back as the summary of the one before.
		if p.zone == inPreamble && len(p.f.Preamble) > 0 {
			p.f.Preamble = append(p.f.Preamble, raw)
		}
	case p.zone == inPreamble && !p.header && strings.HasPrefix(t, "<!--") && p.readHeader(t, lineNo):
	case p.zone == inPreamble && p.f.Header.DueLine == "" && strings.HasPrefix(t, "<!-- Maintenance Due"):
		p.f.Header.DueLine, p.structure = t, true
	case p.zone == inPreamble && strings.EqualFold(t, titleLine):
		p.note, p.structure, p.zone = nil, true, inIntro
	case n > 0:
		if p.seenTier[n-1] {
			p.warn(lineNo, false, "Tier %d heading appears twice; its blocks were joined", n)
		}
		p.seenTier[n-1] = true
		p.note, p.structure, p.zone = nil, true, n
	case t == endMarker || strings.HasPrefix(t, "<!--") && strings.EqualFold(strings.Join(strings.Fields(t), " "), endMarker):
		p.note, p.structure, p.zone = nil, true, inTrailer
	case tier > 0 && !p.content[tier-1] && isTemplateComment(t):
		// Template comments come before a tier's own content; items moved
		// here do not count, as they render after the comments.
		p.f.Tiers[tier-1].Comments = append(p.f.Tiers[tier-1].Comments, t)
	default:
		if tier > 0 {
			p.content[tier-1] = true
		}
		if used, ok := p.item(i, t, tier); ok {
			return used
		}
		p.noteLine(raw, lineNo, tier)
	}
	return i
}

// noteLine keeps a line that is not an entry or a pattern, with one
// warning per run of them unless its first line has one of its own.
func (p *parser) noteLine(raw string, lineNo, tier int) {
	if p.note == nil {
		if n := len(p.warnings); n == 0 || p.warnings[n-1].Line != lineNo {
			p.warn(lineNo, false, "not an entry or a pattern; kept as a note where it stood")
		}
		p.note = &Note{Line: lineNo}
		if tier > 0 {
			p.f.Tiers[tier-1].Blocks = append(p.f.Tiers[tier-1].Blocks, Block{Note: p.note})
		} else if p.zone == inIntro {
			p.f.Intro = append(p.f.Intro, Block{Note: p.note})
		}
	}
	if p.zone == inPreamble {
		p.f.Preamble = append(p.f.Preamble, raw)
	} else {
		p.note.Lines = append(p.note.Lines, raw)
	}
}

// readHeader reads the header line: false when t is not one, or its
// Sessions is not a count.
func (p *parser) readHeader(t string, lineNo int) bool {
	version, fields, ok := headerParts(t)
	if !ok {
		return false
	}
	h := Header{Version: version, DueLine: p.f.Header.DueLine}
	for part := range strings.SplitSeq(fields, "|") {
		key, val, ok := strings.Cut(part, ":")
		key, val = strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(val)
		switch {
		case !ok:
		case key == "last maintained":
			if d, ok := ParseDate(val); ok {
				h.LastMaintained = d
				if val != d.Format(dateLayout) {
					p.warn(lineNo, true, "header Last Maintained %q read as %s", val, d.Format(dateLayout))
				}
			}
		case key == "sessions" || key == "session":
			// Models add to the count: "12 (next deep: 20)" is 12.
			digits := leadingDigits(val)
			n, err := strconv.Atoi(digits)
			if err != nil {
				p.warn(lineNo, false, "header has Sessions %q, not a count; the line was kept as a note", val)
				return false
			}
			if digits != val || key != "sessions" {
				p.warn(lineNo, true, "header %q read as Sessions: %d", strings.TrimSpace(part), n)
			}
			h.Sessions = n
		case key == "token est":
			h.TokenEst, _ = strconv.Atoi(strings.TrimLeft(strings.ReplaceAll(val, ",", ""), "~ "))
		}
	}
	p.f.Header, p.header, p.structure = h, true, true
	return true
}

// headerParts splits a header line, "<!-- BIMRI vVERSION | Key: value |
// ... -->", into its version and its fields.
func headerParts(t string) (version, fields string, ok bool) {
	s, ok := strings.CutPrefix(t, "<!--")
	s, bimri := strings.CutPrefix(strings.TrimLeft(s, space), "BIMRI")
	version, fields, bar := strings.Cut(strings.TrimPrefix(strings.TrimLeft(s, space), "v"), "|")
	version = strings.TrimRight(version, space)
	fields, end := strings.CutSuffix(fields, "-->")
	return version, fields, ok && bimri && bar && end && s != "" && strings.IndexByte(space, s[0]) >= 0 && !strings.ContainsAny(version, space)
}

// item reads an entry or a pattern at line i with its body: the index of
// the last line used, and whether it read one. A pattern goes to Tier 3,
// an entry outside Tiers 1 and 2 to Tier 2; an undated entry takes the
// header's date. What was read leniently is reported.
func (p *parser) item(i int, t string, tier int) (int, bool) {
	start, ok := readItemStart(t, p.fields)
	if !ok {
		return i, false
	}
	p.fields = start.fields
	lineNo := i + 1
	used, body := itemBody(p.lines, i, start.rest)
	var b Block
	var how []string
	var err error
	what := "an entry"
	if _, isPattern := start.fields.get("PATTERN"); isPattern {
		if b.Pattern, how, err = patternFromFields(start.fields, body); err != nil {
			p.warn(lineNo, false, "pattern kept as a note: %v", err)
			return i, false
		}
		if tier != 3 {
			p.warn(lineNo, false, "pattern outside Tier 3 was moved to Tier 3")
		}
		if start.prose && len(b.Pattern.Tags) == 0 {
			p.untagged, p.untagLine = append(p.untagged, b.Pattern), append(p.untagLine, lineNo)
		}
		what, tier = "a pattern", 3
	} else {
		if b.Entry, how, err = entryFromFields(start.fields, body, nil); err != nil {
			p.warn(lineNo, false, "entry kept as a note: %v", err)
			return i, false
		}
		if d := p.f.Header.LastMaintained; !b.Entry.Date.IsZero() {
		} else if !d.IsZero() {
			b.Entry.Date = d
			how = append(how, "no date: given the header's Last Maintained date, "+d.Format(dateLayout))
		} else {
			how = append(how, "no date: the first pass gives it that day's date")
		}
		if tier == 0 || tier == 3 {
			p.warn(lineNo, false, "entry outside Tier 1 and Tier 2 was moved to Tier 2")
			tier = 2
		} else if tier == 1 && b.Entry.Importance < 4 {
			p.warn(lineNo, false, "Tier 1 entry has importance %d; only 4 and 5 belong in Tier 1", b.Entry.Importance)
		}
	}
	p.note, p.structure = nil, true
	if how = append(start.how, how...); len(how) > 0 {
		p.warn(lineNo, true, "read as %s: %s", what, strings.Join(how, "; "))
	}
	p.f.Tiers[tier-1].Blocks = append(p.f.Tiers[tier-1].Blocks, b)
	return used, true
}

// itemBody gathers the body of the item whose tag line is line i: the
// summary there or on the next line, and the lines continuing it.
func itemBody(lines []string, i int, summary string) (int, []string) {
	used := i
	if summary == "" && i+1 < len(lines) && bodyLine(lines[i+1], true) {
		summary = strings.TrimSpace(lines[i+1])
		used = i + 1
	}
	body := []string{summary}
	for summary != "" && used+1 < len(lines) && bodyLine(lines[used+1], false) {
		used++
		body = append(body, strings.TrimSpace(lines[used]))
	}
	return used, body
}

// bodyLine says whether a line can be the summary under a tag line: text
// that is not structure nor a tag line; to continue a body, nor a prose
// pattern, as read or as written (neutralised).
func bodyLine(raw string, summary bool) bool {
	t := strings.TrimSpace(raw)
	if t == "" || strings.HasPrefix(t, "<!--") || strings.HasPrefix(t, "#") {
		return false
	}
	s := undecorate(t, nil)
	if _, _, _, tagLine := splitFields(s, nil); tagLine {
		return false
	}
	return summary || !isProse(s) && !isProse(undecorate(strings.TrimSpace(neutralize(raw)), nil))
}

func isProse(s string) bool {
	_, ok := readProsePattern(s, itemStart{})
	return ok
}

// itemStart is the first line of an entry or a pattern, as read.
type itemStart struct {
	fields fieldList
	rest   string   // text after the fields, the summary when not empty
	how    []string // what was read leniently, for the conversion report
	prose  bool     // a pattern written as "DEVELOPING (3 obs): ..."
}

// readItemStart reads a tag line or a prose pattern as models write them:
// behind list markers or emoji, bold, with a separator before the summary;
// its fields in reuse's array (see splitFields).
func readItemStart(t string, reuse fieldList) (st itemStart, ok bool) {
	s := undecorate(t, &st.how)
	if s == "" {
		return st, false
	}
	fields, rest, bold, ok := splitFields(s, reuse)
	if !ok {
		return readProsePattern(s, st)
	}
	st.fields = fields
	if bold {
		st.how = append(st.how, "bold markers dropped")
		rest = trimBold(rest)
	}
	st.rest = strings.TrimSpace(rest)
	for _, sep := range []string{":", "\u2013", "\u2014", "|"} { // a hyphen stays: "- " may start the text
		if r, ok := strings.CutPrefix(st.rest, sep); ok && (r == "" || r[0] == ' ' || r[0] == '\t') {
			st.how = append(st.how, fmt.Sprintf("separator %q dropped", sep))
			st.rest = strings.TrimSpace(r)
			break
		}
	}
	if k := slices.IndexFunc(fields, func(f field) bool { return f.key == "CONFIDENCE" }); k >= 0 {
		st.fields[k].key = "PATTERN"
		st.how = append(st.how, "CONFIDENCE read as PATTERN")
	}
	return st, true
}

// trimBold drops the bold markers closing around a tag line; a single
// trailing '*' or '_' is the text's own.
func trimBold(s string) string {
	s = strings.TrimLeft(s, "*_ \t")
	for _, m := range []string{"**", "__"} {
		if t, ok := strings.CutSuffix(strings.TrimRight(s, " \t"), m); ok {
			return strings.TrimRight(t, " \t")
		}
	}
	return s
}

// undecorate drops list markers, task boxes, check marks and emoji, and
// says so in how when it is not nil.
func undecorate(t string, how *[]string) string {
	said := func(what string) {
		if how != nil && !slices.Contains(*how, what) {
			*how = append(*how, what)
		}
	}
	for s := t; ; t = s {
		if rest, ok := cutListMark(s); ok {
			s = rest
			said("list marker dropped")
		}
		if len(s) >= 3 && s[0] == '[' && s[2] == ']' && strings.ContainsRune(" xX", rune(s[1])) && (len(s) == 3 || s[3] == ' ') {
			s = strings.TrimLeft(s[3:], " \t")
			said("task box dropped")
		}
		// Check marks, emoji and what joins and varies them go only before
		// what could be an item: text keeps its emoji.
		if s != "" && s[0] >= 0x80 {
			n := strings.TrimLeft(strings.TrimLeftFunc(s, func(r rune) bool {
				return unicode.In(r, unicode.So, unicode.Sk, unicode.Mn) || r == '\u200d' || r == '\ufe0f' || r == '\ufe0e'
			}), " \t")
			if len(n) < len(s) && (strings.HasPrefix(strings.TrimLeft(n, "*_- \t"), "[") || proseMatch(n) != nil) {
				s = n
				said("leading mark dropped")
			}
		}
		if s == t {
			return s
		}
	}
}

// proseMatch is prosePattern's match of s, after a cheap test.
func proseMatch(s string) []string {
	if t := strings.TrimLeft(s, "*_"); len(t) < 8 || !strings.ContainsRune("EeDd", rune(t[0])) {
		return nil
	}
	return prosePattern().FindStringSubmatch(s)
}

// readProsePattern reads "DEVELOPING (3 obs): sentence"; without a count
// only the upper-case level followed by ':' or bold counts.
func readProsePattern(s string, st itemStart) (itemStart, bool) {
	m := proseMatch(s)
	if m == nil {
		return st, false
	}
	level, count, sep := m[1], m[3], m[5]
	bold := m[2] != "" || m[4] != "" || strings.HasPrefix(s, "*") || strings.HasPrefix(s, "_")
	if count == "" && (level != strings.ToUpper(level) || (sep == "" && !bold)) {
		return st, false
	}
	st.prose = true
	st.fields = fieldList{{key: "PATTERN", val: strings.ToUpper(level)}}
	if count != "" {
		st.fields = append(st.fields, field{key: "OBSERVATIONS", val: count})
	}
	rest := strings.TrimSpace(m[6])
	if bold {
		rest = trimBold(rest)
	}
	// Fields may follow the level: "**DEVELOPING (3 obs)** [TAGS:deploy] ...".
	if more, r, _, ok := splitFields(rest, nil); ok {
		for _, f := range more {
			if _, dup := st.fields.get(f.key); !dup {
				st.fields = append(st.fields, f)
			}
		}
		rest = strings.TrimSpace(r)
	}
	if _, ok := st.fields.get("TAGS"); !ok {
		var tags []string
		for _, m := range hashTag().FindAllStringSubmatch(rest, -1) {
			tags = append(tags, m[1])
		}
		if tags = NormalizeTags(tags); len(tags) > 0 {
			st.fields = append(st.fields, field{key: "TAGS", val: strings.Join(tags, ",")})
			st.how = append(st.how, "tags taken from the #tags in its sentence")
		}
	}
	st.how = append(st.how, fmt.Sprintf("prose pattern %q", strings.TrimSpace(s[:len(s)-len(m[6])])))
	st.rest = rest
	return st, true
}

// tagUntagged gives a tagless prose pattern the one Tier 2 tag its
// sentence names ("tests" names testing), so it and that tag's automatic
// pattern become one.
func (p *parser) tagUntagged() {
	if len(p.untagged) == 0 {
		return
	}
	// stem drops an English ending: "tests", "testing" and "tested" meet.
	stem := func(w string) string {
		for _, suffix := range []string{"ing", "ed", "s"} {
			if s, ok := strings.CutSuffix(w, suffix); ok && len(s) >= 3 {
				return s
			}
		}
		return w
	}
	known := map[string]string{} // stem -> tag
	for _, e := range p.f.Entries(2) {
		for _, tag := range e.Tags {
			known[stem(tag)] = tag
		}
	}
	for k, pt := range p.untagged {
		var found []string
		for _, w := range strings.FieldsFunc(strings.ToLower(pt.Text), func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '_'
		}) {
			if tag, ok := known[stem(w)]; ok && !slices.Contains(found, tag) {
				found = append(found, tag)
			}
		}
		if len(found) == 1 {
			pt.Tags = found
			p.warn(p.untagLine[k], true, "pattern given tag %s, the one entry tag its sentence names", found[0])
		}
	}
}

// assignIDs gives every entry and pattern a unique ID: explicit IDs first
// (a repeated one is replaced on its later use), then derived ones.
func (p *parser) assignIDs() {
	type item struct {
		id     *string
		what   string
		derive func(taken map[string]bool) string
	}
	var items []item
	for _, e := range p.f.TierEntries() {
		items = append(items, item{&e.ID, "entry", func(taken map[string]bool) string { return uniqueID("", EntryID(e.Date, e.Text), taken) }})
	}
	for _, pt := range p.f.Patterns() {
		items = append(items, item{&pt.ID, "pattern", func(taken map[string]bool) string { return uniqueID("p", patternID(pt.Tags), taken) }})
	}
	taken := make(map[string]bool, len(items))
	for _, it := range items {
		switch old := *it.id; {
		case old == "":
		case taken[old]:
			*it.id = it.derive(taken)
			p.warn(0, false, "%s ID %s appears twice; the later one is now %s", it.what, old, *it.id)
		default:
			taken[old] = true
		}
	}
	for _, it := range items {
		if *it.id == "" {
			*it.id = it.derive(taken)
		}
	}
}
