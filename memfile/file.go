package memfile

import (
	"cmp"
	"fmt"
	"iter"
	"slices"
	"strings"
	"time"
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
func levelRank(l Level) int {
	switch l {
	case Established:
		return 0
	case Developing:
		return 1
	}
	return 2
}

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

// tierEntries yields Tiers 1 and 2's entries in file order, with tiers.
func (f *File) tierEntries() iter.Seq2[int, *Entry] {
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
	for t, e := range f.tierEntries() {
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
