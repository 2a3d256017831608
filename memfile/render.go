package memfile

import (
	"fmt"
	"strconv"
	"strings"
	"time"
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
	out := renderOut{b: make([]byte, 0, renderSize(f))}
	render(&out, f)
	return out.b
}

// renderPiece is about how much RenderTo gathers before it hands bytes
// on: small enough to stay in the processor's cache and in pages the
// process has touched already, large enough that the system calls a
// writer makes per piece do not count.
const renderPiece = 64 << 10

// RenderTo is Render handing its bytes to emit in pieces, in order: each
// piece ends at a block's end once renderPiece bytes are gathered, and
// the last holds the rest. Their concatenation is Render(f). emit must
// not keep a piece: its bytes are reused for the next. The first error
// emit returns stops the emitting, and RenderTo returns it. The store
// writes a changed file this way, straight into its temporary file, so
// that a large file is never held whole in fresh memory (at 10,000
// entries, 1.8 MB the hook would fault in and the kernel zero).
func RenderTo(f *File, emit func([]byte) error) error {
	out := renderOut{b: make([]byte, 0, renderPiece+renderPiece/4), emit: emit}
	render(&out, f)
	out.flush()
	return out.err
}

// renderOut is where render writes: one buffer for the whole file, or,
// with emit set, pieces handed to emit as they fill (see RenderTo).
type renderOut struct {
	b    []byte
	emit func([]byte) error
	err  error
}

func (o *renderOut) str(s string) { o.b = append(o.b, s...) }
func (o *renderOut) byte(c byte)  { o.b = append(o.b, c) }

// blockEnd is where a piece may end: renderPiece bytes gathered hand on
// what render has written so far.
func (o *renderOut) blockEnd() {
	if o.emit != nil && len(o.b) >= renderPiece {
		o.flush()
	}
}

// flush hands what is gathered to emit, unless an earlier piece failed.
func (o *renderOut) flush() {
	if o.err == nil && len(o.b) > 0 {
		o.err = o.emit(o.b)
	}
	o.b = o.b[:0]
}

func render(out *renderOut, f *File) {
	out.str(headerLine(f.Header))
	out.byte('\n')
	due := f.Header.DueLine
	if due == "" {
		due = dueLine(DefaultConfig())
	}
	out.str(due)
	out.byte('\n')
	for _, l := range f.Preamble {
		out.str(l)
		out.byte('\n')
	}
	out.str("\n" + titleLine + "\n\n")
	writeBlocks(out, f.Intro)
	for i := range f.Tiers {
		writeSection(out, f, i+1)
	}
	out.str(endMarker)
	out.byte('\n')
	for _, l := range f.Trailer {
		out.str(l)
		out.byte('\n')
	}
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
				n += 14 + 9*len(bl.Entry.HoldsWith) // " [HOLDS_WITH:]", IDs of 8
				n += 9 + len(bl.Entry.Agent)        // " [AGENT:]"
				if len(bl.Entry.Keywords) > 0 {
					n += 12 // " [KEYWORDS:]"
					for _, k := range bl.Entry.Keywords {
						n += len(k) + 1
					}
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

func writeSection(out *renderOut, f *File, tier int) {
	s := f.Tiers[tier-1]
	out.str(tierTitles[tier-1])
	out.byte('\n')
	comments := s.Comments
	if comments == nil {
		comments = templateComments(DefaultConfig(), tier)
	}
	for _, c := range comments {
		out.str(c)
		out.byte('\n')
	}
	out.byte('\n')
	writeBlocks(out, s.Blocks)
}

func writeBlocks(out *renderOut, blocks []Block) {
	for _, bl := range blocks {
		switch {
		case bl.Entry != nil:
			out.b = appendEntryLine(out.b, bl.Entry)
			out.byte('\n')
			out.str(bl.Entry.Text)
		case bl.Pattern != nil:
			out.str(patternLine(bl.Pattern))
			out.byte('\n')
			out.str(bl.Pattern.Text)
		case bl.Note != nil:
			for i, l := range bl.Note.Lines {
				if i > 0 {
					out.byte('\n')
				}
				out.str(l)
			}
		}
		out.str("\n\n")
		out.blockEnd()
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
	dst = append(dst, "[IMPORTANCE:"...)
	if e.Importance >= 0 && e.Importance <= 9 {
		dst = append(dst, byte('0'+e.Importance)) // as every valid importance is
	} else {
		dst = strconv.AppendInt(dst, int64(e.Importance), 10)
	}
	// An entry read without a date has none until a pass dates it.
	if !e.Date.IsZero() {
		dst = append(dst, "] [TIMESTAMP:"...)
		dst = appendDate(dst, e.Date)
	}
	dst = append(dst, "] [TAGS:"...)
	dst = appendList(dst, e.Tags)
	dst = append(dst, ']')
	if len(e.Keywords) > 0 {
		dst = append(dst, " [KEYWORDS:"...)
		dst = appendList(dst, e.Keywords)
		dst = append(dst, ']')
	}
	if e.Agent != "" {
		dst = append(dst, " [AGENT:"...)
		dst = append(dst, e.Agent...)
		dst = append(dst, ']')
	}
	if e.HasWeight {
		dst = append(dst, " [WEIGHT:"...)
		dst = e.Weight.appendTo(dst)
		dst = append(dst, ']')
	}
	dst = append(dst, " [ID:"...)
	dst = append(dst, e.ID...)
	dst = append(dst, ']')
	if len(e.HoldsWith) > 0 {
		dst = append(dst, " [HOLDS_WITH:"...)
		dst = appendList(dst, e.HoldsWith)
		dst = append(dst, ']')
	}
	return dst
}

// appendList appends list, comma-separated, to dst.
func appendList(dst []byte, list []string) []byte {
	for i, t := range list {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, t...)
	}
	return dst
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
