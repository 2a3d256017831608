package memfile

// Reading one entry or pattern as people and models write it.

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
)

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
