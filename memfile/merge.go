package memfile

import (
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
	out := o.Clone()

	taken := b.idsInUse()
	maps.Copy(taken, o.idsInUse())
	maps.Copy(taken, t.idsInUse())
	entries, order := mergeEntries(b, o, t, taken, &rep)
	patterns, porder := mergePatterns(b, o, t, entries, taken, &rep)

	out.Intro = nil
	for _, n := range mergeNotes(b.Intro, o.Intro, t.Intro) {
		out.Intro = append(out.Intro, Block{Note: n})
	}
	for tier := 1; tier <= 3; tier++ {
		notes := mergeNotes(b.Tiers[tier-1].Blocks, o.Tiers[tier-1].Blocks, t.Tiers[tier-1].Blocks)
		out.Tiers[tier-1].Blocks = placeItems(tier, o.Tiers[tier-1].Blocks, notes, entries, order, patterns, porder)
	}
	out.Preamble = mergeLines(b.Preamble, o.Preamble, t.Preamble)
	out.Trailer = mergeLines(b.Trailer, o.Trailer, t.Trailer)

	out.Header.Sessions = addCounts(base.Header.Sessions,
		max(ours.Header.Sessions-base.Header.Sessions, 0),
		max(theirs.Header.Sessions-base.Header.Sessions, 0))
	out.Header.LastMaintained = later(ours.Header.LastMaintained, theirs.Header.LastMaintained)
	if out.Header.Version == "" {
		out.Header.Version = currentVersion
	}
	applyConfig(out, cfg)
	if !out.Header.LastMaintained.IsZero() {
		reweight(out, out.Header.LastMaintained, cfg)
	}
	sortTier2(out)
	sortTier3(out)
	out.Header.TokenEst = Estimate(out).Total
	return out, rep
}

// placedEntry is an entry of the merge and the tier it goes in.
type placedEntry struct {
	e    *Entry
	tier int
}

// indexEntries maps a file's entry IDs to the entries and their tiers,
// and lists the IDs in file order.
func indexEntries(f *File) (map[string]placedEntry, []string) {
	m := map[string]placedEntry{}
	var ids []string
	for tier, e := range f.tierEntries() {
		m[e.ID] = placedEntry{e, tier}
		ids = append(ids, e.ID)
	}
	return m, ids
}

// mergeEntries decides every entry ID of the three files. It returns the
// surviving entries by ID and their order: ours' first, then theirs'.
func mergeEntries(b, o, t *File, taken map[string]bool, rep *MergeReport) (map[string]placedEntry, []string) {
	out := map[string]placedEntry{}
	var order []string
	keep := func(p placedEntry) {
		out[p.e.ID] = p
		order = append(order, p.e.ID)
	}
	both := func(id string, be placedEntry, inBase bool, oe, te placedEntry) {
		kept, split := mergeEntry(pick(inBase, &be, nil), oe, te)
		keep(kept)
		if split != nil {
			split.e.ID = uniqueID("", EntryID(split.e.Date, split.e.Text), taken)
			keep(*split)
			rep.Split = append(rep.Split, SplitEntry{ID: id, NewID: split.e.ID})
		}
	}
	mergeItems(b, o, t, indexEntries, entryChanged, both, keep, rep)
	return out, order
}

// mergeItems decides each ID: merged when both sides have it, kept when
// one side added it or changed what the other removed, else removed.
func mergeItems[T any](bf, of, tf *File, index func(*File) (map[string]T, []string), changed func(b, x T) bool, both func(id string, b T, inBase bool, o, t T), keep func(T), rep *MergeReport) {
	base, _ := index(bf)
	ours, oids := index(of)
	theirs, tids := index(tf)
	seen := map[string]bool{}
	for _, id := range slices.Concat(oids, tids) {
		if seen[id] {
			continue
		}
		seen[id] = true
		b, inBase := base[id]
		o, inOurs := ours[id]
		t, inTheirs := theirs[id]
		switch other := pick(inOurs, o, t); {
		case inOurs && inTheirs:
			both(id, b, inBase, o, t)
		case !inBase:
			keep(other)
		case changed(b, other):
			keep(other)
			rep.Revived = append(rep.Revived, id)
		default:
			rep.Removed = append(rep.Removed, id)
		}
	}
}

func pick[T any](first bool, a, b T) T {
	if first {
		return a
	}
	return b
}

// entryChanged says whether x differs from b in what a person or agent
// decides (not the weight: every pass recomputes it).
func entryChanged(b, x placedEntry) bool {
	return b.tier != x.tier || b.e.Importance != x.e.Importance || !b.e.Date.Equal(x.e.Date) ||
		!slices.Equal(b.e.Tags, x.e.Tags) || !slices.Equal(b.e.Keywords, x.e.Keywords) || !slices.Equal(b.e.HoldsWith, x.e.HoldsWith) || b.e.Text != x.e.Text
}

// mergeEntry merges an entry both sides have. When both rewrote its text
// differently, split is theirs, to be kept as a new entry.
func mergeEntry(b *placedEntry, o, t placedEntry) (kept placedEntry, split *placedEntry) {
	if b != nil {
		switch oc, tc := entryChanged(*b, o), entryChanged(*b, t); {
		case !tc:
			return o, nil
		case !oc:
			return t, nil
		}
	}
	textO := b == nil || normalText(o.e.Text) != normalText(b.e.Text)
	textT := b == nil || normalText(t.e.Text) != normalText(b.e.Text)
	if textO && textT && normalText(o.e.Text) != normalText(t.e.Text) {
		return o, &t
	}
	e := o.e.clone()
	if !textO && textT {
		e.Text = t.e.Text
	}
	e.absorb(t.e)
	tier := o.tier
	if b != nil && o.tier == b.tier {
		tier = t.tier
	} else if b == nil {
		tier = min(o.tier, t.tier) // Tier 1 wins, as in duplicate merging
	}
	return placedEntry{e, tier}, nil
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// indexPatterns is indexEntries for patterns.
func indexPatterns(f *File) (map[string]*Pattern, []string) {
	m := map[string]*Pattern{}
	var ids []string
	for _, p := range f.Patterns() {
		m[p.ID] = p
		ids = append(ids, p.ID)
	}
	return m, ids
}

// mergePatterns is mergeEntries for patterns.
func mergePatterns(b, o, t *File, entries map[string]placedEntry, taken map[string]bool, rep *MergeReport) (map[string]*Pattern, []string) {
	// Dates of every entry any side knows, to order evidence oldest first.
	dates := map[string]time.Time{}
	for _, f := range []*File{b, o, t} {
		for _, e := range f.tierEntries() {
			dates[e.ID] = e.Date
		}
	}
	out := map[string]*Pattern{}
	var order []string
	keep := func(p *Pattern) {
		if _, clash := entries[p.ID]; clash {
			p.ID = uniqueID("p", patternID(p.Tags), taken)
		}
		out[p.ID] = p
		order = append(order, p.ID)
	}
	both := func(id string, bp *Pattern, _ bool, op, tp *Pattern) {
		merged, conflict := mergePattern(bp, op, tp, dates)
		if conflict {
			rep.Sentences = append(rep.Sentences, id)
		}
		keep(merged)
	}
	mergeItems(b, o, t, indexPatterns, patternChanged, both, keep, rep)
	return out, order
}

func patternChanged(b, x *Pattern) bool {
	return b.Observations != x.Observations || !slices.Equal(b.Evidence, x.Evidence) ||
		!slices.Equal(b.Tags, x.Tags) || b.Text != x.Text || !b.First.Equal(x.First) || !b.Last.Equal(x.Last)
}

// mergePattern merges a pattern both sides have (b may be nil): evidence
// united, counts never going down; conflict when both rewrote the
// sentence differently (ours kept).
func mergePattern(b, o, t *Pattern, dates map[string]time.Time) (p *Pattern, conflict bool) {
	if b != nil {
		switch {
		case !patternChanged(b, t):
			return o, false
		case !patternChanged(b, o):
			return t, false
		}
	}
	if b == nil {
		b = &Pattern{}
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

// noteKey identifies a note by its text.
func noteKey(n *Note) string { return strings.Join(n.Lines, "\n") }

// mergeNotes is every note of ours then theirs, once, less those base
// had and one side removed.
func mergeNotes(b, o, t []Block) []*Note {
	keys := func(bs []Block) map[string]bool {
		m := map[string]bool{}
		for _, bl := range bs {
			if bl.Note != nil {
				m[noteKey(bl.Note)] = true
			}
		}
		return m
	}
	bk, ok, tk := keys(b), keys(o), keys(t)
	var out []*Note
	seen := map[string]bool{}
	for _, bl := range slices.Concat(o, t) {
		if bl.Note == nil {
			continue
		}
		k := noteKey(bl.Note)
		if seen[k] || (bk[k] && !(ok[k] && tk[k])) {
			continue
		}
		seen[k] = true
		out = append(out, bl.Note)
	}
	return out
}

// placeItems lays out one section: ours' blocks with each item merged or
// dropped, then what only theirs had, then theirs' notes.
func placeItems(tier int, ours []Block, notes []*Note, entries map[string]placedEntry, order []string, patterns map[string]*Pattern, porder []string) []Block {
	var out []Block
	placed := map[string]bool{}
	unplaced := map[*Note]bool{} // theirs', and ours' ones not met yet
	for _, n := range notes {
		unplaced[n] = true
	}
	for _, bl := range ours {
		switch {
		case bl.Note != nil && unplaced[bl.Note]:
			out = append(out, bl)
			delete(unplaced, bl.Note)
		case bl.Entry != nil:
			if p, ok := entries[bl.Entry.ID]; ok && p.tier == tier && !placed[bl.Entry.ID] {
				out = append(out, Block{Entry: p.e})
				placed[bl.Entry.ID] = true
			}
		case bl.Pattern != nil:
			if p, ok := patterns[bl.Pattern.ID]; ok && !placed[p.ID] {
				out = append(out, Block{Pattern: p})
				placed[p.ID] = true
			}
		}
	}
	for _, id := range order {
		if p := entries[id]; p.tier == tier && !placed[id] {
			out = append(out, Block{Entry: p.e})
			placed[id] = true
		}
	}
	if tier == 3 {
		for _, id := range porder {
			if !placed[id] {
				out = append(out, Block{Pattern: patterns[id]})
				placed[id] = true
			}
		}
	}
	for _, n := range notes {
		if unplaced[n] {
			out = append(out, Block{Note: n})
		}
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

// addCounts adds session counts, stopping at the largest int rather than
// wrapping to a negative count.
func addCounts(counts ...int) int {
	sum := 0
	for _, n := range counts {
		if n > math.MaxInt-sum {
			return math.MaxInt
		}
		sum += n
	}
	return sum
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
