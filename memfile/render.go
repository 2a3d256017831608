package memfile

import (
	"bytes"
	"cmp"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// currentVersion is the protocol version new headers carry.
const currentVersion = "2.0-cc"

// Render writes a File in the canonical form; Render(Parse(Render(f)))
// is byte-identical, so passes never churn the file.
func Render(f *File) []byte {
	var out bytes.Buffer
	fmt.Fprintf(&out, "<!-- BIMRI v%s | Last Maintained: %s | Sessions: %d | Token Est: ~%d -->\n",
		cmp.Or(f.Header.Version, currentVersion), cmp.Or(Day(f.Header.LastMaintained), "YYYY-MM-DD"), f.Header.Sessions, f.Header.TokenEst)
	walk(f, func(_ int, s string) {
		out.WriteString(s)
		out.WriteByte('\n')
	})
	return out.Bytes()
}

// walk gives line each line Render writes after the header, with its
// tier (0 outside the tiers): Render writes them, Estimate counts them.
func walk(f *File, line func(tier int, s string)) {
	line(0, cmp.Or(f.Header.DueLine, dueLine(DefaultConfig())))
	for _, l := range f.Preamble {
		line(0, l)
	}
	line(0, "")
	line(0, titleLine)
	line(0, "")
	for _, b := range f.Intro {
		blockLines(b, func(s string) { line(0, s) })
	}
	for i, s := range f.Tiers {
		line(i+1, tierTitles[i])
		comments := s.Comments
		if comments == nil {
			comments = templateComments(DefaultConfig(), i+1)
		}
		for _, c := range comments {
			line(i+1, c)
		}
		line(i+1, "")
		for _, b := range s.Blocks {
			blockLines(b, func(s string) { line(i+1, s) })
		}
	}
	line(0, endMarker)
	for _, l := range f.Trailer {
		line(0, l)
	}
}

// blockLines gives line a block's lines and the blank line after it; an
// entry's or a pattern's text is one, however many lines it holds.
func blockLines(b Block, line func(string)) {
	switch {
	case b.Entry != nil:
		line(entryLine(b.Entry))
		line(b.Entry.Text)
	case b.Pattern != nil:
		line(patternLine(b.Pattern))
		line(b.Pattern.Text)
	case b.Note != nil:
		for _, l := range b.Note.Lines {
			line(l)
		}
	}
	line("")
}

// Tokens is an estimate of a file's size in model tokens.
type Tokens struct {
	Tiers [3]int // each tier's heading, comments and blocks
	Total int    // the whole file except the header line itself
}

// Estimate measures a file as Render would write it: every line costs
// ceil(code points / 4) tokens, the usual rule of thumb, line by line so
// the budget check can drop blocks without rendering again.
func Estimate(f *File) Tokens {
	var t Tokens
	walk(f, func(tier int, s string) {
		n := lineTokens(s)
		t.Total += n
		if tier > 0 {
			t.Tiers[tier-1] += n
		}
	})
	return t
}

func lineTokens(s string) int { return (utf8.RuneCountInString(s) + 3) / 4 }

func blockTokens(b Block) (n int) {
	blockLines(b, func(s string) { n += lineTokens(s) })
	return n
}

// dueLine is the header's second comment, from the config.
func dueLine(cfg Config) string {
	return fmt.Sprintf("<!-- Maintenance Due: After %d sessions or when token estimate exceeds %s -->", cfg.DeepEvery, thousands(cfg.TotalBudget))
}

// templateComments are the comment lines under a tier's heading.
func templateComments(cfg Config, tier int) []string {
	what := [3]string{"Permanent foundational knowledge", "Current work state", "Derived behavioral insights"}
	how := [3]string{"No decay", "Freshness decays per lookup table", "Confidence-scored"}
	rule := [3]string{"Only IMPORTANCE:4 or IMPORTANCE:5 entries belong here.",
		"Ordered by composite weight (highest first). Archive threshold: " + cfg.Threshold.String(),
		LevelRanges("%s (%s obs)", " | ")}
	i := tier - 1
	return []string{fmt.Sprintf("<!-- %s. Budget: ~%s tokens. %s. -->", what[i], thousands(cfg.Budgets[i]), how[i]), "<!-- " + rule[i] + " -->"}
}

// entryLine is an entry's tag line: the protocol's fields in its order,
// then ours.
func entryLine(e *Entry) string {
	var b strings.Builder
	b.WriteString("[IMPORTANCE:" + strconv.Itoa(e.Importance))
	if !e.Date.IsZero() { // read without a date, and no pass has dated it
		b.WriteString("] [TIMESTAMP:" + e.Date.Format(dateLayout))
	}
	b.WriteString("] [TAGS:" + strings.Join(e.Tags, ",") + "]")
	if len(e.Keywords) > 0 {
		b.WriteString(" [KEYWORDS:" + strings.Join(e.Keywords, ",") + "]")
	}
	if e.Agent != "" {
		b.WriteString(" [AGENT:" + e.Agent + "]")
	}
	if e.HasWeight {
		b.WriteString(" [WEIGHT:" + e.Weight.String() + "]")
	}
	b.WriteString(" [ID:" + e.ID + "]")
	if len(e.HoldsWith) > 0 {
		b.WriteString(" [HOLDS_WITH:" + strings.Join(e.HoldsWith, ",") + "]")
	}
	return b.String()
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

// New returns the protocol's empty template with the config's budgets.
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
