package memfile

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/privacy"
)

// A bimri.md committed to git is rewritten whole by every pass, so git's
// line merge would conflict on nearly every merge; MergeFiles merges the
// three versions its merge driver gets item by item, keyed by ID.

// MergeReport says what a merge decided that a person may want to check.
type MergeReport struct {
	Split     []SplitEntry // text rewritten on both sides: both kept
	Revived   []string     // removed on one side, changed on the other: kept
	Removed   []string     // removed on one side, unchanged on the other: gone
	Sentences []string     // patterns whose sentence both rewrote: ours kept
}

// SplitEntry is one entry whose text both sides changed.
type SplitEntry struct {
	ID    string // the entry as ours has it, under its old ID
	NewID string // theirs, kept as a new entry
}

// MergeFiles merges ours and theirs, grown from base (nil for git's
// add/add case: a two-way union). An item one side added is kept; one
// side removed stays removed unless the other changed it; one both
// changed keeps the higher importance, newer date and both tags, and
// both texts when both rewrote it. Patterns unite their evidence and add
// up their counts. Weights are recomputed for the later Last Maintained,
// so the same merge gives the same bytes on every machine. Texts pass
// through privacy.Clean on all three sides alike, since a branch can
// carry a pasted credential.
func MergeFiles(base, ours, theirs *File, cfg Config) (*File, MergeReport) {
	if base == nil {
		base = &File{}
	}
	var rep MergeReport
	b, o, t := base.Clone(), ours.Clone(), theirs.Clone()
	for _, f := range []*File{b, o, t} {
		cleanTexts(f)
	}
	taken := b.idsInUse()
	maps.Copy(taken, o.idsInUse())
	maps.Copy(taken, t.idsInUse())
	merged, order := mergeItems(b, o, t, taken, &rep)
	out := o // ours' layout, its items merged
	for tier, sec := range sections(out) {
		*sec = placeItems(tier, *sec, merged, order)
	}
	out.Preamble = mergeLines(b.Preamble, o.Preamble, t.Preamble)
	out.Trailer = mergeLines(b.Trailer, o.Trailer, t.Trailer)

	// Both sides' new sessions, stopping at the largest int rather than
	// wrapping to a negative count.
	out.Header.Sessions = base.Header.Sessions
	for _, side := range []int{ours.Header.Sessions, theirs.Header.Sessions} {
		out.Header.Sessions += min(max(side-base.Header.Sessions, 0), math.MaxInt-out.Header.Sessions)
	}
	out.Header.LastMaintained = later(ours.Header.LastMaintained, theirs.Header.LastMaintained)
	out.Header.Version = cmp.Or(out.Header.Version, currentVersion)
	applyConfig(out, cfg)
	if !out.Header.LastMaintained.IsZero() {
		reweight(out, out.Header.LastMaintained, cfg)
	}
	sortTiers(out)
	out.Header.TokenEst = Estimate(out).Total
	return out, rep
}

// item is an entry, a pattern or a note of one side, and its section:
// 0 the intro, else the tier.
type item struct {
	Block
	tier int
}

// key identifies an item on every side. Its first byte sorts entries
// first, so a pattern can yield an ID to a surviving entry, then
// patterns, then notes, known by section and text.
func (it item) key() string {
	switch {
	case it.Entry != nil:
		return "1" + it.Entry.ID
	case it.Pattern != nil:
		return "2" + it.Pattern.ID
	}
	return "3" + itoa(it.tier) + "\n" + strings.Join(it.Note.Lines, "\n")
}

// sections are f's intro and tiers, in file order.
func sections(f *File) []*[]Block {
	return []*[]Block{&f.Intro, &f.Tiers[0].Blocks, &f.Tiers[1].Blocks, &f.Tiers[2].Blocks}
}

// indexItems maps a file's items by key, and lists the keys in file order.
func indexItems(f *File) (map[string]item, []string) {
	m := map[string]item{}
	var keys []string
	for tier, blocks := range sections(f) {
		for _, bl := range *blocks {
			it := item{bl, tier}
			if k := it.key(); m[k].Block == (Block{}) {
				m[k] = it
				keys = append(keys, k)
			}
		}
	}
	return m, keys
}

// mergeItems decides every item: merged when both sides have it, kept
// when one side added it or changed what the other removed, else
// removed. It returns the survivors by key and their order: entries,
// patterns, notes, each ours' first, then theirs'.
func mergeItems(bf, of, tf *File, taken map[string]bool, rep *MergeReport) (map[string]item, []string) {
	base, _ := indexItems(bf)
	ours, oks := indexItems(of)
	theirs, tks := indexItems(tf)
	dates := map[string]time.Time{} // of every entry, to order evidence oldest first
	for _, f := range []*File{bf, of, tf} {
		for _, e := range f.TierEntries() {
			dates[e.ID] = e.Date
		}
	}
	keys := slices.Concat(oks, tks)
	slices.SortStableFunc(keys, func(x, y string) int { return cmp.Compare(x[0], y[0]) })
	out := map[string]item{}
	var order []string
	seen := map[string]bool{}
	keep := func(k string, it item) {
		if p := it.Pattern; p != nil && out["1"+p.ID].Entry != nil {
			p.ID = uniqueID("p", patternID(p.Tags), taken)
		}
		out[k] = it
		order = append(order, k)
	}
	for _, k := range keys {
		if seen[k] {
			continue
		}
		seen[k] = true
		b, inBase := base[k]
		o, inOurs := ours[k]
		t, inTheirs := theirs[k]
		other := t
		if inOurs {
			other = o
		}
		switch {
		case inOurs && inTheirs && o.Entry != nil:
			kept, split := mergeEntry(b, inBase, o, t)
			keep(k, kept)
			if split != nil {
				split.Entry.ID = uniqueID("", EntryID(split.Entry.Date, split.Entry.Text), taken)
				keep(split.key(), *split)
				rep.Split = append(rep.Split, SplitEntry{ID: o.Entry.ID, NewID: split.Entry.ID})
			}
		case inOurs && inTheirs && o.Pattern != nil:
			p, conflict := mergePattern(b.Pattern, o.Pattern, t.Pattern, dates)
			if conflict {
				rep.Sentences = append(rep.Sentences, o.Pattern.ID)
			}
			keep(k, item{Block{Pattern: p}, 3})
		case inOurs && inTheirs, !inBase:
			keep(k, other)
		case b.Note != nil: // a note one side removed
		case b.Entry != nil && entryChanged(b, other), b.Pattern != nil && patternChanged(b.Pattern, other.Pattern):
			// One side removed it, the other changed it.
			keep(k, other)
			rep.Revived = append(rep.Revived, k[1:])
		default:
			rep.Removed = append(rep.Removed, k[1:])
		}
	}
	return out, order
}

// entryChanged says whether x differs from b in what a person or agent
// decides (not the weight: every pass recomputes it).
func entryChanged(b, x item) bool {
	return b.tier != x.tier || b.Entry.Importance != x.Entry.Importance || !b.Entry.Date.Equal(x.Entry.Date) ||
		!slices.Equal(b.Entry.Tags, x.Entry.Tags) || !slices.Equal(b.Entry.Keywords, x.Entry.Keywords) ||
		!slices.Equal(b.Entry.HoldsWith, x.Entry.HoldsWith) || b.Entry.Text != x.Entry.Text
}

// mergeEntry merges an entry both sides have. When both rewrote its text
// differently, split is theirs, to be kept as a new entry.
func mergeEntry(b item, inBase bool, o, t item) (kept item, split *item) {
	switch {
	case !inBase:
	case !entryChanged(b, t):
		return o, nil
	case !entryChanged(b, o):
		return t, nil
	}
	textO := !inBase || normalText(o.Entry.Text) != normalText(b.Entry.Text)
	textT := !inBase || normalText(t.Entry.Text) != normalText(b.Entry.Text)
	if textO && textT && normalText(o.Entry.Text) != normalText(t.Entry.Text) {
		return o, &t
	}
	e := o.Entry.clone()
	if !textO && textT {
		e.Text = t.Entry.Text
	}
	e.absorb(t.Entry)
	tier := o.tier
	if inBase && o.tier == b.tier {
		tier = t.tier
	} else if !inBase {
		tier = min(o.tier, t.tier) // Tier 1 wins, as in duplicate merging
	}
	return item{Block{Entry: e}, tier}, nil
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func patternChanged(b, x *Pattern) bool {
	return b.Observations != x.Observations || !slices.Equal(b.Evidence, x.Evidence) ||
		!slices.Equal(b.Tags, x.Tags) || b.Text != x.Text || !b.First.Equal(x.First) || !b.Last.Equal(x.Last)
}

// mergePattern merges a pattern both sides have (b may be nil): evidence
// united, counts never going down; conflict when both rewrote the
// sentence differently (ours kept).
func mergePattern(b, o, t *Pattern, dates map[string]time.Time) (p *Pattern, conflict bool) {
	switch {
	case b == nil:
		b = &Pattern{}
	case !patternChanged(b, t):
		return o, false
	case !patternChanged(b, o):
		return t, false
	}
	merged := *o
	if !slices.Equal(o.Tags, t.Tags) && slices.Equal(o.Tags, b.Tags) {
		merged.Tags = t.Tags
	}

	both := 0 // evidence both sides added, counted once
	for _, id := range t.Evidence {
		if !slices.Contains(b.Evidence, id) && slices.Contains(o.Evidence, id) {
			both++
		}
	}
	union := slices.Concat(o.Evidence, t.Evidence)
	slices.Sort(union)
	union = slices.Compact(union)
	slices.SortStableFunc(union, func(x, y string) int { return dates[x].Compare(dates[y]) })
	evidenceCount := len(union)
	merged.Evidence = newest(union)
	added := max(o.Observations-b.Observations, 0) + max(t.Observations-b.Observations, 0) - both
	merged.Observations = max(o.Observations, t.Observations, evidenceCount, b.Observations+added)
	merged.Level = levelFor(merged.Observations)
	merged.First = earliest(o.First, t.First)
	merged.Last = later(o.Last, t.Last)

	autoO, autoT := o.Text == autoSentence(o), t.Text == autoSentence(t)
	switch {
	case autoO && autoT:
		merged.Text = autoSentence(&merged)
	case autoO:
		merged.Text = t.Text
	case autoT, o.Text == t.Text, t.Text == b.Text:
		merged.Text = o.Text
	case o.Text == b.Text:
		merged.Text = t.Text
	default:
		conflict = true
	}
	return &merged, conflict
}

// earliest is the earlier of two dates, a zero date counting as unknown.
func earliest(a, b time.Time) time.Time {
	switch {
	case a.IsZero():
		return b
	case b.IsZero() || a.Before(b):
		return a
	}
	return b
}

// placeItems lays out one section: ours' blocks with each item merged
// or dropped, then the rest of this section's survivors in order.
func placeItems(tier int, ours []Block, merged map[string]item, order []string) []Block {
	var out []Block
	placed := map[string]bool{}
	place := func(k string) {
		if it, ok := merged[k]; ok && it.tier == tier && !placed[k] {
			out = append(out, it.Block)
			placed[k] = true
		}
	}
	for _, bl := range ours {
		place(item{bl, tier}.key())
	}
	for _, k := range order {
		place(k)
	}
	return out
}

// mergeLines merges the lines outside the structure: an unchanged side
// yields; when both changed, ours then theirs' lines ours lacks.
func mergeLines(b, o, t []string) []string {
	switch {
	case slices.Equal(o, b):
		return slices.Clone(t)
	case slices.Equal(t, b), slices.Equal(t, o):
		return slices.Clone(o)
	}
	out := slices.Clone(o)
	for _, l := range t {
		if strings.TrimSpace(l) == "" || !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

// cleanTexts passes every entry's and pattern's text through privacy.Clean.
func cleanTexts(f *File) {
	for _, sec := range f.Tiers {
		for _, bl := range sec.Blocks {
			switch {
			case bl.Entry != nil:
				bl.Entry.Text = privacy.Clean(bl.Entry.Text)
			case bl.Pattern != nil:
				bl.Pattern.Text = privacy.Clean(bl.Pattern.Text)
			}
		}
	}
}
