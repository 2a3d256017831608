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

// The parser: a state machine over the file's zones, line by line, then
// an item as people and models write it; parse_fields.go reads a tag
// line's fields.

// ErrUnreadable means the bytes are not a memory file: empty, binary, cut
// off, or without BIMRI structure. The store restores the backup instead.
var ErrUnreadable = errors.New("not a readable memory file")

// errCut is the ErrUnreadable of a file that never reaches the END
// marker; ParseStored reads such a file up to where it ends.
var errCut = fmt.Errorf("%w: %q is missing (the file looks truncated)", ErrUnreadable, endMarker)

const (
	titleLine = "# BIMRI Memory"
	endMarker = "<!-- END BIMRI -->"
)

var tierTitles = [3]string{
	"## Tier 1: Core Intelligence",
	"## Tier 2: Active Context",
	"## Tier 3: Pattern Recognition",
}

// Where the parser is in the file, besides a tier (1-3).
const (
	inPreamble = -1
	inIntro    = 0
	inTrailer  = 4
)

// parser holds the state of one Parse.
type parser struct {
	f         *File
	warnings  []Warning
	zone      int   // inPreamble, a tier, ...
	note      *Note // the note being collected, if any
	noteIn    *[]Block
	header    bool
	structure bool // saw anything that marks a BIMRI file
	seenTier  [3]bool
	content   [3]bool // the tier's zone has had a line that is not a template comment
	preamble  bool    // a run of preamble lines is open
	trailer   bool    // text after the END marker was reported
	untagged  []untaggedPattern
}

// Parse reads a memory file leniently: any line that is not an entry or
// a pattern is kept as a Note where it stood, with a warning; entries
// without an ID get one derived from their date and text. It returns
// ErrUnreadable (wrapped) only for bytes that are not a memory file.
func Parse(data []byte) (*File, []Warning, error) {
	if err := checkReadable(data); err != nil {
		return nil, nil, err
	}
	// Without a last empty line, nor trailing "\r"s: Render writes "\n"
	// alone, so they would not read back.
	lines := strings.Split(strings.TrimSuffix(strings.TrimPrefix(string(data), "\uFEFF"), "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, "\r")
	}
	p := &parser{f: &File{}, zone: inPreamble}
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
		// Cut off: reading it as complete would lose what was after the cut.
		return nil, nil, errCut
	}
	if !p.header {
		p.warn(0, "no BIMRI header line; a new one was made (Sessions: 0)")
	}
	p.tagUntagged()
	p.assignIDs()
	return p.f, p.warnings, nil
}

// checkReadable rejects bytes that are plainly not text.
func checkReadable(data []byte) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return fmt.Errorf("%w: the file is empty", ErrUnreadable)
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return fmt.Errorf("%w: the file holds binary data (NUL bytes)", ErrUnreadable)
	}
	if !utf8.Valid(data) { // most files: no copy
		if bad := len(data) - len(bytes.ToValidUTF8(data, nil)); bad > 16 {
			return fmt.Errorf("%w: the file is not UTF-8 text (%d invalid bytes)", ErrUnreadable, bad)
		}
	}
	return nil
}

func (p *parser) warn(line int, format string, args ...any) {
	p.warnings = append(p.warnings, Warning{Line: line, Message: fmt.Sprintf(format, args...)})
}

// convert records a line read leniently: nothing is wrong, but the next
// write changes how it looks.
func (p *parser) convert(line int, format string, args ...any) {
	p.warnings = append(p.warnings, Warning{Line: line, Message: fmt.Sprintf(format, args...), Converted: true})
}

// line handles line i and returns the index of the last line it used.
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
		// Blank lines between preamble lines are kept, or a line there
		// could read back as the summary of the one before.
		if p.zone == inPreamble && len(p.f.Preamble) > 0 {
			p.f.Preamble = append(p.f.Preamble, raw)
		}
		return i
	}
	if p.structureLine(t, lineNo) {
		return i
	}
	if tier := p.tier(); tier > 0 {
		// Template comments come before a tier's own content; items moved
		// here do not count, as they render after the comments.
		if !p.content[tier-1] && isTemplateComment(t) {
			p.f.Tiers[tier-1].Comments = append(p.f.Tiers[tier-1].Comments, t)
			return i
		}
		p.content[tier-1] = true
	}

	if used, ok := p.item(lines, i, t); ok {
		return used
	}
	p.addNoteLine(raw, lineNo)
	return i
}

// structureLine reads a line of the file's structure (header, maintenance
// line, title, tier heading, END marker) and says whether t was one.
func (p *parser) structureLine(t string, lineNo int) bool {
	if p.zone == inPreamble && !p.header && strings.HasPrefix(t, "<!--") {
		if m := headerPattern().FindStringSubmatch(t); m != nil && p.parseHeader(m, lineNo) {
			return true
		}
	}
	if p.zone == inPreamble && p.f.Header.DueLine == "" && strings.HasPrefix(t, "<!-- Maintenance Due") {
		p.f.Header.DueLine = t
		p.structure = true
		return true
	}
	var to int
	switch {
	case p.zone == inPreamble && strings.EqualFold(t, titleLine):
		to = inIntro
	case strings.HasPrefix(t, "##"):
		m := tierPattern().FindStringSubmatch(strings.ToLower(t))
		if m == nil {
			return false
		}
		n := int(m[1][0] - '0')
		if p.seenTier[n-1] {
			p.warn(lineNo, "Tier %d heading appears twice; its blocks were joined", n)
		}
		p.seenTier[n-1] = true
		to = n
	case t == endMarker || (strings.HasPrefix(t, "<!--") && strings.EqualFold(strings.Join(strings.Fields(t), " "), endMarker)):
		to = inTrailer
	default:
		return false
	}
	p.endNote()
	p.structure = true
	p.zone = to
	return true
}

// The header and tier headings, compiled on first use.
var (
	// headerPattern's groups are the version and the fields.
	headerPattern = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^<!--\s*BIMRI\s+v?([^\s|]*)\s*\|(.*?)-->$`)
	})
	// tierPattern is a tier heading, lower-cased; its group is the tier.
	tierPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^##\s*tier\s*([123])\b`) })
)

// tier is the tier the parser is in, 0 outside the tiers.
func (p *parser) tier() int {
	if p.zone < 1 || p.zone > 3 {
		return 0
	}
	return p.zone
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
				if val != d.Format(dateLayout) {
					p.convert(lineNo, "header Last Maintained %q read as %s", val, d.Format(dateLayout))
				}
			}
		case "sessions", "session":
			// Models add to the count ("12 (next deep: 20)"): the number
			// that leads the value is the count.
			digits := leadingDigits(val)
			n, err := strconv.Atoi(digits)
			if err != nil || n < 0 {
				p.warn(lineNo, "header has Sessions %q, not a count; the line was kept as a note", val)
				return false
			}
			if digits != val || key != "sessions" {
				p.convert(lineNo, "header %q read as Sessions: %d", strings.TrimSpace(part), n)
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

// isTemplateComment recognises the template's comments under each tier
// heading; passes regenerate them from the config.
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

// addNoteLine keeps a line that is not an entry or a pattern, warning once
// per run of them unless its first line has a warning of its own.
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
		p.note = &Note{Line: lineNo}
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
	type item struct {
		id     *string
		what   string
		derive func(taken map[string]bool) string
	}
	var items []item
	for _, e := range p.f.tierEntries() {
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
			p.warn(0, "%s ID %s appears twice; the later one is now %s", it.what, old, *it.id)
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

// Reading one entry or pattern as people and models write it.

// item tries to read an entry or pattern at line i, with its body up to a
// blank line or structure: the index of the last line used, and whether
// it read one. A pattern goes to Tier 3, an entry outside Tiers 1 and 2 to
// Tier 2; an undated entry takes the header's date. What was read
// leniently is reported: the next write makes it canonical.
func (p *parser) item(lines []string, i int, t string) (int, bool) {
	start, ok := readItemStart(t)
	if !ok {
		return i, false
	}
	lineNo := i + 1
	used, body := itemBody(lines, i, start.rest)
	var b Block
	var how []string
	var err error
	what, tier := "an entry", p.tier()
	if _, isPattern := start.fields.get("PATTERN"); isPattern {
		if b.Pattern, how, err = patternFromFields(start.fields, body); err != nil {
			p.warn(lineNo, "pattern kept as a note: %v", err)
			return i, false
		}
		if tier != 3 {
			p.warn(lineNo, "pattern outside Tier 3 was moved to Tier 3")
		}
		if start.prose && len(b.Pattern.Tags) == 0 {
			p.untagged = append(p.untagged, untaggedPattern{b.Pattern, lineNo})
		}
		what, tier = "a pattern", 3
	} else {
		if b.Entry, how, err = entryFromFields(start.fields, body, nil); err != nil {
			p.warn(lineNo, "entry kept as a note: %v", err)
			return i, false
		}
		e := b.Entry
		switch d := p.f.Header.LastMaintained; {
		case !e.Date.IsZero():
		case !d.IsZero():
			e.Date = d
			how = append(how, "no date: given the header's Last Maintained date, "+d.Format(dateLayout))
		default:
			how = append(how, "no date: the first pass gives it that day's date")
		}
		switch tier {
		case 0, 3:
			p.warn(lineNo, "entry outside Tier 1 and Tier 2 was moved to Tier 2")
			tier = 2
		case 1:
			if e.Importance < 4 {
				p.warn(lineNo, "Tier 1 entry has importance %d; only 4 and 5 belong in Tier 1", e.Importance)
			}
		}
	}
	p.endNote()
	p.structure = true
	if how = append(start.how, how...); len(how) > 0 {
		p.convert(lineNo, "read as %s: %s", what, strings.Join(how, "; "))
	}
	p.f.Tiers[tier-1].Blocks = append(p.f.Tiers[tier-1].Blocks, b)
	return used, true
}

// itemBody gathers the body of the item whose tag line is line i: the
// summary there or on the next line, and the lines continuing it.
func itemBody(lines []string, i int, summary string) (int, []string) {
	used := i
	if summary == "" && i+1 < len(lines) && isSummaryLine(lines[i+1]) {
		summary = strings.TrimSpace(lines[i+1])
		used = i + 1
	}
	body := []string{summary}
	if summary != "" {
		for used+1 < len(lines) && isContinuation(lines[used+1]) {
			used++
			body = append(body, strings.TrimSpace(lines[used]))
		}
	}
	return used, body
}

// itemStart is the first line of an entry or a pattern, as read.
type itemStart struct {
	fields fieldList
	rest   string   // text after the fields, the summary when not empty
	how    []string // what was read leniently, for the conversion report
	prose  bool     // a pattern written as "DEVELOPING (3 obs): ..."
}

// readItemStart reads a tag line or a prose pattern as models write them:
// behind list markers or emoji, bold, with a separator before the summary.
func readItemStart(t string) (itemStart, bool) {
	var st itemStart
	s := undecorate(t, &st.how)
	if s == "" {
		return st, false
	}
	fields, rest, bold, ok := splitFields(s)
	if !ok {
		return readProsePattern(s, st)
	}
	st.fields = fields
	if bold {
		st.how = append(st.how, "bold markers dropped")
		rest = trimBold(rest)
	}
	st.rest = dropSeparator(strings.TrimSpace(rest), &st.how)
	if k := fields.index("CONFIDENCE"); k >= 0 {
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

// undecorate drops list markers, task boxes, check marks and emoji.
func undecorate(t string, how *[]string) string {
	s := t
	for {
		before := s
		if m := listMarkPattern().FindStringIndex(s); m != nil {
			s = s[m[1]:]
			*how = appendOnce(*how, "list marker dropped")
		}
		if len(s) >= 3 && s[0] == '[' && s[2] == ']' && strings.ContainsRune(" xX", rune(s[1])) && (len(s) == 3 || s[3] == ' ') {
			s = strings.TrimLeft(s[3:], " \t")
			*how = appendOnce(*how, "task box dropped")
		}
		// Marks go only before what could be an item: text keeps its emoji.
		if s != "" && s[0] >= 0x80 {
			n := strings.TrimLeft(strings.TrimLeftFunc(s, isMark), " \t")
			if len(n) < len(s) && (strings.HasPrefix(strings.TrimLeft(n, "*_- \t"), "[") || proseStart(n)) {
				s = n
				*how = appendOnce(*how, "leading mark dropped")
			}
		}
		if s == before {
			return s
		}
	}
}

// listMarkPattern is a list marker and the space after it.
var listMarkPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:[-*+]|\d+[.)])\s+`) })

// isMark is a check mark, an emoji or what joins and varies them.
func isMark(r rune) bool {
	return unicode.Is(unicode.So, r) || unicode.Is(unicode.Sk, r) || r == '\u200d' || r == '\ufe0f' || r == '\ufe0e' || unicode.Is(unicode.Mn, r)
}

func appendOnce(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// dropSeparator drops a ":", dash or bar before the summary; a hyphen
// stays, as "- " may start the text.
func dropSeparator(rest string, how *[]string) string {
	for _, sep := range []string{":", "\u2013", "\u2014", "|"} {
		if r, ok := strings.CutPrefix(rest, sep); ok && (r == "" || r[0] == ' ' || r[0] == '\t') {
			*how = append(*how, fmt.Sprintf("separator %q dropped", sep))
			return strings.TrimSpace(r)
		}
	}
	return rest
}

// prosePattern matches a pattern as models write it in Tier 3:
// "**DEVELOPING (3 obs)** ...", "EMERGING (2 obs): ...", "ESTABLISHED: ...".
var prosePattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[*_]*\s*(?i:(emerging|developing|established))\b\s*([*_]*)\s*(?:[(\[]\s*(\d+)\s*(?i:obs|observations?)\.?\s*[)\]])?\s*([*_]*)\s*([:\x{2013}\x{2014}-]?)\s*(.*)$`)
})

// proseStart is the cheap test before the regular expression.
func proseStart(s string) bool {
	s = strings.TrimLeft(s, "*_")
	return len(s) >= 8 && strings.ContainsRune("EeDd", rune(s[0])) && prosePattern().MatchString(s)
}

// readProsePattern reads "DEVELOPING (3 obs): sentence"; without a count
// only the upper-case level followed by ':' or bold counts.
func readProsePattern(s string, st itemStart) (itemStart, bool) {
	if !proseStart(s) {
		return st, false
	}
	m := prosePattern().FindStringSubmatch(s)
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
	if more, r, _, ok := splitFields(rest); ok {
		for _, f := range more {
			if _, dup := st.fields.get(f.key); !dup {
				st.fields = append(st.fields, f)
			}
		}
		rest = strings.TrimSpace(r)
	}
	if _, ok := st.fields.get("TAGS"); !ok {
		if tags := hashTags(rest); len(tags) > 0 {
			st.fields = append(st.fields, field{key: "TAGS", val: strings.Join(tags, ",")})
			st.how = append(st.how, "tags taken from the #tags in its sentence")
		}
	}
	st.how = append(st.how, fmt.Sprintf("prose pattern %q", strings.TrimSpace(s[:len(s)-len(m[6])])))
	st.rest = rest
	return st, true
}

var hashTag = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:^|\s)#([\p{L}\p{N}][\p{L}\p{N}_.-]*)`) })

// hashTags lists the "#tag" words of a sentence.
func hashTags(s string) []string {
	var out []string
	for _, m := range hashTag().FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return NormalizeTags(out)
}

// isSummaryLine says whether a line can be the summary under a tag line:
// any text that is not structure.
func isSummaryLine(raw string) bool {
	t := strings.TrimSpace(raw)
	if t == "" || strings.HasPrefix(t, "<!--") || strings.HasPrefix(t, "#") {
		return false
	}
	var how []string
	_, _, _, tagLine := splitFields(undecorate(t, &how))
	return !tagLine
}

// isContinuation says whether a line continues the body above it: text
// that is not structure and does not start an item of its own.
func isContinuation(raw string) bool {
	if !isSummaryLine(raw) {
		return false
	}
	// Judged as read and as written: neutralising must not make it start
	// a pattern.
	return !isProse(raw) && !isProse(neutralize(raw))
}

func isProse(s string) bool {
	var how []string
	_, ok := readProsePattern(undecorate(strings.TrimSpace(s), &how), itemStart{})
	return ok
}

// untaggedPattern is a prose pattern read without tags, matched to a tag
// once every entry is read.
type untaggedPattern struct {
	p      *Pattern
	lineNo int
}

// tagUntagged gives a tagless prose pattern the one Tier 2 tag its
// sentence names ("tests" names testing), so it and that tag's automatic
// pattern become one.
func (p *parser) tagUntagged() {
	if len(p.untagged) == 0 {
		return
	}
	known := map[string]string{} // stem -> tag
	for _, e := range p.f.Entries(2) {
		for _, tag := range e.Tags {
			known[stem(tag)] = tag
		}
	}
	for _, u := range p.untagged {
		var found []string
		for _, w := range strings.FieldsFunc(strings.ToLower(u.p.Text), func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '_'
		}) {
			if tag, ok := known[stem(w)]; ok && !slices.Contains(found, tag) {
				found = append(found, tag)
			}
		}
		if len(found) == 1 {
			u.p.Tags = found
			p.convert(u.lineNo, "pattern given tag %s, the one entry tag its sentence names", found[0])
		}
	}
}

// stem drops an English plural or verb ending so "tests", "testing" and
// "tested" meet.
func stem(w string) string {
	for _, suffix := range []string{"ing", "ed", "s"} {
		if s, ok := strings.CutSuffix(w, suffix); ok && len(s) >= 3 {
			return s
		}
	}
	return w
}
