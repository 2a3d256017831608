package memfile

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"iter"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
)

// File is a parsed bimri.md: entries and patterns as typed values,
// anything else as Notes, so Render gives every line back.
type File struct {
	Header   Header
	Preamble []string   // lines before "# BIMRI Memory" that are not the header
	Intro    []Block    // notes between "# BIMRI Memory" and Tier 1
	Tiers    [3]Section // Tier 1, 2 and 3
	Trailer  []string   // lines after "<!-- END BIMRI -->", kept as they were
}

// Header is the first two comment lines of the file.
type Header struct {
	Version        string    // "2.0-cc"
	LastMaintained time.Time // zero until the first pass
	Sessions       int
	TokenEst       int
	DueLine        string // the "Maintenance Due" comment, as rendered
}

// Section is one tier: its comment lines and its blocks in file order.
type Section struct {
	Comments []string // the template comments under the heading
	Blocks   []Block
}

// Block is one item of a section: exactly one of its fields is set.
type Block struct {
	Entry   *Entry
	Pattern *Pattern
	Note    *Note
}

// Entry is one memory: the protocol's tag line plus its summary.
type Entry struct {
	ID         string
	Importance int
	Date       time.Time
	Tags       []string
	Keywords   []string // words a later question would use: recall searches them, the view never shows them
	HoldsWith  []string // older entries the agent said still hold beside this one
	Agent      string   // the agent that recorded it, "" for Claude Code
	Weight     Weight
	HasWeight  bool // false when the file gave no WEIGHT and no pass has run
	Text       string
}

// Level is a pattern's confidence.
type Level string

const (
	Emerging    Level = "EMERGING"
	Developing  Level = "DEVELOPING"
	Established Level = "ESTABLISHED"
)

// The observation counts at which a pattern reaches a level.
const (
	developingAt  = 3
	establishedAt = 6
)

// levelFor maps an observation count to the protocol's level.
func levelFor(observations int) Level {
	switch {
	case observations >= establishedAt:
		return Established
	case observations >= developingAt:
		return Developing
	default:
		return Emerging
	}
}

// LevelRanges says which counts give which level: "EMERGING (1-2 obs) |
// ..." with format "%s (%s obs)" and sep " | ".
func LevelRanges(format, sep string) string {
	return fmt.Sprintf(format, Emerging, fmt.Sprintf("1-%d", developingAt-1)) + sep +
		fmt.Sprintf(format, Developing, fmt.Sprintf("%d-%d", developingAt, establishedAt-1)) + sep +
		fmt.Sprintf(format, Established, fmt.Sprintf("%d+", establishedAt))
}

// levelRank orders levels for sorting, strongest first.
func levelRank(l Level) int { return 2 - slices.Index([]Level{Emerging, Developing, Established}, l) }

// Pattern is a Tier 3 insight: a tag (or tags) that recurs across entries.
type Pattern struct {
	ID           string
	Level        Level
	Observations int
	First, Last  time.Time
	Tags         []string
	Evidence     []string // IDs of the entries behind it, oldest first, at most maxEvidence
	Text         string
}

// Note is text that is not an entry or a pattern, kept word for word.
type Note struct {
	Lines []string
	Line  int // where it started in the text Parse read, 1-based; 0 if not read
}

// NoteID names a note by its text, spacing and case aside, so the view
// can show it and forget remove it.
func NoteID(n *Note) string {
	return hashID("n", "note\n"+normalText(strings.Join(n.Lines, "\n")))
}

// Warning is something Parse or a pass wants a person to know.
type Warning struct {
	Line      int // 1-based line in the parsed input; 0 when not about a line
	Message   string
	Converted bool // read leniently, not a problem: the next write makes it canonical
}

func (w Warning) String() string {
	if w.Line > 0 {
		return "line " + itoa(w.Line) + ": " + w.Message
	}
	return w.Message
}

// Unread returns the notes of Tier 2 and 3, which the view marks unread.
func (f *File) Unread() []*Note {
	note := func(b Block) *Note { return b.Note }
	return append(blockItems(f.Tiers[1].Blocks, note), blockItems(f.Tiers[2].Blocks, note)...)
}

// blockItems lists the items item picks out of blocks, in order.
func blockItems[T any](blocks []Block, item func(Block) *T) []*T {
	var out []*T
	for _, b := range blocks {
		if x := item(b); x != nil {
			out = append(out, x)
		}
	}
	return out
}

// Entries returns the entries of a tier (1, 2 or 3) in file order.
func (f *File) Entries(tier int) []*Entry {
	return blockItems(f.Tiers[tier-1].Blocks, func(b Block) *Entry { return b.Entry })
}

// TierEntries yields Tiers 1 and 2's entries in file order, with tiers.
func (f *File) TierEntries() iter.Seq2[int, *Entry] {
	return func(yield func(int, *Entry) bool) {
		for t := 1; t <= 2; t++ {
			for _, b := range f.Tiers[t-1].Blocks {
				if b.Entry != nil && !yield(t, b.Entry) {
					return
				}
			}
		}
	}
}

// Patterns returns the Tier 3 patterns in file order.
func (f *File) Patterns() []*Pattern {
	return blockItems(f.Tiers[2].Blocks, func(b Block) *Pattern { return b.Pattern })
}

// Find returns the entry with an ID and its tier, or nil.
func (f *File) Find(id string) (*Entry, int) {
	for t, e := range f.TierEntries() {
		if e.ID == id {
			return e, t
		}
	}
	return nil, 0
}

// FindPattern returns the pattern with an ID, or nil.
func (f *File) FindPattern(id string) *Pattern {
	for _, p := range f.Patterns() {
		if p.ID == id {
			return p
		}
	}
	return nil
}

// Clone returns a deep copy, so a pass never changes its input.
func (f *File) Clone() *File {
	c := *f
	c.Preamble = slices.Clone(f.Preamble)
	c.Trailer = slices.Clone(f.Trailer)
	c.Intro = cloneBlocks(f.Intro)
	for i := range f.Tiers {
		c.Tiers[i].Comments = slices.Clone(f.Tiers[i].Comments)
		c.Tiers[i].Blocks = cloneBlocks(f.Tiers[i].Blocks)
	}
	return &c
}

func (e *Entry) clone() *Entry {
	c := *e
	c.Tags = slices.Clone(e.Tags)
	c.Keywords = slices.Clone(e.Keywords)
	c.HoldsWith = slices.Clone(e.HoldsWith)
	return &c
}

// absorb gives e the higher importance, newer date, united lists and an
// agent of both.
func (e *Entry) absorb(other *Entry) {
	e.Importance = max(e.Importance, other.Importance)
	e.Date = later(e.Date, other.Date)
	e.Tags = NormalizeTags(append(e.Tags, other.Tags...))
	e.Keywords = NormalizeTags(append(e.Keywords, other.Keywords...))
	e.HoldsWith = normalIDs(append(e.HoldsWith, other.HoldsWith...))
	e.Agent = cmp.Or(e.Agent, other.Agent)
}

func cloneBlocks(bs []Block) []Block {
	out := make([]Block, len(bs))
	for i, b := range bs {
		switch {
		case b.Entry != nil:
			out[i].Entry = b.Entry.clone()
		case b.Pattern != nil:
			p := *b.Pattern
			p.Tags = slices.Clone(p.Tags)
			p.Evidence = slices.Clone(p.Evidence)
			out[i].Pattern = &p
		case b.Note != nil:
			out[i].Note = &Note{Lines: slices.Clone(b.Note.Lines), Line: b.Note.Line}
		}
	}
	return out
}

// File names in a workspace.
const (
	MemoryName  = "bimri.md"
	BackupName  = "bimri-backup.md"
	ArchiveName = "bimri-archive.md"
)

// Caps on what is read, so a file gone wrong (or a link to /dev/zero)
// cannot fill memory: each is far above what the file reaches in use.
const (
	MaxMemorySize  = 16 << 20 // bimri.md, its backup and merge inputs
	MaxArchiveSize = 64 << 20 // append-only: decades of archived entries
)

// MaxTextRunes bounds a new entry's text: a longer one would crowd the
// view, so Add refuses it. Text read from a file is never cut.
const MaxTextRunes = 600

var (
	// tagLookalike matches "[KEY:" and "[ KEY :" anywhere, every key the
	// parser would accept and some more: inside a summary it could read
	// back as a field.
	tagLookalike = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\[([\s\p{Z}]*[\p{L}_][\p{L}_ ]*[\s\p{Z}]*:)`)
	})
)

// collapseSpaces replaces each run of ASCII white space (the \s of
// regular expressions) inside s with repl; every caller trims s's ends.
func collapseSpaces(s, repl string) string {
	if repl == " " && !strings.ContainsAny(s, "\t\n\f\r") && !strings.Contains(s, "  ") {
		return s // nearly every line: nothing to collapse
	}
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(" \t\n\f\r", r) }), repl)
}

// neutralize makes a summary safe to store: one line, valid UTF-8, nothing
// the parser would take for structure. neutralize is idempotent, which
// the round-trip fuzz test relies on.
func neutralize(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || r == '\uFEFF' {
			return ' '
		}
		return r
	}, s)
	s = strings.TrimSpace(collapseSpaces(s, " "))
	// Comments could end the file early ("<!-- END BIMRI -->") or hide text.
	s = strings.ReplaceAll(s, "<!--", "<!- -")
	s = strings.ReplaceAll(s, "-->", "- ->")
	if strings.IndexByte(s, '[') >= 0 {
		s = tagLookalike().ReplaceAllString(s, "($1")
	}
	// A leading '#' would make a heading.
	if strings.HasPrefix(s, "#") {
		s = `\` + s
	}
	return s
}

// neutralizeBody neutralises each line of a body, dropping empty ones:
// the body keeps its lines and none can become structure.
func neutralizeBody(lines []string) string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		if n := neutralize(l); n != "" {
			out = append(out, n)
		}
	}
	return strings.Join(out, "\n")
}

// NormalizeTags lower-cases tags, dashes spaces, drops other characters
// than letters, digits, '-', '_' and '.', drops empty, long and repeated
// ones, and sorts them so one set always renders the same.
func NormalizeTags(tags []string) []string {
	var out []string
	for _, t := range tags {
		if t = normalTag(t); t != "" && len(t) <= maxTagBytes {
			if out == nil {
				out = make([]string, 0, len(tags))
			}
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// maxTagBytes is the longest a tag (or a keyword) is kept.
const maxTagBytes = 40

// normalTag is one tag as NormalizeTags writes it, whatever its length.
func normalTag(t string) string {
	t = strings.ToLower(strings.TrimSpace(t))
	t = collapseSpaces(t, "-")
	t = strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || r == '.' {
			return r
		}
		return -1
	}, t)
	return strings.Trim(t, "-_.")
}

// SplitTags splits a comma-separated tag list and normalises it.
func SplitTags(s string) []string {
	return NormalizeTags(strings.Split(s, ","))
}

// normalText is the form texts are compared in: case, spacing and
// trailing punctuation aside.
func normalText(s string) string {
	s = strings.ToLower(collapseSpaces(strings.TrimSpace(s), " "))
	return strings.TrimRight(s, ".!;: ")
}

// EntryID derives an entry's ID from its date and text, so two machines
// recording the same thing on one day agree.
func EntryID(date time.Time, text string) string {
	return hashID("", date.Format(dateLayout)+"\n"+normalText(text))
}

// patternID derives a pattern's ID from its tags.
func patternID(tags []string) string {
	return hashID("p", "pattern\n"+strings.Join(tags, ","))
}

// hashID is the first 8 hex digits of s's SHA-256, prefix in front.
func hashID(prefix, s string) string {
	sum := sha256.Sum256([]byte(s))
	return prefix + hex.EncodeToString(sum[:4])[:8-len(prefix)]
}

// uniqueID returns id, or when it is taken, a derived one that is not,
// deterministically.
func uniqueID(prefix, id string, taken map[string]bool) string {
	for n := 2; taken[id]; n++ {
		id = hashID(prefix, id+"#"+strconv.Itoa(n))
	}
	taken[id] = true
	return id
}

const dateLayout = "2006-01-02"

// Day is a date as the file writes it (YYYY-MM-DD), "" for none.
func Day(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(dateLayout)
}

// dateLayouts are the other ways models write a date (Go matches month
// names in any case).
var dateLayouts = []string{
	"2006-1-2", "2006/1/2", "2006.1.2",
	"Jan 2, 2006", "Jan 2 2006", "January 2, 2006", "January 2 2006",
	"2 Jan 2006", "2 Jan, 2006", "2 January 2006", "2 January, 2006", "2-Jan-2006",
}

// ParseDate reads a calendar date: YYYY-MM-DD or one of dateLayouts,
// perhaps followed by a time of day, which is ignored.
func ParseDate(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if len(s) > 10 && (s[10] == 'T' || s[10] == ' ') {
		s = s[:10]
	}
	if t, err := time.Parse(dateLayout, s); err == nil {
		return t, true
	}
	if s == "" {
		return time.Time{}, false
	}
	// A numeric date with a time: cut at the 'T' or the first space.
	if s[0] >= '0' && s[0] <= '9' {
		if i := strings.IndexAny(s, "T "); i >= 8 && strings.IndexAny(s[:i], "-/.") > 0 {
			s = s[:i]
		}
	}
	s = collapseSpaces(strings.TrimSuffix(s, "."), " ")
	for _, layout := range dateLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

func itoa(n int) string { return strconv.Itoa(n) }

// Weight is a composite weight in hundredths (3.5 is 350): integers keep
// the threshold test exact.
type Weight int

// String shows a weight with one decimal, rounding half up.
func (w Weight) String() string {
	tenths := (int(w) + 5) / 10
	return strconv.Itoa(tenths/10) + "." + strconv.Itoa(tenths%10)
}

// freshnessTable is the protocol's table, read, never computed, so people
// can check it by eye: up to maxDays old (inclusive), the multiplier in
// hundredths.
var freshnessTable = []struct{ maxDays, multiplier int }{
	{1, 100},
	{3, 80},
	{5, 50},
	{10, 35},
	{15, 20},
	{20, 15},
}

const oldestFreshness = 10 // 21+ days

// freshness is the multiplier, in hundredths, for an entry days old (a
// negative age counts as 0).
func freshness(days int) int {
	for _, band := range freshnessTable {
		if days <= band.maxDays {
			return band.multiplier
		}
	}
	return oldestFreshness
}

// DaysBetween counts calendar days from date to today, in Unix seconds:
// Time.Sub saturates at about 292 years.
func DaysBetween(date, today time.Time) int {
	return daysBefore(date, civilUnix(today))
}

// daysBefore is DaysBetween for today's civilUnix, worked out once.
func daysBefore(date time.Time, today int64) int {
	return int((today - civilUnix(date)) / (24 * 60 * 60))
}

// civilUnix is the Unix time of t's calendar date.
func civilUnix(t time.Time) int64 { return civil(t).Unix() }

// civil drops all but the date, so day arithmetic never meets DST.
func civil(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// Scoring explains one entry's weight, for commands to show.
type Scoring struct {
	Tier       int
	Importance int
	Days       int
	Freshness  int    // hundredths; 100 for Tier 1
	Raw        Weight // importance x freshness
	Weight     Weight // after the floor
	Floored    bool   // the floor lifted the weight
	Rule       string // "tier 1 never decays", "floor", "table"
}

// Score computes an entry's weight in a tier on a day under cfg.
func Score(e Entry, tier int, today time.Time, cfg Config) Scoring {
	s := Scoring{Tier: tier, Importance: e.Importance, Days: max(DaysBetween(e.Date, today), 0), Freshness: 100, Rule: "tier 1 never decays"}
	if tier != 1 {
		s.Freshness, s.Rule = freshness(s.Days), "freshness table"
	}
	s.Raw = Weight(e.Importance * s.Freshness)
	s.Weight = s.Raw
	if tier != 1 && e.Importance >= 4 && s.Raw < cfg.Floor {
		s.Weight, s.Floored, s.Rule = cfg.Floor, true, "floor for importance 4 and 5"
	}
	return s
}
