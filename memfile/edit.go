package memfile

import (
	"errors"
	"fmt"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/bimri/bimri-hook/privacy"
)

// What the agent asks of the file: record, remove, revive, consolidate,
// promote, supersede, and the advice that asks for them.

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
	clean := make([]string, len(list))
	for i, k := range list {
		if clean[i] = normalTag(privacy.Clean(k)); len(clean[i]) > maxTagBytes {
			return nil, fmt.Errorf("keyword %q is too long: a keyword is a word or two, at most %d bytes", clean[i], maxTagBytes)
		}
	}
	out := NormalizeTags(clean)
	if len(out) > maxKeywords {
		return nil, fmt.Errorf("%d keywords, over the limit of %d: give the two or three words a later question would use", len(out), maxKeywords)
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
	keywords, err := Keywords(n.Keywords)
	if err != nil {
		return nil, false, err
	}
	if !validAgent(n.Agent) {
		return nil, false, fmt.Errorf("agent %q is not a short lower-case name", n.Agent)
	}
	e := &Entry{Importance: n.Importance, Date: date, Tags: cleanTags(n.Tags), Keywords: keywords, Text: text, Agent: n.Agent}
	// Found by date and text, not the ID they give: a person may have
	// written it, or a merge moved the entry to a newer date.
	want := normalText(text)
	for _, old := range f.TierEntries() {
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

// cleanTags normalises tags cleaned one by one: a key pasted as a tag is
// still a key.
func cleanTags(tags []string) []string {
	clean := make([]string, len(tags))
	for i, t := range tags {
		clean[i] = privacy.Clean(t)
	}
	return NormalizeTags(clean)
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
	for _, e := range f.TierEntries() {
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

// The protocol's compress-and-merge step is the agent's judgment; these
// functions apply it exactly.

// Consolidate replaces entries with one summary the agent wrote: highest
// importance, united tags and keywords, newest date, in Tier 1 when any
// was there. The originals are archived as "consolidated into ID", and
// patterns and HoldsWith that named them name the summary.
func (f *File) Consolidate(ids []string, text string) (*Entry, []Removal, error) {
	if len(ids) < 2 {
		return nil, nil, errors.New("consolidation takes two or more entry IDs")
	}
	olds, tiers, err := f.namedEntries(ids, "", "only entries are consolidated")
	if err != nil {
		return nil, nil, err
	}
	all := &Entry{}
	for _, e := range olds {
		all.absorb(e)
	}
	n := NewEntry{Tier: 2, Importance: all.Importance, Date: all.Date, Tags: all.Tags, Text: text}
	if slices.Contains(tiers, 1) && n.Importance >= 4 {
		n.Tier = 1 // not for a Tier 1 entry of importance 1-3, written by hand
	}
	// Add updates an entry of the same date and text: a summary worded
	// like an original keeps that entry.
	summary, _, err := f.Add(n)
	if err != nil {
		return nil, nil, err
	}
	summary.Importance = n.Importance
	// The keywords of all: more than one recorded entry is given.
	summary.Keywords = NormalizeTags(append(summary.Keywords, all.Keywords...))
	summary.HoldsWith = normalIDs(append(summary.HoldsWith, all.HoldsWith...))
	reason := reasonConsolidated + summary.ID
	var gone []Removal
	renamed := map[string]string{}
	for _, e := range olds {
		if e == summary {
			continue
		}
		a, _ := f.Remove(e.ID, reason)
		gone = append(gone, a)
		renamed[e.ID] = summary.ID
	}
	renameEntries(f, renamed)
	return summary, gone, nil
}

// namedEntries are the entries ids name and their tiers; an ID twice, of
// a pattern (whatFor says why not), of nothing, or self is refused.
func (f *File) namedEntries(ids []string, self, whatFor string) ([]*Entry, []int, error) {
	var es []*Entry
	var tiers []int
	for i, id := range ids {
		e, t := f.Find(id)
		switch {
		case id == self:
			return nil, nil, fmt.Errorf("entry %s cannot supersede itself", id)
		case slices.Contains(ids[:i], id):
			return nil, nil, fmt.Errorf("entry %s is named twice", id)
		case e == nil && f.FindPattern(id) != nil:
			return nil, nil, fmt.Errorf("%s is a pattern; %s", id, whatFor)
		case e == nil:
			return nil, nil, fmt.Errorf("no entry %s in the memory file", id)
		}
		es, tiers = append(es, e), append(tiers, t)
	}
	return es, tiers, nil
}

// Promote moves a Tier 2 entry to Tier 1, where it never decays.
func (f *File) Promote(id string) (*Entry, error) {
	e, tier := f.Find(id)
	switch {
	case e == nil:
		return nil, fmt.Errorf("no entry %s in the memory file", id)
	case tier == 1:
		return nil, fmt.Errorf("entry %s is already in Tier 1", id)
	case e.Importance < 4:
		return nil, fmt.Errorf("entry %s has importance %d; Tier 1 holds only 4 and 5", id, e.Importance)
	}
	f.Remove(id, "")
	e.Weight = Weight(e.Importance * 100)
	e.HasWeight = true
	f.Tiers[0].Blocks = append(f.Tiers[0].Blocks, Block{Entry: e})
	return e, nil
}

// WritePattern gives the pattern with exactly these tags the agent's
// sentence (a behavioural insight instead of a tag count), creating it
// when new; the next pass counts it.
func (f *File) WritePattern(tags []string, text string, today time.Time) (*Pattern, bool, error) {
	if tags = cleanTags(tags); len(tags) == 0 {
		return nil, false, errors.New("a pattern needs at least one tag (--tags), the entries it is about")
	}
	text = neutralize(privacy.Clean(text))
	if text == "" {
		return nil, false, errors.New("the pattern's sentence is empty (after removing private text)")
	}
	for _, p := range f.Patterns() {
		if slices.Equal(p.Tags, tags) {
			p.Text = text
			return p, false, nil
		}
	}
	taken := f.idsInUse()
	p := &Pattern{Tags: tags, Level: Emerging, Text: text, First: civil(today), Last: civil(today)}
	p.ID = uniqueID("p", patternID(tags), taken)
	f.Tiers[2].Blocks = append(f.Tiers[2].Blocks, Block{Pattern: p})
	return p, true, nil
}

// hasSentence says whether an agent or person wrote the pattern's text.
func (p *Pattern) hasSentence() bool {
	return p.Text != "" && p.Text != autoSentence(p)
}

// Advice is what the memory asks of the agent near its limits.
type Advice struct {
	// Consolidate: the oldest related Tier 2 entries (sharing
	// ConsolidateTag) one summary could replace.
	Consolidate    []string
	ConsolidateTag string
	// Decisions: the oldest related lasting entries of one tier (sharing
	// DecisionsTag) one compact summary could replace.
	Decisions    []string
	DecisionsTag string
	// Promote is a Tier 2 decision Tier 1 has room for.
	Promote string
	// Unnamed are the DEVELOPING or stronger automatic patterns.
	Unnamed []string
	// Tier 2's tokens and budget; what lasts' characters and room.
	Tier2, Budget int
	Lasting, Room int
}

// adviseAt is the share of a limit, in percent, from which the memory
// asks for consolidation and promotion.
const adviseAt = 90

// LastingRoom is the room Tier 1 and the decisions have in the view, and
// Tier 1's part, in characters.
func LastingRoom(cfg Config) (all, tier1 int) {
	return cfg.ContextLimit * viewLastingShare / 100, cfg.ContextLimit * viewTier1Share / 100
}

// lastingDays is how old an importance-5 Tier 2 entry must be to be
// proposed for Tier 1: still true a week on, it lasts.
const lastingDays = 7

// maxConsolidate bounds one consolidation request.
const maxConsolidate = 6

// Unnamed is Advice.Unnamed alone.
func Unnamed(f *File, cfg Config) []string {
	var out []string
	for _, p := range f.Patterns() {
		if p.Level != Emerging && !p.hasSentence() && len(p.Tags) > 0 && !slices.Contains(cfg.IgnoreTags, p.Tags[0]) {
			out = append(out, p.ID) // patterns are kept strongest first
		}
	}
	return out
}

// Advise says what the agent could do for the memory: consolidate routine
// work and promote a decision past adviseAt of Tier 2's budget,
// consolidate decisions past adviseAt of their room in the view, and
// name patterns grown without a sentence.
func Advise(f *File, today time.Time, cfg Config) Advice {
	tok := Estimate(f)
	a := Advice{Tier2: tok.Tiers[1], Budget: cfg.Budgets[1], Unnamed: Unnamed(f, cfg)}
	ignore := cfg.IgnoreTags
	room, tier1Room := LastingRoom(cfg)
	tier1, decisions := Lasting(f)
	a.Lasting, a.Room = tier1+decisions, room
	if a.Lasting*100 >= room*adviseAt || tier1 >= tier1Room {
		a.Decisions, a.DecisionsTag = relatedDecisions(f, today, ignore, tier1 >= tier1Room)
	}
	if tok.Tiers[1]*100 < cfg.Budgets[1]*adviseAt {
		return a
	}
	a.Promote = promotable(f, today, cfg, tok, tier1, a.Decisions)
	a.Consolidate, a.ConsolidateTag = routineGroup(f, today, ignore, func(id string) bool {
		return slices.Contains(a.Decisions, id) || id == a.Promote // each entry is asked about once
	})
	return a
}

// promotable is the oldest importance-5 decision a week old, not asked,
// that fits Tier 1's budget and its part of the view (tier1 used now).
func promotable(f *File, today time.Time, cfg Config, tok Tokens, tier1 int, asked []string) string {
	_, tier1Room := LastingRoom(cfg)
	var lasting []*Entry
	for _, e := range f.Entries(2) {
		if e.Importance >= 5 && DaysBetween(e.Date, today) >= lastingDays {
			lasting = append(lasting, e)
		}
	}
	slices.SortFunc(lasting, byDateID)
	for _, e := range lasting {
		if !slices.Contains(asked, e.ID) && tok.Tiers[0]+blockTokens(Block{Entry: e}) <= cfg.Budgets[0] &&
			(tier1+Length(viewEntry(e, false, ""))+1)*100 <= tier1Room*adviseAt { // in Tier 1, without its weight
			return e.ID
		}
	}
	return ""
}

// routineGroup is what to consolidate: the entry the budget would take
// next that shares a tag with two or more of its kind (importance 5 or
// not, so routine work is never lifted to 5), the oldest of them not yet
// asked, and the tag.
func routineGroup(f *File, today time.Time, ignore []string, asked func(id string) bool) ([]string, string) {
	// Without lastingShare (a budget of 0): old importance-4 work comes
	// before today's routine work, which needs no summary.
	victims := budgetVictims(f, today, 0, nil)
	five := func(e *Entry) int { return min(e.Importance/5, 1) }
	byTag := byKindTag(victims, ignore, five)
	for _, v := range victims {
		best := kindTag{}
		for _, t := range v.Tags {
			k := kindTag{five(v), t}
			if len(byTag[k]) >= 3 && (best.tag == "" || len(byTag[k]) > len(byTag[best])) {
				best = k
			}
		}
		if best.tag == "" {
			continue
		}
		group := slices.SortedFunc(slices.Values(byTag[best]), byDateID)
		var ids []string
		for _, e := range group[:min(len(group), maxConsolidate)] {
			if !asked(e.ID) {
				ids = append(ids, e.ID)
			}
		}
		if len(ids) >= 2 {
			return ids, best.tag
		}
	}
	return nil, ""
}

// relatedDecisions picks the oldest lasting entry sharing a tag with
// another of its tier (Tier 1, or decisions older than the latest work;
// only Tier 1 with onlyTier1) and the others of that tier and tag, oldest
// first, up to maxConsolidate and MaxTextRunes together, so the summary
// can keep what each says.
func relatedDecisions(f *File, today time.Time, ignore []string, onlyTier1 bool) ([]string, string) {
	var all []*Entry
	tierOf := map[*Entry]int{}
	for t, e := range f.TierEntries() {
		if t == 1 || (!onlyTier1 && e.Importance >= 5 && DaysBetween(e.Date, today) > 1) {
			all = append(all, e)
			tierOf[e] = t
		}
	}
	// Grouped after the sort, so every group is oldest first.
	slices.SortFunc(all, byDateID)
	byTag := byKindTag(all, ignore, func(e *Entry) int { return tierOf[e] })
	for _, anchor := range all {
		size := utf8.RuneCountInString(anchor.Text)
		if size >= MaxTextRunes {
			continue
		}
		for _, tag := range anchor.Tags {
			group := byTag[kindTag{tierOf[anchor], tag}]
			if slices.Contains(ignore, tag) || len(group) < 2 {
				continue
			}
			ids, total := []string{anchor.ID}, size
			for _, e := range group {
				n := utf8.RuneCountInString(e.Text)
				if e == anchor || total+n > MaxTextRunes {
					continue
				}
				ids, total = append(ids, e.ID), total+n
				if len(ids) == maxConsolidate {
					break
				}
			}
			if len(ids) >= 2 {
				return ids, tag
			}
		}
	}
	return nil, ""
}

// kindTag is a tag among the entries of one kind.
type kindTag struct {
	kind int
	tag  string
}

// byKindTag lists the entries under each tag not ignored, each kind apart.
func byKindTag(es []*Entry, ignore []string, kind func(*Entry) int) map[kindTag][]*Entry {
	m := map[kindTag][]*Entry{}
	for _, e := range es {
		for _, t := range e.Tags {
			if !slices.Contains(ignore, t) {
				k := kindTag{kind(e), t}
				m[k] = append(m[k], e)
			}
		}
	}
	return m
}

// SupersededPrefix starts the archive reason of an entry a newer one
// replaced: "superseded by NEWID".
const SupersededPrefix = "superseded by "

// Supersede removes the entries ids, Tier 1 included, as replaced by
// newID, an entry of f, with the reason "superseded by NEWID"; nothing
// changes when an ID is not an entry or is newID.
func (f *File) Supersede(ids []string, newID string) ([]Removal, error) {
	if e, _ := f.Find(newID); e == nil {
		return nil, fmt.Errorf("no entry %s in the memory file to supersede with", newID)
	}
	if len(ids) == 0 {
		return nil, errors.New("supersede: no entry to replace")
	}
	if _, _, err := f.namedEntries(ids, newID, "only entries are superseded"); err != nil {
		return nil, err
	}
	gone := make([]Removal, 0, len(ids))
	for _, id := range ids {
		r, _ := f.Remove(id, SupersededPrefix+newID)
		gone = append(gone, r)
	}
	return gone, nil
}
