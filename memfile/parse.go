package memfile

// The parser: a state machine over the file's zones, line by line;
// parse_item.go reads an item, parse_fields.go a tag line's fields.

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

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
}

// Parse reads a memory file leniently: any line that is not an entry or
// a pattern is kept as a Note where it stood, with a warning; entries
// without an ID get one derived from their date and text. It returns
// ErrUnreadable (wrapped) only for bytes that are not a memory file.
func Parse(data []byte) (*File, []Warning, error) {
	if err := checkReadable(data); err != nil {
		return nil, nil, err
	}
	text := strings.TrimPrefix(string(data), "\uFEFF")
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

// splitLines cuts text into lines, less a last empty one, without their
// trailing "\r"s: Render writes "\n" alone, so they would not read back.
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
	var to zone
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
		to = inTier1 + zone(n-1)
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
	if p.zone < inTier1 || p.zone > inTier3 {
		return 0
	}
	return int(p.zone-inTier1) + 1
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
