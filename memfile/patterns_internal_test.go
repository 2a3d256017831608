package memfile

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/matryer/is"
)

// updatePatterns sorts only the entries each pattern reads, and of a full
// evidence list only those dated after its LAST; what it leaves and
// reports must be what it left when it sorted the whole pool first.
func TestUpdatePatternsIsThePoolSort(t *testing.T) {
	is := is.New(t)
	var files []parsedFile
	files = append(files, parsedTestdata(t)...)
	rng := rand.New(rand.NewPCG(7, 8))
	for round := range 6 {
		files = append(files, parsedFile{fmt.Sprintf("generated %d", round), patternFixture(rng, 300+100*round)})
	}
	compared, full, after := 0, 0, 0
	for _, parsed := range files {
		archived := parsed.f.Entries(2)
		if len(archived) > 40 {
			archived = archived[:40]
		}
		var archive []Entry
		for _, e := range archived {
			archive = append(archive, *e)
		}
		for _, opt := range []Options{{}, {Deep: true}, {Deep: true, ArchivedEntries: archive}} {
			got, want := parsed.f.Clone(), parsed.f.Clone()
			var gotRep, wantRep Report
			for _, p := range got.Patterns() {
				if len(p.Evidence) >= maxEvidence && !opt.Deep {
					full++
					for _, e := range got.Entries(2) {
						if e.Date.After(p.Last) && hasAll(e.Tags, p.Tags) {
							after++
						}
					}
				}
			}
			updatePatterns(got, opt, DefaultConfig(), &gotRep)
			updatePatternsSortingThePool(want, opt, DefaultConfig(), &wantRep)
			is.Equal(string(Render(got)), string(Render(want))) // the file left
			is.Equal(gotRep, wantRep)                           // the report
			compared++
		}
	}
	// The cases the shortcut changes were met: full evidence lists, and
	// entries after their LAST.
	is.True(compared > 20)
	is.True(full > 10)
	is.True(after > 10)
}

// patternFixture is a Tier 2 of n entries over a few tags and days, many
// on the same day, passed over once on an earlier day (so its patterns
// have full evidence lists), then given newer entries, some of them on
// one day.
func patternFixture(rng *rand.Rand, n int) *File {
	tags := []string{"api", "auth", "auto", "build", "cache", "ci", "docs"} // auto: ignored
	day := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	f := New(DefaultConfig())
	add := func(i int, date time.Time) {
		var et []string
		for _, t := range tags {
			if rng.IntN(3) == 0 {
				et = append(et, t)
			}
		}
		e := &Entry{ID: fmt.Sprintf("%08x", rng.Uint32()), Importance: 1 + rng.IntN(5), Date: date, Tags: et, Text: fmt.Sprintf("entry %d", i)}
		f.Tiers[1].Blocks = append(f.Tiers[1].Blocks, Block{Entry: e})
	}
	for i := range n {
		add(i, day.AddDate(0, 0, rng.IntN(10)))
	}
	cfg := DefaultConfig()
	cfg.Budgets = [3]int{1_000_000, 1_000_000, 1_000_000}
	cfg.TotalBudget = 3_000_000
	cfg.Threshold = 0
	MaintainInPlace(f, day.AddDate(0, 0, 10), cfg, Options{})
	for i := range n / 5 {
		add(n+i, day.AddDate(0, 0, 10+rng.IntN(3)))
	}
	// Shuffled: the pass sorted Tier 2 by weight; a file edited by
	// hand is in any order.
	b := f.Tiers[1].Blocks
	rng.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] })
	return f
}

// updatePatternsSortingThePool is updatePatterns as it was before it
// sorted each pattern's entries instead of the whole pool: the
// definition the faster one must match.
func updatePatternsSortingThePool(f *File, opt Options, cfg Config, rep *Report) {
	ignore := map[string]bool{}
	for _, t := range cfg.IgnoreTags {
		ignore[t] = true
	}
	pool := f.Entries(2)
	if opt.Deep {
		// Only a deep pass needs the IDs: to leave out an archived copy
		// of an entry the file still holds.
		seen := make(map[string]bool, len(pool))
		for _, e := range pool {
			seen[e.ID] = true
		}
		for i := range opt.ArchivedEntries {
			if e := &opt.ArchivedEntries[i]; !seen[e.ID] {
				seen[e.ID] = true
				pool = append(pool, e)
			}
		}
	}
	slices.SortFunc(pool, func(a, b *Entry) int {
		if c := a.Date.Compare(b.Date); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})

	existing := map[string]*Pattern{} // single-tag patterns by tag
	for _, p := range f.Patterns() {
		if len(p.Tags) == 1 {
			existing[p.Tags[0]] = p
		}
	}
	// New patterns: tags on two or more entries. withTag indexes the pool
	// by tag, in pool order, so matching a pattern reads only the entries
	// that carry one of its tags instead of the whole pool for every
	// pattern.
	// One map for both, looked up once per tag of each entry: at 10,000
	// entries the map operations were a third of this function.
	type tagged struct {
		n       int // the tag's count, 0 for an ignored tag
		entries []*Entry
	}
	byTag := map[string]*tagged{}
	for _, e := range pool {
		for i, t := range e.Tags {
			tg := byTag[t]
			if tg == nil {
				tg = &tagged{}
				byTag[t] = tg
			}
			if !ignore[t] {
				tg.n++
			}
			if i == 0 || e.Tags[i-1] != t {
				tg.entries = append(tg.entries, e)
			}
		}
	}
	withTag := func(t string) []*Entry {
		if tg := byTag[t]; tg != nil {
			return tg.entries
		}
		return nil
	}
	var fresh []string
	for t, tg := range byTag {
		if tg.n >= 2 && existing[t] == nil {
			fresh = append(fresh, t)
		}
	}
	slices.Sort(fresh)
	var taken map[string]bool
	if len(fresh) > 0 {
		taken = f.idsInUse()
	}
	for _, t := range fresh {
		p := &Pattern{Tags: []string{t}, Level: Emerging}
		p.ID = uniqueID("p", patternID(p.Tags), taken)
		f.Tiers[2].Blocks = append(f.Tiers[2].Blocks, Block{Pattern: p})
		existing[t] = p
	}

	for _, p := range f.Patterns() {
		if len(p.Tags) == 0 {
			continue
		}
		before := *p
		wasAuto := p.Text == "" || p.Text == autoSentence(&before)
		candidates := withTag(p.Tags[0])
		for _, t := range p.Tags[1:] {
			if with := withTag(t); len(with) < len(candidates) {
				candidates = with
			}
		}
		// A pattern of one tag matches every entry withTag lists for it.
		match := candidates
		if len(p.Tags) > 1 {
			match = nil
			for _, e := range candidates {
				if hasAll(e.Tags, p.Tags) {
					match = append(match, e)
				}
			}
		}
		if opt.Deep || len(p.Evidence) == 0 {
			recount(p, match)
		} else {
			addEvidence(p, match)
		}
		p.Level = levelFor(p.Observations)
		if wasAuto {
			p.Text = autoSentence(p)
		}
		created := before.Observations == 0 && before.Text == ""
		switch {
		case created:
			rep.Patterns = append(rep.Patterns, PatternChange{ID: p.ID, Tags: p.Tags, To: p.Level, Observations: p.Observations})
		case before.Level != p.Level:
			rep.Patterns = append(rep.Patterns, PatternChange{ID: p.ID, Tags: p.Tags, From: before.Level, To: p.Level, Observations: p.Observations})
		}
	}
}
