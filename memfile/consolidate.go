package memfile

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bimri/bimri-hook/privacy"
)

// The protocol's compress-and-merge step is a judgment: which entries say
// one thing, and how to say it in a line. The agent makes it; these
// functions apply it exactly.

// Consolidate replaces entries with one summary the agent wrote: the
// highest importance of them, the union of their tags and keywords, the
// newest date.
// It goes in Tier 1 when any of them was there, else Tier 2. The
// originals leave the file as archive records with the reason
// "consolidated into ID", and patterns that named them name the summary,
// as do the answers that they hold beside another entry (HoldTogether).
func (f *File) Consolidate(ids []string, text string) (*Entry, []Removal, error) {
	if len(ids) < 2 {
		return nil, nil, errors.New("consolidation takes two or more entry IDs")
	}
	olds, tiers, err := f.namedEntries(ids, "", "only entries are consolidated")
	if err != nil {
		return nil, nil, err
	}
	tier := 2
	if slices.Contains(tiers, 1) {
		tier = 1
	}
	n := NewEntry{Tier: tier}
	var tags, keywords, holds []string
	for _, e := range olds {
		n.Importance = max(n.Importance, e.Importance)
		if e.Date.After(n.Date) {
			n.Date = e.Date
		}
		tags = append(tags, e.Tags...)
		keywords = append(keywords, e.Keywords...)
		holds = append(holds, e.HoldsWith...)
	}
	n.Tags = tags
	n.Text = text
	if tier == 1 && n.Importance < 4 {
		n.Tier = 2 // a Tier 1 entry of importance 1-3 was written by hand
	}
	// Add finds an entry with the same date and text and updates it: a
	// summary worded like one of the originals keeps that entry.
	summary, _, err := f.Add(n)
	if err != nil {
		return nil, nil, err
	}
	summary.Importance = n.Importance
	// The keywords of all: they were normal already, and their union may
	// be more than one entry is given when recorded.
	summary.Keywords = NormalizeTags(append(summary.Keywords, keywords...))
	summary.HoldsWith = normalIDs(append(summary.HoldsWith, holds...))
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
	renameEvidence(f, renamed)
	renameHolds(f, renamed)
	return summary, gone, nil
}

// namedEntries are the entries ids name, and their tiers. An ID named
// twice, that of a pattern (whatFor says what only entries may be) or of
// nothing, or self, is refused.
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

// renameEvidence makes patterns name the entry that took others' place.
func renameEvidence(f *File, renamed map[string]string) {
	if len(renamed) == 0 {
		return
	}
	for _, p := range f.Patterns() {
		for i, id := range p.Evidence {
			if to, ok := renamed[id]; ok {
				p.Evidence[i] = to
			}
		}
		p.Evidence = mergeEvidence(nil, p.Evidence)
	}
}

// Promote moves a Tier 2 entry to Tier 1, where it never decays: a
// decision that lasts. Tier 1 takes importance 4 and 5 only.
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
// sentence, or creates it: a behavioural insight ("The user asks for a
// regression test with every bug fix") instead of a tag count. A new
// pattern is counted by the next pass, like the automatic ones; its
// sentence is kept from then on. It returns the pattern and whether it
// was new.
func (f *File) WritePattern(tags []string, text string, today time.Time) (*Pattern, bool, error) {
	clean := make([]string, len(tags))
	for i, t := range tags {
		clean[i] = privacy.Clean(t)
	}
	tags = NormalizeTags(clean)
	if len(tags) == 0 {
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

// hasSentence reports whether a pattern says something an agent or person
// wrote, rather than the automatic tag count.
func (p *Pattern) hasSentence() bool {
	return p.Text != "" && p.Text != autoSentence(p)
}

// Advice is what the memory asks of the agent when it nears its limits,
// each item with what the agent needs to act on it.
type Advice struct {
	// Consolidate lists the oldest related Tier 2 entries (sharing
	// ConsolidateTag) that one summary could replace; empty when Tier 2 is
	// under adviseAt of its budget or nothing is related.
	Consolidate    []string
	ConsolidateTag string
	// Decisions lists the oldest related lasting entries (decisions, or
	// Tier 1 entries; all in one tier, sharing DecisionsTag) that one
	// compact summary could replace; empty while what lasts is under
	// adviseAt of its room in the view.
	Decisions    []string
	DecisionsTag string
	// Promote is a lasting importance-5 decision in Tier 2 that Tier 1 has
	// room for; empty when none.
	Promote string
	// Unnamed are the automatic patterns, DEVELOPING or above, that still
	// have no sentence, strongest first.
	Unnamed []string
	// Tier2, Budget: Tier 2's estimated tokens and its budget.
	Tier2, Budget int
	// Lasting, Room: the characters Tier 1 and the decisions take in the
	// view, and the room they have there (LastingRoom).
	Lasting, Room int
}

// adviseAt is the share of a limit, in percent, from which the memory
// asks the agent to consolidate and promote: of Tier 2's budget, and of
// the room what lasts has in the view.
const adviseAt = 90

// LastingRoom is the room Tier 1 and the decisions have in the view, and
// Tier 1's part of it, in characters.
func LastingRoom(cfg Config) (all, tier1 int) {
	return cfg.ContextLimit * viewLastingShare / 100, cfg.ContextLimit * viewTier1Share / 100
}

// lastingDays is how old an importance-5 Tier 2 entry must be before it is
// proposed for Tier 1: a decision still true a week on is a lasting one.
const lastingDays = 7

// maxConsolidate bounds one consolidation request.
const maxConsolidate = 6

// Unnamed are Advice.Unnamed alone, for a session already advised on
// consolidation.
func Unnamed(f *File, cfg Config) []string {
	ignore := ignoredTags(cfg)
	var out []string
	for _, p := range f.Patterns() {
		if p.Level != Emerging && !p.hasSentence() && len(p.Tags) > 0 && !ignore[p.Tags[0]] {
			out = append(out, p.ID) // patterns are kept strongest first
		}
	}
	return out
}

func ignoredTags(cfg Config) map[string]bool {
	ignore := map[string]bool{}
	for _, t := range cfg.IgnoreTags {
		ignore[t] = true
	}
	return ignore
}

// Advise says what the agent could do for the memory today: consolidate
// routine work and promote a decision when Tier 2 is past adviseAt percent
// of its budget, consolidate decisions when what lasts is past adviseAt
// percent of its room in the view, and name patterns that have grown
// without a sentence.
func Advise(f *File, today time.Time, cfg Config) Advice {
	return AdviseEstimated(f, today, cfg, Estimate(f))
}

// AdviseEstimated is Advise for a caller that has the file's estimate
// already: tok must be Estimate(f), as the pass that left f reported it.
func AdviseEstimated(f *File, today time.Time, cfg Config, tok Tokens) Advice {
	a := Advice{Tier2: tok.Tiers[1], Budget: cfg.Budgets[1], Unnamed: Unnamed(f, cfg)}
	ignore := ignoredTags(cfg)
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

// promotable is the oldest importance-5 decision a week old or more, not
// among asked, if Tier 1 has room for it, in its budget and in its part
// of the view (tier1 is what Tier 1 takes there now); "" when none is.
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
			(tier1+Length(viewEntry(e, false))+1)*100 <= tier1Room*adviseAt { // in Tier 1, without its weight
			return e.ID
		}
	}
	return ""
}

// routineGroup is what to consolidate: the entry the budget would take
// next that shares a tag with two or more others of its kind (importance
// 1-4, or 5), and the oldest of those, less those asked already says,
// and the tag. Decisions are grouped only with decisions, so a summary
// never lifts routine work to importance 5.
func routineGroup(f *File, today time.Time, ignore map[string]bool, asked func(id string) bool) ([]string, string) {
	// The order without lastingShare (a budget of 0): old importance-4
	// work a summary would shorten comes before today's routine work,
	// which needs no summary.
	victims := budgetVictims(f, today, 0, nil)
	type kindTag struct {
		five bool
		tag  string
	}
	byTag := map[kindTag][]*Entry{}
	for _, e := range victims {
		for _, t := range e.Tags {
			if !ignore[t] {
				k := kindTag{e.Importance >= 5, t}
				byTag[k] = append(byTag[k], e)
			}
		}
	}
	for _, v := range victims {
		best := kindTag{}
		for _, t := range v.Tags {
			k := kindTag{v.Importance >= 5, t}
			if len(byTag[k]) >= 3 && (best.tag == "" || len(byTag[k]) > len(byTag[best])) {
				best = k
			}
		}
		if best.tag == "" {
			continue
		}
		group := slices.Clone(byTag[best])
		slices.SortFunc(group, byDateID)
		if len(group) > maxConsolidate {
			group = group[:maxConsolidate]
		}
		var ids []string
		for _, e := range group {
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

// relatedDecisions picks what lasts that one compact summary could
// replace: the oldest lasting entry that shares a tag with another in its
// tier (Tier 1, or the decisions of Tier 2 older than the latest work),
// and the others of that tier and tag, oldest first, at most
// maxConsolidate, while their texts together stay within MaxTextRunes so
// that the summary can keep what each says. An entry already that long
// is a full summary and is left as it is. With onlyTier1, only Tier 1 is
// considered: it is over its part of the view.
func relatedDecisions(f *File, today time.Time, ignore map[string]bool, onlyTier1 bool) ([]string, string) {
	type tierTag struct {
		tier int
		tag  string
	}
	var all []*Entry
	tierOf := map[*Entry]int{}
	for t := 1; t <= 2; t++ {
		if t == 2 && onlyTier1 {
			break
		}
		for _, e := range f.Entries(t) {
			if t == 2 && (e.Importance < 5 || DaysBetween(e.Date, today) <= 1) {
				continue
			}
			all = append(all, e)
			tierOf[e] = t
		}
	}
	// Grouped after the sort, so every group is oldest first.
	slices.SortFunc(all, byDateID)
	byTag := map[tierTag][]*Entry{}
	for _, e := range all {
		for _, tag := range e.Tags {
			if !ignore[tag] {
				k := tierTag{tierOf[e], tag}
				byTag[k] = append(byTag[k], e)
			}
		}
	}
	for _, anchor := range all {
		size := utf8.RuneCountInString(anchor.Text)
		if size >= MaxTextRunes {
			continue
		}
		for _, tag := range anchor.Tags {
			group := byTag[tierTag{tierOf[anchor], tag}]
			if ignore[tag] || len(group) < 2 {
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

// compactTopics is the one line the view gives the automatic patterns:
// "testing 57, auth 12".
func compactTopics(pats []*Pattern) string {
	parts := make([]string, 0, len(pats))
	for _, p := range pats {
		parts = append(parts, fmt.Sprintf("%s %d", strings.Join(p.Tags, "+"), p.Observations))
	}
	return strings.Join(parts, ", ")
}
