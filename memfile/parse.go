package memfile

// One file, over 500 lines, on purpose: the parser is one state machine
// (zones, notes, the header, entries, patterns) whose parts share the
// parser's state; split, each piece would make sense only beside the others.

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

// validID says whether id is 1-32 lower-case letters, digits or dashes,
// not starting with a dash: `^[a-z0-9][a-z0-9-]{0,31}$` by hand, as every
// entry's ID is checked.
func validID(id string) bool {
	if len(id) == 0 || len(id) > 32 || id[0] == '-' {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

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
	untagged  []untaggedPattern
	fields    fieldList // the tag line being read; reused from item to item
	body      []string  // the lines of the item being read; reused too
	canonical canonicalReader
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
	return parseText(string(data))
}

func parseText(text string) (*File, []Warning, error) {
	text = strings.TrimPrefix(text, "\uFEFF")
	lines := splitLines(text)
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
	p.tagUntagged()
	p.assignIDs()
	return p.f, p.warnings, nil
}

// splitLines cuts text into lines, less a last empty one, each without
// the carriage returns that end it: Render writes "\n" alone, so a line
// that kept a final "\r" (CRLF line ends, or others) would read back
// differently.
func splitLines(text string) []string {
	lines := strings.Split(text, "\n")
	if n := len(lines); lines[n-1] == "" {
		lines = lines[:n-1]
	}
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, "\r")
	}
	return lines
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

// convert records a line read leniently: nothing is wrong, but the next
// write changes how it looks.
func (p *parser) convert(line int, format string, args ...any) {
	p.warnings = append(p.warnings, Warning{Line: line, Message: fmt.Sprintf(format, args...), Converted: true})
}

// leadingDigits is the run of ASCII digits s starts with.
func leadingDigits(s string) string {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return s[:n]
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
		// Blank lines between preamble lines are kept: the preamble renders
		// as one run of lines, and without them a line there could read as
		// the summary of the line before it.
		if p.zone == inPreamble && len(p.f.Preamble) > 0 {
			p.f.Preamble = append(p.f.Preamble, raw)
		}
		return i
	}
	if p.zone == inPreamble && !p.header && strings.HasPrefix(t, "<!--") {
		if m := matchHeader(t); m != nil {
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

	if used, ok := p.item(lines, i, t); ok {
		return used
	}
	p.addNoteLine(raw, lineNo)
	return i
}

// The line shapes every parse meets, compiled on first use rather than
// at every start-up.
var (
	// headerPattern is the header line; its groups are the version and
	// the fields.
	headerPattern = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^<!--\s*BIMRI\s+v?([^\s|]*)\s*\|(.*?)-->$`)
	})
	// tierPattern is a tier heading, lower-cased; its group is the tier.
	tierPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^##\s*tier\s*([123])\b`) })
	// listMarkPattern is a list marker and the space after it.
	listMarkPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:[-*+]|\d+[.)])\s+`) })
)

// matchHeader matches a header line: the line, the version and the
// fields, or nil.
func matchHeader(s string) []string {
	return headerPattern().FindStringSubmatch(s)
}

// tierHeading matches a tier heading ("## Tier 2: ...", any case): the
// match and the tier's digit, or nil. The cheap prefix test spares
// lower-casing every other line.
func tierHeading(t string) []string {
	if !strings.HasPrefix(t, "##") {
		return nil
	}
	return tierPattern().FindStringSubmatch(strings.ToLower(t))
}

// stripListMark drops a leading "- ", "* ", "+ " or "1. " list marker.
// Every summary line is asked, so its first byte is tested before the
// regular expression runs.
func stripListMark(t string) string {
	if t == "" || !strings.ContainsRune("-*+0123456789", rune(t[0])) {
		return t
	}
	if m := listMarkPattern().FindStringIndex(t); m != nil {
		return t[m[1]:]
	}
	return t
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

// ParseHeader reads a memory file's first line, the header, alone: a
// caller that needs only the session count or the token estimate need not
// parse the whole file.
func ParseHeader(line string) (Header, bool) {
	m := matchHeader(strings.TrimSpace(line))
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

// item tries to read an entry or a pattern starting at line i: a tag
// line, or a pattern in a model's prose form. Its body is the summary on
// the tag line or the next line, and every line after that until a blank
// line or the next structure. It returns the index of the last line used
// and whether it read one.
func (p *parser) item(lines []string, i int, t string) (int, bool) {
	var start itemStart
	canon, fast := p.canonical.entryLine(t)
	fast = fast && !slowEntryLines
	if !fast {
		var ok bool
		start, ok = readItemStart(t, p.fields)
		if cap(start.fields) > cap(p.fields) {
			p.fields = start.fields[:0]
		}
		if !ok {
			return i, false
		}
	}
	lineNo := i + 1
	used := i
	summary := start.rest
	if summary == "" && i+1 < len(lines) && isSummaryLine(lines[i+1]) {
		summary = strings.TrimSpace(lines[i+1])
		used = i + 1
	}
	body := append(p.body[:0], summary) // only read, by neutralizeBody
	defer func() { p.body = body[:0] }()
	if summary != "" {
		for used+1 < len(lines) && isContinuation(lines[used+1]) {
			used++
			body = append(body, strings.TrimSpace(lines[used]))
		}
	}
	if _, isPattern := start.fields.get("PATTERN"); isPattern {
		pat, how, err := patternFromFields(start.fields, body)
		if err != nil {
			p.warn(lineNo, "pattern kept as a note: %v", err)
			return i, false
		}
		p.endNote()
		if p.zone != inTier3 {
			p.warn(lineNo, "pattern outside Tier 3 was moved to Tier 3")
		}
		p.structure = true
		if start.prose && len(pat.Tags) == 0 {
			p.untagged = append(p.untagged, untaggedPattern{pat, lineNo})
		}
		p.readAs(lineNo, "a pattern", append(start.how, how...))
		p.f.Tiers[2].Blocks = append(p.f.Tiers[2].Blocks, Block{Pattern: pat})
		return used, true
	}
	var e *Entry
	var how []string
	var err error
	if fast {
		e = &canon
		if e.Text = neutralizeBody(body); e.Text == "" {
			err = errNoSummary
		}
	} else {
		e, how, err = entryFromFields(&Entry{}, start.fields, body, nil)
	}
	if err != nil {
		p.warn(lineNo, "entry kept as a note: %v", err)
		return i, false
	}
	if e.Date.IsZero() {
		if d := p.f.Header.LastMaintained; !d.IsZero() {
			e.Date = d
			how = append(how, "no date: given the header's Last Maintained date, "+d.Format(dateLayout))
		} else {
			how = append(how, "no date: the first pass gives it that day's date")
		}
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
	p.readAs(lineNo, "an entry", append(start.how, how...))
	p.f.Tiers[tier-1].Blocks = append(p.f.Tiers[tier-1].Blocks, Block{Entry: e})
	return used, true
}

// readAs reports an item that was read leniently: the next write puts it
// in the canonical form, and the report says how it was read.
func (p *parser) readAs(lineNo int, what string, how []string) {
	if len(how) > 0 {
		p.convert(lineNo, "read as %s: %s", what, strings.Join(how, "; "))
	}
}

// itemStart is the first line of an entry or a pattern, as read.
type itemStart struct {
	fields fieldList
	rest   string   // text after the fields, the summary when not empty
	how    []string // what was read leniently, for the conversion report
	prose  bool     // a pattern written as "DEVELOPING (3 obs): ..."
}

// readItemStart reads a tag line, or a pattern in prose form, as models
// write them: behind a list marker, a check mark or an emoji, with bold
// markers around the tag line or parts of it, and a separator (":", "-")
// before the summary.
func readItemStart(t string, buf fieldList) (itemStart, bool) {
	var st itemStart
	s := undecorate(t, &st.how)
	if s == "" {
		return st, false
	}
	if c := s[0]; c == '[' || c == '*' || c == '_' {
		fields, rest, bold, ok := splitFieldsInto(buf, s)
		if ok {
			st.fields = fields
			if bold {
				st.how = append(st.how, "bold markers dropped")
				rest = trimBold(rest)
			}
			st.rest = dropSeparator(strings.TrimSpace(rest), &st.how)
			if k, ok := fields.has("CONFIDENCE"); ok {
				st.fields[k].key = "PATTERN"
				st.how = append(st.how, "CONFIDENCE read as PATTERN")
			}
			return st, true
		}
	}
	return readProsePattern(s, st)
}

// trimBold drops the bold markers that close around a tag line: the run
// of '*' or '_' the text after the fields starts with, and a "**" or "__"
// it ends with. A single trailing '*' or '_' is the text's own.
func trimBold(s string) string {
	s = strings.TrimLeft(s, "*_ \t")
	for _, m := range []string{"**", "__"} {
		if t, ok := strings.CutSuffix(strings.TrimRight(s, " \t"), m); ok {
			return strings.TrimRight(t, " \t")
		}
	}
	return s
}

// undecorate drops what models put before a tag line: list markers, a
// task box ("[x]"), check marks and emoji.
func undecorate(t string, how *[]string) string {
	s := t
	for {
		before := s
		if n := stripListMark(s); n != s {
			s = n
			*how = appendOnce(*how, "list marker dropped")
		}
		if len(s) >= 3 && s[0] == '[' && s[2] == ']' && strings.ContainsRune(" xX", rune(s[1])) && (len(s) == 3 || s[3] == ' ') {
			s = strings.TrimLeft(s[3:], " \t")
			*how = appendOnce(*how, "task box dropped")
		}
		// A mark is dropped only before what could be an item, so that a
		// line of text keeps its emoji.
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

// dropSeparator drops the ":", dash or bar models put between the tag
// line and the summary. A hyphen stays: "- " may start the text itself.
func dropSeparator(rest string, how *[]string) string {
	for _, sep := range []string{":", "\u2013", "\u2014", "|"} {
		if r, ok := strings.CutPrefix(rest, sep); ok && (r == "" || r[0] == ' ' || r[0] == '\t') {
			*how = append(*how, fmt.Sprintf("separator %q dropped", sep))
			return strings.TrimSpace(r)
		}
	}
	return rest
}

// prosePattern matches a pattern as models write it in Tier 3: its level,
// perhaps bold, perhaps with its count, then the sentence:
// "**DEVELOPING (3 obs)** ...", "EMERGING (2 obs): ...", "ESTABLISHED: ...".
var prosePattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[*_]*\s*(?i:(emerging|developing|established))\b\s*([*_]*)\s*(?:[(\[]\s*(\d+)\s*(?i:obs|observations?)\.?\s*[)\]])?\s*([*_]*)\s*([:\x{2013}\x{2014}-]?)\s*(.*)$`)
})

// proseStart is the cheap test before the regular expression.
func proseStart(s string) bool {
	s = strings.TrimLeft(s, "*_")
	return len(s) >= 8 && strings.ContainsRune("EeDd", rune(s[0])) && prosePattern().MatchString(s)
}

// readProsePattern reads "DEVELOPING (3 obs): sentence". Without a count,
// only the upper-case level followed by ':' or bold counts, so that a
// sentence starting "Established ..." stays a sentence.
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
	if more, r, _, ok := splitFieldsLenient(rest); ok {
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
	if !strings.Contains(s, "#") {
		return nil
	}
	var out []string
	for _, m := range hashTag().FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return NormalizeTags(out)
}

// isSummaryLine says whether a line can be the summary under a tag line:
// any text that is not itself structure (a tag line, a heading, a
// comment). A pattern's prose form can be a summary: Render writes any
// text there.
func isSummaryLine(raw string) bool {
	t := strings.TrimSpace(raw)
	if t == "" || strings.HasPrefix(t, "<!--") || strings.HasPrefix(t, "#") {
		return false
	}
	var how []string
	s := undecorate(t, &how)
	if s != "" && (s[0] == '[' || s[0] == '*' || s[0] == '_') {
		if _, _, _, ok := splitFieldsLenient(s); ok {
			return false
		}
	}
	return true
}

// isContinuation says whether a line continues the body above it: text
// that is not structure and does not start an item of its own.
func isContinuation(raw string) bool {
	if !isSummaryLine(raw) {
		return false
	}
	// Judged on the line as read and as it will be written: neutralising
	// (a control character dropped) must not make it start a pattern.
	return !isProse(raw) && !isProse(neutralize(raw))
}

func isProse(s string) bool {
	var how []string
	_, ok := readProsePattern(undecorate(strings.TrimSpace(s), &how), itemStart{})
	return ok
}

// untaggedPattern is a prose pattern read without tags, to be matched to
// an entry tag its sentence names once every entry is read.
type untaggedPattern struct {
	p      *Pattern
	lineNo int
}

// tagUntagged gives a prose pattern with no tags the one Tier 2 tag its
// sentence names ("tests" names testing), so that it and the automatic
// pattern for that tag become one pattern. A sentence naming none, or
// several, stays untagged.
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

// stem drops an English plural or verb ending, so "tests", "testing" and
// "tested" meet; a short word is left alone.
func stem(w string) string {
	for _, suffix := range []string{"ing", "ed", "s"} {
		if s, ok := strings.CutSuffix(w, suffix); ok && len(s) >= 3 {
			return s
		}
	}
	return w
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
	// At most a block each: one allocation, not a list grown by doubling.
	blocks := 0
	for t := range p.f.Tiers {
		blocks += len(p.f.Tiers[t].Blocks)
	}
	entries := make([]*Entry, 0, blocks)
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
	// Sized once: grown from empty, the map of 10,000 IDs rehashes
	// over and over.
	taken := make(map[string]bool, len(entries)+len(patterns))
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
			pt.ID = uniqueID("p", patternID(pt.Tags), taken)
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
			pt.ID = uniqueID("p", patternID(pt.Tags), taken)
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

// has returns the index of a key's field.
func (fl fieldList) has(key string) (int, bool) {
	for i, f := range fl {
		if f.key == key {
			return i, true
		}
	}
	return -1, false
}

// splitFields reads the "[KEY:value]" groups at the start of s. Keys are
// upper-cased with spaces removed, so "[ importance : 3 ]" reads as
// IMPORTANCE=3. It stops at the first bracket group that is not a field;
// what is left is returned as rest. ok is false when s does not start with
// a field at all.
func splitFields(s string) (fieldList, string, bool) {
	fields, rest, _, ok := splitFieldsLenient(s)
	return fields, rest, ok
}

// splitFieldsLenient is splitFields that also steps over the bold and
// italic markers models put around fields ("**[IMPORTANCE:4]** [...]");
// bold says it did.
func splitFieldsLenient(s string) (fields fieldList, rest string, bold bool, ok bool) {
	return splitFieldsInto(nil, s)
}

// splitFieldsInto is splitFieldsLenient appending to out[:0]: Parse
// reads every tag line into the same slice, as an item's fields are not
// kept once it is built.
func splitFieldsInto(out fieldList, s string) (fields fieldList, rest string, bold bool, ok bool) {
	out = out[:0]
	if out == nil && strings.HasPrefix(strings.TrimLeft(s, fieldMarks), "[") {
		// A tag line has four or five fields: one allocation, not three.
		out = make(fieldList, 0, 6)
	}
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
		if !isFieldKey(key) { // else already upper-case with no space
			key = strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(key), " ", ""))
		}
		if !ok || key == "" || !isFieldKey(key) {
			break
		}
		if strings.ContainsAny(s[:len(s)-len(next)], "*_") {
			bold = true
		}
		out = append(out, field{key: key, val: strings.TrimSpace(val)})
		s = next[end+1:]
	}
	return out, s, bold, len(out) > 0
}

// fieldMarks are what may stand between a tag line's fields: spaces, and
// the bold and italic markers models add.
const fieldMarks = " \t*_"

func isFieldKey(k string) bool {
	for _, r := range k {
		if (r < 'A' || r > 'Z') && r != '_' {
			return false
		}
	}
	return true
}

// entryField says whether an entry's tag line may carry the key: a
// switch, not a map, as every field of every entry is checked.
func entryField(k string) bool {
	switch k {
	case "IMPORTANCE", "TIMESTAMP", "DATE", "TAGS", "WEIGHT", "ID":
		return true
	}
	return false
}

func canonicalEntryKey(k string) string {
	if k == "DATE" {
		return "TIMESTAMP"
	}
	return k
}

// entryFromFields builds an entry from its fields and the lines of its
// body; extra lists keys also allowed (the archive adds its own). how says
// what was read leniently. An entry with no date is returned with a zero
// Date, for the caller to date.
func entryFromFields(e *Entry, fields fieldList, body []string, extra map[string]bool) (*Entry, []string, error) {
	var how []string
	// A tag line has a handful of fields: a linear look back for a repeat
	// costs less than a map for every entry.
	for i, f := range fields {
		k := canonicalEntryKey(f.key)
		if !entryField(k) && !extra[k] {
			return nil, nil, fmt.Errorf("unknown field [%s:...]", f.key)
		}
		for _, before := range fields[:i] {
			if canonicalEntryKey(before.key) == k {
				return nil, nil, fmt.Errorf("field %s appears twice", k)
			}
		}
	}
	imp, ok := fields.get("IMPORTANCE")
	if !ok {
		return nil, nil, errors.New("no IMPORTANCE field")
	}
	n, err := strconv.Atoi(imp)
	if err != nil {
		// "4/5", "4 (significant)": the number the value starts with.
		if d := leadingDigits(imp); d != "" && len(d) < len(imp) && !strings.ContainsRune(".,", rune(imp[len(d)])) {
			n, err = strconv.Atoi(d)
			how = append(how, fmt.Sprintf("importance %q read as %d", imp, n))
		}
	}
	if err != nil || n < 1 || n > 5 {
		return nil, nil, fmt.Errorf("IMPORTANCE %q is not a whole number from 1 to 5", imp)
	}
	e.Importance = n
	date, ok := fields.get("TIMESTAMP")
	if !ok {
		date, ok = fields.get("DATE")
	}
	if ok && date != "" {
		d, ok := ParseDate(date)
		if !ok {
			return nil, nil, fmt.Errorf("TIMESTAMP %q is not a date (YYYY-MM-DD)", date)
		}
		if date != d.Format(dateLayout) {
			how = append(how, fmt.Sprintf("date %q read as %s", date, d.Format(dateLayout)))
		}
		e.Date = d
	}
	if tags, ok := fields.get("TAGS"); ok {
		e.Tags = splitTagList(tags, &how)
	}
	if w, ok := fields.get("WEIGHT"); ok {
		if v, ok := leadingNumber(w); ok && v >= 0 && v <= 100 {
			e.Weight = Weight(v*100 + 0.5)
			e.HasWeight = true
			var buf [24]byte
			canon := e.Weight.appendTo(buf[:0]) // compared in place, not made a string
			if w != string(canon) && strings.TrimRight(strings.TrimRight(w, "0"), ".") != strings.TrimRight(strings.TrimRight(string(canon), "0"), ".") {
				how = append(how, fmt.Sprintf("weight %q read as %s", w, e.Weight))
			}
		}
	}
	if id, ok := fields.get("ID"); ok {
		id = strings.ToLower(id)
		if !validID(id) {
			return nil, nil, fmt.Errorf("ID %q is not 1-32 letters, digits or dashes", id)
		}
		e.ID = id
	}
	e.Text = neutralizeBody(body)
	if e.Text == "" {
		return nil, nil, errNoSummary
	}
	return e, how, nil
}

var errNoSummary = errors.New("no summary on the tag line or the line after it")

// splitTagList reads a TAGS value: comma-separated, or "#tag #tag" with
// spaces between; a '#' before a tag is dropped.
func splitTagList(s string, how *[]string) []string {
	if !strings.Contains(s, "#") {
		return SplitTags(s)
	}
	*how = appendOnce(*how, "'#' dropped from tags")
	return NormalizeTags(strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '#' || unicode.IsSpace(r) }))
}

// leadingNumber reads the number a value starts with: "4.0 (floor)" is 4.
func leadingNumber(s string) (float64, bool) {
	n := 0
	for n < len(s) && (s[n] >= '0' && s[n] <= '9' || s[n] == '.') {
		n++
	}
	v, err := strconv.ParseFloat(s[:n], 64)
	return v, err == nil
}

var patternFields = map[string]bool{"PATTERN": true, "OBSERVATIONS": true, "OBS": true, "FIRST": true, "LAST": true, "TAGS": true, "EVIDENCE": true, "ID": true}

// patternFromFields builds a pattern from its fields and the lines of its
// body; how says what was read leniently.
func patternFromFields(fields fieldList, body []string) (*Pattern, []string, error) {
	var how []string
	seen := map[string]bool{}
	for _, f := range fields {
		k := f.key
		switch k {
		case "OBS":
			k = "OBSERVATIONS"
		case "CONFIDENCE":
			k = "PATTERN"
		}
		if !patternFields[k] && !archiveFields[k] {
			return nil, nil, fmt.Errorf("unknown field [%s:...]", f.key)
		}
		if seen[k] {
			return nil, nil, fmt.Errorf("field %s appears twice", k)
		}
		seen[k] = true
	}
	pt := &Pattern{}
	lvl, ok := fields.get("PATTERN")
	if !ok {
		lvl, _ = fields.get("CONFIDENCE")
	}
	pt.Level = Level(strings.ToUpper(lvl))
	if pt.Level != Emerging && pt.Level != Developing && pt.Level != Established {
		return nil, nil, fmt.Errorf("level %q is not EMERGING, DEVELOPING or ESTABLISHED", lvl)
	}
	if tags, ok := fields.get("TAGS"); ok {
		pt.Tags = splitTagList(tags, &how)
	}
	if ev, ok := fields.get("EVIDENCE"); ok {
		for _, id := range strings.Split(ev, ",") {
			id = strings.ToLower(strings.TrimSpace(id))
			if id == "" {
				continue
			}
			if !validID(id) {
				return nil, nil, fmt.Errorf("evidence ID %q is not 1-32 letters, digits or dashes", id)
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
		if err != nil {
			// "7 (since Nov)": the count the value starts with.
			if d := leadingDigits(obs); d != "" {
				n, err = strconv.Atoi(d)
				how = append(how, fmt.Sprintf("observations %q read as %d", obs, n))
			}
		}
		if err != nil || n < 0 {
			return nil, nil, fmt.Errorf("OBSERVATIONS %q is not a count", obs)
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
			return nil, nil, fmt.Errorf("%s %q is not a date (YYYY-MM-DD)", k, v)
		}
		if v != d.Format(dateLayout) {
			how = append(how, fmt.Sprintf("%s %q read as %s", k, v, d.Format(dateLayout)))
		}
		if k == "FIRST" {
			pt.First = d
		} else {
			pt.Last = d
		}
	}
	if id, ok := fields.get("ID"); ok {
		id = strings.ToLower(id)
		if !validID(id) {
			return nil, nil, fmt.Errorf("ID %q is not 1-32 letters, digits or dashes", id)
		}
		pt.ID = id
	}
	pt.Text = neutralizeBody(body)
	if pt.Text == "" {
		pt.Text = autoSentence(pt)
	}
	return pt, how, nil
}
