package memfile

// The parser as it was before the rewrite, kept as the oracle of the differential test.

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

var oldErrCut = fmt.Errorf("%w: %q is missing (the file looks truncated)", ErrUnreadable, oldEndMarker)

const (
	oldTitleLine = "# BIMRI Memory"
	oldEndMarker = "<!-- END BIMRI -->"
)

var oldTierTitles = [3]string{
	"## Tier 1: Core Intelligence",
	"## Tier 2: Active Context",
	"## Tier 3: Pattern Recognition",
}

const (
	oldInPreamble = -1
	oldInIntro    = 0
	oldInTrailer  = 4
)

type oldParser struct {
	f         *File
	warnings  []Warning
	zone      int
	note      *Note
	noteIn    *[]Block
	header    bool
	structure bool
	seenTier  [3]bool
	content   [3]bool
	preamble  bool
	trailer   bool
	untagged  []oldUntaggedPattern
}

func oldParse(data []byte) (*File, []Warning, error) {
	if err := oldCheckReadable(data); err != nil {
		return nil, nil, err
	}

	lines := strings.Split(strings.TrimSuffix(strings.TrimPrefix(string(data), "\uFEFF"), "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, "\r")
	}
	p := &oldParser{f: &File{}, zone: oldInPreamble}
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
	if p.header && p.zone != oldInTrailer {

		return nil, nil, oldErrCut
	}
	if !p.header {
		p.warn(0, "no BIMRI header line; a new one was made (Sessions: 0)")
	}
	p.tagUntagged()
	p.assignIDs()
	return p.f, p.warnings, nil
}

func oldCheckReadable(data []byte) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return fmt.Errorf("%w: the file is empty", ErrUnreadable)
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return fmt.Errorf("%w: the file holds binary data (NUL bytes)", ErrUnreadable)
	}
	if !utf8.Valid(data) {
		if bad := len(data) - len(bytes.ToValidUTF8(data, nil)); bad > 16 {
			return fmt.Errorf("%w: the file is not UTF-8 text (%d invalid bytes)", ErrUnreadable, bad)
		}
	}
	return nil
}

func (p *oldParser) warn(line int, format string, args ...any) {
	p.warnings = append(p.warnings, Warning{Line: line, Message: fmt.Sprintf(format, args...)})
}

func (p *oldParser) convert(line int, format string, args ...any) {
	p.warnings = append(p.warnings, Warning{Line: line, Message: fmt.Sprintf(format, args...), Converted: true})
}

func (p *oldParser) line(lines []string, i int) int {
	raw := lines[i]
	t := strings.TrimSpace(raw)
	lineNo := i + 1

	if p.zone == oldInTrailer {
		if t != "" && !p.trailer {
			p.trailer = true
			p.warn(lineNo, "text after %q; kept as it was", oldEndMarker)
		}
		p.f.Trailer = append(p.f.Trailer, raw)
		return i
	}
	if t == "" {
		p.endNote()

		if p.zone == oldInPreamble && len(p.f.Preamble) > 0 {
			p.f.Preamble = append(p.f.Preamble, raw)
		}
		return i
	}
	if p.structureLine(t, lineNo) {
		return i
	}
	if tier := p.tier(); tier > 0 {

		if !p.content[tier-1] && oldIsTemplateComment(t) {
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

func (p *oldParser) structureLine(t string, lineNo int) bool {
	if p.zone == oldInPreamble && !p.header && strings.HasPrefix(t, "<!--") {
		if m := oldHeaderPattern().FindStringSubmatch(t); m != nil && p.parseHeader(m, lineNo) {
			return true
		}
	}
	if p.zone == oldInPreamble && p.f.Header.DueLine == "" && strings.HasPrefix(t, "<!-- Maintenance Due") {
		p.f.Header.DueLine = t
		p.structure = true
		return true
	}
	var to int
	switch {
	case p.zone == oldInPreamble && strings.EqualFold(t, oldTitleLine):
		to = oldInIntro
	case strings.HasPrefix(t, "##"):
		m := oldTierPattern().FindStringSubmatch(strings.ToLower(t))
		if m == nil {
			return false
		}
		n := int(m[1][0] - '0')
		if p.seenTier[n-1] {
			p.warn(lineNo, "Tier %d heading appears twice; its blocks were joined", n)
		}
		p.seenTier[n-1] = true
		to = n
	case t == oldEndMarker || (strings.HasPrefix(t, "<!--") && strings.EqualFold(strings.Join(strings.Fields(t), " "), oldEndMarker)):
		to = oldInTrailer
	default:
		return false
	}
	p.endNote()
	p.structure = true
	p.zone = to
	return true
}

var (
	oldHeaderPattern = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^<!--\s*BIMRI\s+v?([^\s|]*)\s*\|(.*?)-->$`)
	})

	oldTierPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^##\s*tier\s*([123])\b`) })
)

func (p *oldParser) tier() int {
	if p.zone < 1 || p.zone > 3 {
		return 0
	}
	return p.zone
}

func (p *oldParser) parseHeader(m []string, lineNo int) bool {
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

			digits := oldLeadingDigits(val)
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

func oldIsTemplateComment(t string) bool {
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

func (p *oldParser) addNoteLine(raw string, lineNo int) {
	var dst *[]Block
	switch tier := p.tier(); {
	case tier > 0:
		dst = &p.f.Tiers[tier-1].Blocks
	case p.zone == oldInIntro:
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

func (p *oldParser) noteWarning(lineNo int) {
	if n := len(p.warnings); n > 0 && p.warnings[n-1].Line == lineNo {
		return
	}
	p.warn(lineNo, "not an entry or a pattern; kept as a note where it stood")
}

func (p *oldParser) endNote() {
	p.note = nil
	p.noteIn = nil
	p.preamble = false
}

func (p *oldParser) assignIDs() {
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

func (p *oldParser) item(lines []string, i int, t string) (int, bool) {
	start, ok := oldReadItemStart(t)
	if !ok {
		return i, false
	}
	lineNo := i + 1
	used, body := oldItemBody(lines, i, start.rest)
	var b Block
	var how []string
	var err error
	what, tier := "an entry", p.tier()
	if _, isPattern := start.fields.get("PATTERN"); isPattern {
		if b.Pattern, how, err = oldPatternFromFields(start.fields, body); err != nil {
			p.warn(lineNo, "pattern kept as a note: %v", err)
			return i, false
		}
		if tier != 3 {
			p.warn(lineNo, "pattern outside Tier 3 was moved to Tier 3")
		}
		if start.prose && len(b.Pattern.Tags) == 0 {
			p.untagged = append(p.untagged, oldUntaggedPattern{b.Pattern, lineNo})
		}
		what, tier = "a pattern", 3
	} else {
		if b.Entry, how, err = oldEntryFromFields(start.fields, body, nil); err != nil {
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

func oldItemBody(lines []string, i int, summary string) (int, []string) {
	used := i
	if summary == "" && i+1 < len(lines) && oldIsSummaryLine(lines[i+1]) {
		summary = strings.TrimSpace(lines[i+1])
		used = i + 1
	}
	body := []string{summary}
	if summary != "" {
		for used+1 < len(lines) && oldIsContinuation(lines[used+1]) {
			used++
			body = append(body, strings.TrimSpace(lines[used]))
		}
	}
	return used, body
}

type oldItemStart struct {
	fields oldFieldList
	rest   string
	how    []string
	prose  bool
}

func oldReadItemStart(t string) (oldItemStart, bool) {
	var st oldItemStart
	s := oldUndecorate(t, &st.how)
	if s == "" {
		return st, false
	}
	fields, rest, bold, ok := oldSplitFields(s)
	if !ok {
		return oldReadProsePattern(s, st)
	}
	st.fields = fields
	if bold {
		st.how = append(st.how, "bold markers dropped")
		rest = oldTrimBold(rest)
	}
	st.rest = oldDropSeparator(strings.TrimSpace(rest), &st.how)
	if k := fields.index("CONFIDENCE"); k >= 0 {
		st.fields[k].key = "PATTERN"
		st.how = append(st.how, "CONFIDENCE read as PATTERN")
	}
	return st, true
}

func oldTrimBold(s string) string {
	s = strings.TrimLeft(s, "*_ \t")
	for _, m := range []string{"**", "__"} {
		if t, ok := strings.CutSuffix(strings.TrimRight(s, " \t"), m); ok {
			return strings.TrimRight(t, " \t")
		}
	}
	return s
}

func oldUndecorate(t string, how *[]string) string {
	s := t
	for {
		before := s
		if m := oldListMarkPattern().FindStringIndex(s); m != nil {
			s = s[m[1]:]
			*how = oldAppendOnce(*how, "list marker dropped")
		}
		if len(s) >= 3 && s[0] == '[' && s[2] == ']' && strings.ContainsRune(" xX", rune(s[1])) && (len(s) == 3 || s[3] == ' ') {
			s = strings.TrimLeft(s[3:], " \t")
			*how = oldAppendOnce(*how, "task box dropped")
		}

		if s != "" && s[0] >= 0x80 {
			n := strings.TrimLeft(strings.TrimLeftFunc(s, oldIsMark), " \t")
			if len(n) < len(s) && (strings.HasPrefix(strings.TrimLeft(n, "*_- \t"), "[") || oldProseStart(n)) {
				s = n
				*how = oldAppendOnce(*how, "leading mark dropped")
			}
		}
		if s == before {
			return s
		}
	}
}

var oldListMarkPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:[-*+]|\d+[.)])\s+`) })

func oldIsMark(r rune) bool {
	return unicode.Is(unicode.So, r) || unicode.Is(unicode.Sk, r) || r == '\u200d' || r == '\ufe0f' || r == '\ufe0e' || unicode.Is(unicode.Mn, r)
}

func oldAppendOnce(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

func oldDropSeparator(rest string, how *[]string) string {
	for _, sep := range []string{":", "\u2013", "\u2014", "|"} {
		if r, ok := strings.CutPrefix(rest, sep); ok && (r == "" || r[0] == ' ' || r[0] == '\t') {
			*how = append(*how, fmt.Sprintf("separator %q dropped", sep))
			return strings.TrimSpace(r)
		}
	}
	return rest
}

var oldProsePattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[*_]*\s*(?i:(emerging|developing|established))\b\s*([*_]*)\s*(?:[(\[]\s*(\d+)\s*(?i:obs|observations?)\.?\s*[)\]])?\s*([*_]*)\s*([:\x{2013}\x{2014}-]?)\s*(.*)$`)
})

func oldProseStart(s string) bool {
	s = strings.TrimLeft(s, "*_")
	return len(s) >= 8 && strings.ContainsRune("EeDd", rune(s[0])) && oldProsePattern().MatchString(s)
}

func oldReadProsePattern(s string, st oldItemStart) (oldItemStart, bool) {
	if !oldProseStart(s) {
		return st, false
	}
	m := oldProsePattern().FindStringSubmatch(s)
	level, count, sep := m[1], m[3], m[5]
	bold := m[2] != "" || m[4] != "" || strings.HasPrefix(s, "*") || strings.HasPrefix(s, "_")
	if count == "" && (level != strings.ToUpper(level) || (sep == "" && !bold)) {
		return st, false
	}
	st.prose = true
	st.fields = oldFieldList{{key: "PATTERN", val: strings.ToUpper(level)}}
	if count != "" {
		st.fields = append(st.fields, oldField{key: "OBSERVATIONS", val: count})
	}
	rest := strings.TrimSpace(m[6])
	if bold {
		rest = oldTrimBold(rest)
	}

	if more, r, _, ok := oldSplitFields(rest); ok {
		for _, f := range more {
			if _, dup := st.fields.get(f.key); !dup {
				st.fields = append(st.fields, f)
			}
		}
		rest = strings.TrimSpace(r)
	}
	if _, ok := st.fields.get("TAGS"); !ok {
		if tags := oldHashTags(rest); len(tags) > 0 {
			st.fields = append(st.fields, oldField{key: "TAGS", val: strings.Join(tags, ",")})
			st.how = append(st.how, "tags taken from the #tags in its sentence")
		}
	}
	st.how = append(st.how, fmt.Sprintf("prose pattern %q", strings.TrimSpace(s[:len(s)-len(m[6])])))
	st.rest = rest
	return st, true
}

var oldHashTag = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:^|\s)#([\p{L}\p{N}][\p{L}\p{N}_.-]*)`) })

func oldHashTags(s string) []string {
	var out []string
	for _, m := range oldHashTag().FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return NormalizeTags(out)
}

func oldIsSummaryLine(raw string) bool {
	t := strings.TrimSpace(raw)
	if t == "" || strings.HasPrefix(t, "<!--") || strings.HasPrefix(t, "#") {
		return false
	}
	var how []string
	_, _, _, tagLine := oldSplitFields(oldUndecorate(t, &how))
	return !tagLine
}

func oldIsContinuation(raw string) bool {
	if !oldIsSummaryLine(raw) {
		return false
	}

	return !oldIsProse(raw) && !oldIsProse(neutralize(raw))
}

func oldIsProse(s string) bool {
	var how []string
	_, ok := oldReadProsePattern(oldUndecorate(strings.TrimSpace(s), &how), oldItemStart{})
	return ok
}

type oldUntaggedPattern struct {
	p      *Pattern
	lineNo int
}

func (p *oldParser) tagUntagged() {
	if len(p.untagged) == 0 {
		return
	}
	known := map[string]string{}
	for _, e := range p.f.Entries(2) {
		for _, tag := range e.Tags {
			known[oldStem(tag)] = tag
		}
	}
	for _, u := range p.untagged {
		var found []string
		for _, w := range strings.FieldsFunc(strings.ToLower(u.p.Text), func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '_'
		}) {
			if tag, ok := known[oldStem(w)]; ok && !slices.Contains(found, tag) {
				found = append(found, tag)
			}
		}
		if len(found) == 1 {
			u.p.Tags = found
			p.convert(u.lineNo, "pattern given tag %s, the one entry tag its sentence names", found[0])
		}
	}
}

func oldStem(w string) string {
	for _, suffix := range []string{"ing", "ed", "s"} {
		if s, ok := strings.CutSuffix(w, suffix); ok && len(s) >= 3 {
			return s
		}
	}
	return w
}

func oldValidID(id string) bool {
	return len(id) > 0 && len(id) <= 32 && id[0] != '-' && oldIdChars(id)
}

func oldIdChars(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') })
}

func oldLeadingDigits(s string) string { return s[:len(s)-len(strings.TrimLeft(s, "0123456789"))] }
