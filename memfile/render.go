package memfile

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// currentVersion is the protocol version new headers carry.
const currentVersion = "2.0-cc"

// Render writes a File in the canonical form. Parse(Render(f)) gives f back
// and Render(Parse(Render(f))) is byte-identical: passes never churn the
// file, and diffs show only what changed.
func Render(f *File) []byte {
	// Into bytes sized for the whole file, returned as they are: no
	// doubling while it grows and no copy at the end, which at 10,000
	// entries is several megabytes the hook need not fault in.
	var b bytes.Buffer
	b.Grow(renderSize(f))
	b.WriteString(headerLine(f.Header))
	b.WriteByte('\n')
	due := f.Header.DueLine
	if due == "" {
		due = dueLine(DefaultConfig())
	}
	b.WriteString(due)
	b.WriteByte('\n')
	for _, l := range f.Preamble {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	b.WriteString("\n" + titleLine + "\n\n")
	var dates dateMemo
	writeBlocks(&b, f.Intro, &dates)
	for i := range f.Tiers {
		writeSection(&b, f, i+1, &dates)
	}
	b.WriteString(endMarker)
	b.WriteByte('\n')
	for _, l := range f.Trailer {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// renderSize is about what Render writes, a little over for the usual
// file, so the buffer is allocated once.
func renderSize(f *File) int {
	n := 4096 + linesSize(f.Preamble) + linesSize(f.Trailer)
	for _, blocks := range [][]Block{f.Intro, f.Tiers[0].Blocks, f.Tiers[1].Blocks, f.Tiers[2].Blocks} {
		for _, bl := range blocks {
			switch {
			case bl.Entry != nil:
				// Its tag line (66 bytes of fields for a date of four
				// digits and a weight up to 100.0, then the tags and the
				// ID), a few bytes over, the text and the blank line:
				// lengths only, as the bytes need not be counted to size
				// the buffer.
				n += 80 + len(bl.Entry.ID) + len(bl.Entry.Text) + 3
				for _, t := range bl.Entry.Tags {
					n += len(t) + 1
				}
			case bl.Pattern != nil:
				n += 160 + len(bl.Pattern.ID) + len(bl.Pattern.Text) + 16*len(bl.Pattern.Tags) + 10*len(bl.Pattern.Evidence)
			case bl.Note != nil:
				n += 2 + linesSize(bl.Note.Lines)
			}
		}
	}
	for _, s := range f.Tiers {
		n += linesSize(s.Comments)
	}
	return n
}

func linesSize(lines []string) int {
	n := 0
	for _, l := range lines {
		n += len(l) + 1
	}
	return n
}

func headerLine(h Header) string {
	v := h.Version
	if v == "" {
		v = currentVersion
	}
	last := "YYYY-MM-DD"
	if !h.LastMaintained.IsZero() {
		last = h.LastMaintained.Format(dateLayout)
	}
	return fmt.Sprintf("<!-- BIMRI v%s | Last Maintained: %s | Sessions: %d | Token Est: ~%d -->", v, last, h.Sessions, h.TokenEst)
}

// dueLine is the header's second comment, from the config.
func dueLine(cfg Config) string {
	return fmt.Sprintf("<!-- Maintenance Due: After %d sessions or when token estimate exceeds %s -->", cfg.DeepEvery, thousands(cfg.TotalBudget))
}

// templateComments are the comment lines under each tier heading.
func templateComments(cfg Config, tier int) []string {
	switch tier {
	case 1:
		return []string{
			fmt.Sprintf("<!-- Permanent foundational knowledge. Budget: ~%s tokens. No decay. -->", thousands(cfg.Budgets[0])),
			"<!-- Only IMPORTANCE:4 or IMPORTANCE:5 entries belong here. -->",
		}
	case 2:
		return []string{
			fmt.Sprintf("<!-- Current work state. Budget: ~%s tokens. Freshness decays per lookup table. -->", thousands(cfg.Budgets[1])),
			fmt.Sprintf("<!-- Ordered by composite weight (highest first). Archive threshold: %s -->", cfg.Threshold),
		}
	default:
		return []string{
			fmt.Sprintf("<!-- Derived behavioral insights. Budget: ~%s tokens. Confidence-scored. -->", thousands(cfg.Budgets[2])),
			"<!-- " + LevelRanges("%s (%s obs)", " | ") + " -->",
		}
	}
}

func writeSection(b *bytes.Buffer, f *File, tier int, dates *dateMemo) {
	s := f.Tiers[tier-1]
	b.WriteString(tierTitles[tier-1])
	b.WriteByte('\n')
	comments := s.Comments
	if comments == nil {
		comments = templateComments(DefaultConfig(), tier)
	}
	for _, c := range comments {
		b.WriteString(c)
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	writeBlocks(b, s.Blocks, dates)
}

func writeBlocks(b *bytes.Buffer, blocks []Block, dates *dateMemo) {
	for _, bl := range blocks {
		switch {
		case bl.Entry != nil:
			b.Write(appendEntryLineMemo(b.AvailableBuffer(), bl.Entry, dates))
			b.WriteByte('\n')
			b.WriteString(bl.Entry.Text)
		case bl.Pattern != nil:
			b.WriteString(patternLine(bl.Pattern))
			b.WriteByte('\n')
			b.WriteString(bl.Pattern.Text)
		case bl.Note != nil:
			b.WriteString(strings.Join(bl.Note.Lines, "\n"))
		}
		b.WriteString("\n\n")
	}
}

// entryLine is an entry's tag line in the protocol's order, with the ID
// last so the protocol's own fields read as the protocol shows them.
func entryLine(e *Entry) string {
	return string(appendEntryLine(make([]byte, 0, 96), e))
}

// appendEntryLine appends entryLine's text to dst. Built by hand, not
// with fmt: Render writes it for every entry straight into the file's
// buffer.
func appendEntryLine(dst []byte, e *Entry) []byte {
	return appendEntryLineMemo(dst, e, nil)
}

// appendEntryLineMemo is appendEntryLine with the last date it wrote
// remembered in dates (nil: none), for Render: a pass orders Tier 2 by
// weight, which follows the date, so entries of one day come together.
func appendEntryLineMemo(dst []byte, e *Entry, dates *dateMemo) []byte {
	dst = append(dst, "[IMPORTANCE:"...)
	if e.Importance >= 0 && e.Importance <= 9 {
		dst = append(dst, byte('0'+e.Importance)) // as every valid importance is
	} else {
		dst = strconv.AppendInt(dst, int64(e.Importance), 10)
	}
	// An entry read without a date has none until a pass dates it.
	if !e.Date.IsZero() {
		dst = append(dst, "] [TIMESTAMP:"...)
		dst = dates.appendDate(dst, e.Date)
	}
	dst = append(dst, "] [TAGS:"...)
	for i, t := range e.Tags {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, t...)
	}
	dst = append(dst, ']')
	if e.HasWeight {
		dst = append(dst, " [WEIGHT:"...)
		dst = e.Weight.appendTo(dst)
		dst = append(dst, ']')
	}
	dst = append(dst, " [ID:"...)
	dst = append(dst, e.ID...)
	return append(dst, ']')
}

// dateMemo is the last date appendDate wrote and its text.
type dateMemo struct {
	date time.Time
	text [len(dateLayout)]byte
	set  bool
}

// appendDate is appendDate(dst, date), copied when date is the one
// before (the same instant in the same location: the same text).
func (m *dateMemo) appendDate(dst []byte, date time.Time) []byte {
	if m == nil {
		return appendDate(dst, date)
	}
	if m.set && date == m.date {
		return append(dst, m.text[:]...)
	}
	n := len(dst)
	dst = appendDate(dst, date)
	if len(dst)-n == len(m.text) {
		copy(m.text[:], dst[n:])
		m.date, m.set = date, true
	}
	return dst
}

// entryLineRunes is utf8.RuneCountInString(entryLine(e)) without
// building the line: the budget measures every entry, several times a
// pass. TestEntryLineRunes keeps the two equal.
func entryLineRunes(e *Entry) int {
	var num [24]byte
	n := len("[IMPORTANCE:") + len("] [TAGS:") + len("]") + len(" [ID:") + shortRunes(e.ID) + len("]")
	if e.Importance >= 0 && e.Importance <= 9 {
		n++ // one digit, as every valid importance is
	} else {
		n += len(strconv.AppendInt(num[:0], int64(e.Importance), 10))
	}
	if !e.Date.IsZero() {
		n += len("] [TIMESTAMP:")
		if fourDigitYear(e.Date) {
			n += len(dateLayout)
		} else {
			var date [len(dateLayout) + 16]byte
			n += utf8.RuneCount(e.Date.AppendFormat(date[:0], dateLayout))
		}
	}
	for i, t := range e.Tags {
		if i > 0 {
			n++
		}
		n += shortRunes(t)
	}
	if e.HasWeight {
		n += len(" [WEIGHT:") + weightLen(e.Weight) + len("]")
	}
	return n
}

// shortRunes is utf8.RuneCountInString for a short string such as a tag
// or an ID, nearly always ASCII: a plain loop, which costs less than the
// general count's setup.
func shortRunes(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return i + utf8.RuneCountInString(s[i:])
		}
	}
	return len(s)
}

// fourDigitYear says whether t's year is 0 to 9999, which YYYY-MM-DD
// writes in ten characters. A date in UTC, as Parse and Add make them,
// is placed by its Unix seconds, without working out its calendar.
func fourDigitYear(t time.Time) bool {
	const first, end = -62167219200, 253402300800 // 0000-01-01 and 10000-01-01, UTC
	if t.Location() == time.UTC {
		u := t.Unix()
		return u >= first && u < end
	}
	y := t.Year()
	return y >= 0 && y <= 9999
}

// weightLen is len(w.appendTo(nil)), counted.
func weightLen(w Weight) int {
	tenths := (int(w) + 5) / 10
	if tenths < 0 {
		var num [24]byte
		return len(w.appendTo(num[:0]))
	}
	n := 2 // the point and the tenth
	for whole := tenths / 10; ; whole /= 10 {
		n++
		if whole < 10 {
			return n
		}
	}
}

// patternLine is a pattern's tag line.
func patternLine(p *Pattern) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[PATTERN:%s] [OBSERVATIONS:%d]", p.Level, p.Observations)
	if !p.First.IsZero() {
		fmt.Fprintf(&b, " [FIRST:%s]", p.First.Format(dateLayout))
	}
	if !p.Last.IsZero() {
		fmt.Fprintf(&b, " [LAST:%s]", p.Last.Format(dateLayout))
	}
	fmt.Fprintf(&b, " [TAGS:%s] [EVIDENCE:%s] [ID:%s]", strings.Join(p.Tags, ","), strings.Join(p.Evidence, ","), p.ID)
	return b.String()
}

// thousands writes 6000 as "6,000", as the protocol's template does.
func thousands(n int) string {
	s := itoa(n)
	if n < 0 {
		return s
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// New returns an empty memory file laid out as the protocol's template,
// with the config's budgets in its comments.
func New(cfg Config) *File {
	f := &File{}
	f.Header.Version = currentVersion
	applyConfig(f, cfg)
	f.Header.TokenEst = Estimate(f).Total
	return f
}

// applyConfig writes the config's numbers into the template comments.
func applyConfig(f *File, cfg Config) {
	f.Header.DueLine = dueLine(cfg)
	for t := 1; t <= 3; t++ {
		f.Tiers[t-1].Comments = templateComments(cfg, t)
	}
}
