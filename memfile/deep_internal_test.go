package memfile

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// The eviction sorts compare packed ranks; they must order entries as
// evictionOrder does, and keptLongestFirst as a stable sort the other way.
func TestRankedOrderIsEvictionOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	today := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	for round := range 30 {
		var entries []*Entry
		for i := range 300 {
			d := today.AddDate(0, 0, -rng.IntN(200))
			if rng.IntN(20) == 0 {
				d = d.Add(time.Duration(rng.IntN(86400)) * time.Second) // a time of day: still compared as an instant
			}
			entries = append(entries, &Entry{ID: itoa(rng.IntN(50)) + "i" + itoa(i%7), Importance: 1 + rng.IntN(5), Date: d})
		}
		want := slices.Clone(entries)
		slices.SortStableFunc(want, func(a, b *Entry) int {
			return evictionOrder(rankForBudget(a, today), rankForBudget(b, today))
		})
		f := New(DefaultConfig())
		for _, e := range entries {
			f.Tiers[1].Blocks = append(f.Tiers[1].Blocks, Block{Entry: e})
		}
		got := budgetVictims(f, today, 1<<40, nil) // no budget: the classes by importance alone
		for i := range got {
			if evictionOrder(rankForBudget(got[i], today), rankForBudget(want[i], today)) != 0 {
				t.Fatalf("round %d: victim %d is %+v, want %+v", round, i, *got[i], *want[i])
			}
		}
		kept := slices.Clone(entries)
		keptLongestFirst(kept, today)
		wantKept := slices.Clone(entries)
		slices.SortStableFunc(wantKept, func(a, b *Entry) int {
			return evictionOrder(rankForBudget(b, today), rankForBudget(a, today))
		})
		if !slices.Equal(kept, wantKept) {
			t.Fatalf("round %d: keptLongestFirst differs from the stable sort", round)
		}
	}
}

// keptLongestFirst sorts entries by keptOrder, the order the budget keeps
// them longest: the plain sort that the view's heap and the eviction must
// agree with.
func keptLongestFirst(entries []*Entry, today time.Time) {
	ranked := make([]rankedEntry, len(entries))
	for i, e := range entries {
		ranked[i] = rankForBudget(e, today)
		ranked[i].pos = i
	}
	slices.SortFunc(ranked, keptOrder)
	for i, r := range ranked {
		entries[i] = r.e
	}
}

func rankForBudget(e *Entry, today time.Time) rankedEntry {
	return rankEntry(e, DaysBetween(e.Date, today), 0)
}
