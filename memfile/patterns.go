package memfile

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// maxEvidence bounds EVIDENCE so Tier 3 does not grow without end; the
// count goes on past it.
const maxEvidence = 12

// autoSentence states a pattern's facts until someone writes better; a
// sentence that differs from it is kept.
func autoSentence(p *Pattern) string {
	tags := cmp.Or(strings.Join(p.Tags, " + "), "(none)")
	span := ""
	if !p.First.IsZero() && !p.Last.IsZero() {
		span = " from " + p.First.Format(dateLayout) + " to " + p.Last.Format(dateLayout)
	}
	return "Tag " + tags + " recurs: " + strconv.Itoa(p.Observations) + " entries" + span + "."
}

// updatePatterns counts entries into patterns, before pruning so counts
// never go down, and makes one for every tag on two or more entries. Once
// EVIDENCE is full only an entry dated after LAST is new; a deep pass,
// given the archive, recounts exactly.
func updatePatterns(f *File, opt Options, cfg Config, rep *Report) {
	idx := indexByTag(patternPool(f, opt))
	addTagPatterns(f, idx, cfg.IgnoreTags)
	for _, p := range f.Patterns() {
		if len(p.Tags) > 0 {
			updatePattern(p, idx, opt, rep)
		}
	}
}

// patternPool is Tier 2, and on a deep pass the archived entries too.
func patternPool(f *File, opt Options) []*Entry {
	pool := f.Entries(2)
	if !opt.Deep {
		return pool
	}
	seen := map[string]bool{}
	for _, e := range pool {
		seen[e.ID] = true
	}
	for i := range opt.ArchivedEntries {
		if e := &opt.ArchivedEntries[i]; !seen[e.ID] {
			seen[e.ID] = true
			pool = append(pool, e)
		}
	}
	return pool
}

// indexByTag lists the pool's entries under each of their tags.
func indexByTag(pool []*Entry) map[string][]*Entry {
	idx := map[string][]*Entry{}
	for _, e := range pool {
		for _, t := range slices.Compact(slices.Clone(e.Tags)) {
			idx[t] = append(idx[t], e)
		}
	}
	return idx
}

// addTagPatterns adds an emerging pattern for every tag on two or more
// entries, not ignored, without a single-tag pattern yet, in tag order so
// IDs are stable.
func addTagPatterns(f *File, idx map[string][]*Entry, ignore []string) {
	existing := map[string]bool{}
	for _, p := range f.Patterns() {
		if len(p.Tags) == 1 {
			existing[p.Tags[0]] = true
		}
	}
	var fresh []string
	for t, es := range idx {
		if len(es) >= 2 && !existing[t] && !slices.Contains(ignore, t) {
			fresh = append(fresh, t)
		}
	}
	if len(fresh) == 0 {
		return
	}
	slices.Sort(fresh)
	taken := f.idsInUse()
	for _, t := range fresh {
		p := &Pattern{Tags: []string{t}, Level: Emerging}
		p.ID = uniqueID("p", patternID(p.Tags), taken)
		f.Tiers[2].Blocks = append(f.Tiers[2].Blocks, Block{Pattern: p})
	}
}

// updatePattern counts the pool's entries with all of p's tags into p,
// reporting a new pattern or level in rep.
func updatePattern(p *Pattern, idx map[string][]*Entry, opt Options, rep *Report) {
	before := *p
	wasAuto := !before.hasSentence()
	var match []*Entry
	for _, e := range idx[p.Tags[0]] {
		if hasAll(e.Tags, p.Tags) {
			match = append(match, e)
		}
	}
	slices.SortFunc(match, byDateID)
	if opt.Deep || len(p.Evidence) == 0 {
		recount(p, match)
	} else {
		addEvidence(p, match)
	}
	p.Level = levelFor(p.Observations)
	if wasAuto {
		p.Text = autoSentence(p)
	}
	switch {
	case before.Observations == 0 && before.Text == "": // created
		rep.Patterns = append(rep.Patterns, PatternChange{ID: p.ID, Tags: p.Tags, To: p.Level, Observations: p.Observations})
	case before.Level != p.Level:
		rep.Patterns = append(rep.Patterns, PatternChange{ID: p.ID, Tags: p.Tags, From: before.Level, To: p.Level, Observations: p.Observations})
	}
}

// mergeSameTagPatterns makes one pattern of those for the same tags (a
// hand-written one and the automatic one); the first absorbs the others.
func mergeSameTagPatterns(f *File, rep *Report) {
	byTags := map[string]*Pattern{}
	var gone []*Pattern
	for _, p := range f.Patterns() {
		if len(p.Tags) == 0 {
			continue
		}
		key := strings.Join(p.Tags, ",")
		keep := byTags[key]
		if keep == nil {
			byTags[key] = p
			continue
		}
		keep.absorb(p)
		gone = append(gone, p)
		rep.Converted = append(rep.Converted, fmt.Sprintf("patterns %s and %s were both for tag %s; they are now one, %s", keep.ID, p.ID, key, keep.ID))
	}
	if len(gone) > 0 {
		removeBlocks(f, 3, func(b Block) bool { return b.Pattern != nil && slices.Contains(gone, b.Pattern) })
	}
}

// absorb folds p into keep, a pattern for the same tags: written
// sentences kept (one line each), the higher count, the union of the rest.
func (keep *Pattern) absorb(p *Pattern) {
	switch {
	case p.hasSentence() && !keep.hasSentence():
		keep.Text = p.Text
	case p.hasSentence() && normalText(p.Text) != normalText(keep.Text):
		keep.Text += "\n" + p.Text
	}
	keep.Observations = max(keep.Observations, p.Observations)
	keep.Evidence = mergeEvidence(keep.Evidence, p.Evidence)
	keep.Observations = max(keep.Observations, len(keep.Evidence))
	for _, d := range []time.Time{p.First, p.Last} {
		if !d.IsZero() {
			widen(keep, d)
		}
	}
	if levelRank(p.Level) < levelRank(keep.Level) {
		keep.Level = p.Level
	}
}

// recount sets a pattern from all its entries; the count never drops
// below what it was nor below the distinct entries its evidence names.
func recount(p *Pattern, match []*Entry) {
	ids := slices.Clone(p.Evidence)
	for _, e := range match {
		widen(p, e.Date)
		ids = append(ids, e.ID)
	}
	ids = distinct(ids)
	p.Observations = max(p.Observations, len(ids))
	p.Evidence = newest(ids)
}

// byDateID is the order patterns count entries in: oldest, then by ID.
func byDateID(a, b *Entry) int {
	return cmp.Or(a.Date.Compare(b.Date), cmp.Compare(a.ID, b.ID))
}

// addEvidence adds the entries p has not counted yet, in byDateID order.
func addEvidence(p *Pattern, match []*Entry) {
	known := map[string]bool{}
	for _, id := range p.Evidence {
		known[id] = true
	}
	full := len(p.Evidence) >= maxEvidence
	for _, e := range match {
		if (full && !e.Date.After(p.Last)) || known[e.ID] {
			continue
		}
		known[e.ID] = true
		p.Evidence = append(p.Evidence, e.ID)
		p.Observations++
		widen(p, e.Date)
	}
	p.Evidence = newest(p.Evidence)
}

// mergeEvidence keeps the newest maxEvidence IDs of old then add, once each.
func mergeEvidence(old, add []string) []string {
	return newest(distinct(append(slices.Clone(old), add...)))
}

// distinct is ids without repeats, each where it first stood.
func distinct(ids []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// newest is the last maxEvidence of ids.
func newest(ids []string) []string {
	return ids[max(len(ids)-maxEvidence, 0):]
}

func widen(p *Pattern, d time.Time) {
	if p.First.IsZero() || d.Before(p.First) {
		p.First = d
	}
	if p.Last.IsZero() || d.After(p.Last) {
		p.Last = d
	}
}

// hasAll reports whether tags (sorted) holds every one of want.
func hasAll(tags, want []string) bool {
	for _, w := range want {
		if _, ok := slices.BinarySearch(tags, w); !ok {
			return false
		}
	}
	return true
}
