package memfile

import (
	"errors"
	"fmt"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/bimri/bimri-hook/privacy"
)

// NewEntry is what a caller asks to record.
type NewEntry struct {
	Tier       int // 1 or 2
	Importance int // 1-5
	Date       time.Time
	Tags       []string
	Keywords   []string // normalised by Keywords
	Text       string
	Agent      string // the client recording it, "" for Claude Code
}

// maxKeywords bounds a new entry's keywords; the agent is asked for two
// or three.
const maxKeywords = 5

// Keywords cleans (a key is a key wherever it stands) and normalises a
// new entry's keywords as tags, refusing a long one or too many.
func Keywords(list []string) ([]string, error) {
	out := make([]string, 0, len(list))
	for _, k := range list {
		n := normalTag(privacy.Clean(k))
		if len(n) > maxTagBytes {
			return nil, fmt.Errorf("keyword %q is too long: a keyword is a word or two, at most %d bytes", n, maxTagBytes)
		}
		if n != "" {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	out = slices.Compact(out)
	if len(out) > maxKeywords {
		return nil, fmt.Errorf("%d keywords, over the limit of %d: give the two or three words a later question would use", len(out), maxKeywords)
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

// Add records an entry, its text cleaned of private spans and secrets (a
// file can be committed) and neutralised, a long one refused, never cut.
// The same text on the same day updates the first entry. It returns the
// entry as stored and whether it was new.
func (f *File) Add(n NewEntry) (*Entry, bool, error) {
	if n.Tier != 1 && n.Tier != 2 {
		return nil, false, fmt.Errorf("tier %d: entries go in Tier 1 or Tier 2", n.Tier)
	}
	if n.Importance < 1 || n.Importance > 5 {
		return nil, false, fmt.Errorf("importance %d is not from 1 to 5", n.Importance)
	}
	if n.Tier == 1 && n.Importance < 4 {
		return nil, false, fmt.Errorf("importance %d is too low for Tier 1, which holds only 4 and 5", n.Importance)
	}
	text := neutralize(privacy.Clean(n.Text))
	if text == "" {
		return nil, false, errors.New("the entry's text is empty (after removing private text)")
	}
	if n := utf8.RuneCountInString(text); n > MaxTextRunes {
		return nil, false, fmt.Errorf("the entry's text is %d characters, over the limit of %d: record a one-line summary (or split it into several entries)", n, MaxTextRunes)
	}
	date := civil(n.Date)
	// Tags are cleaned one by one too: a key pasted as a tag is still a key.
	tags := make([]string, len(n.Tags))
	for i, t := range n.Tags {
		tags[i] = privacy.Clean(t)
	}
	keywords, err := Keywords(n.Keywords)
	if err != nil {
		return nil, false, err
	}
	if !validAgent(n.Agent) {
		return nil, false, fmt.Errorf("agent %q is not a short lower-case name", n.Agent)
	}
	e := &Entry{Importance: n.Importance, Date: date, Tags: NormalizeTags(tags), Keywords: keywords, Text: text, Agent: n.Agent}
	// Found by date and text, not the ID they give: a person may have
	// written it, or a merge moved the entry to a newer date.
	want := normalText(text)
	for _, old := range f.tierEntries() {
		if old.Date.Equal(date) && normalText(old.Text) == want {
			old.Importance = max(old.Importance, e.Importance)
			old.Tags = NormalizeTags(append(old.Tags, e.Tags...))
			old.Keywords = NormalizeTags(append(old.Keywords, e.Keywords...))
			// The first writer stays the one who recorded it.
			return old, false, nil
		}
	}
	e.ID = uniqueID("", EntryID(date, text), f.idsInUse())
	if n.Tier == 1 {
		e.Weight = Weight(e.Importance * 100)
		e.HasWeight = true
	}
	f.Tiers[n.Tier-1].Blocks = append(f.Tiers[n.Tier-1].Blocks, Block{Entry: e})
	return e, true, nil
}

// Remember is Add with the entry weighed, as the remember command records.
func (f *File) Remember(n NewEntry, cfg Config) (*Entry, bool, error) {
	e, isNew, err := f.Add(n)
	if err != nil {
		return nil, false, err
	}
	e.Weigh(n.Tier, n.Date, cfg)
	return e, isNew, nil
}

// Weigh sets e's weight as a pass would, so it shows before the next one.
func (e *Entry) Weigh(tier int, today time.Time, cfg Config) {
	e.Weight = Score(*e, tier, today, cfg).Weight
	e.HasWeight = true
}

// idsInUse are the IDs of every entry and pattern in f.
func (f *File) idsInUse() map[string]bool {
	taken := map[string]bool{}
	for _, e := range f.tierEntries() {
		taken[e.ID] = true
	}
	for _, p := range f.Patterns() {
		taken[p.ID] = true
	}
	return taken
}

// Remove takes an entry, a pattern or a note (by NoteID) out of the file
// and returns it as an archive record; the caller archives it.
func (f *File) Remove(id, reason string) (Removal, bool) {
	for t := 1; t <= 3; t++ {
		s := &f.Tiers[t-1]
		for i, b := range s.Blocks {
			if (b.Entry != nil && b.Entry.ID == id) || (b.Pattern != nil && b.Pattern.ID == id) || (b.Note != nil && NoteID(b.Note) == id) {
				s.Blocks = append(s.Blocks[:i:i], s.Blocks[i+1:]...)
				return Removal{Tier: t, Entry: b.Entry, Pattern: b.Pattern, Note: b.Note, Reason: reason}, true
			}
		}
	}
	return Removal{}, false
}

// Revive brings an archived entry back into Tier 2, dated today; the
// archive keeps its record. An ID already in the file is refused.
func (f *File) Revive(r ArchiveRecord, today time.Time) (*Entry, error) {
	if r.Entry == nil {
		return nil, errors.New("only an archived entry can be revived, not a pattern")
	}
	if e, _ := f.Find(r.Entry.ID); e != nil || f.FindPattern(r.Entry.ID) != nil {
		return nil, fmt.Errorf("%s is already in the memory file", r.Entry.ID)
	}
	e := r.Entry.clone()
	e.Date = civil(today)
	e.Weight, e.HasWeight = 0, false
	f.Tiers[1].Blocks = append(f.Tiers[1].Blocks, Block{Entry: e})
	return e, nil
}
