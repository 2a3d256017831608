package memfile

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// judgmentBrief compares word sets as sorted numbers and skips pairs
// whose sizes cannot reach the threshold; the groups must be those of
// the plain map-based Jaccard on every pair.
func TestNearDuplicatesMatchPlainJaccard(t *testing.T) {
	vocab := strings.Fields("cache retry upload billing webhook latency handler session token deploy build tests flaky docs api auth search config release index")
	rng := rand.New(rand.NewPCG(5, 6))
	today := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	for round := range 20 {
		f := New(DefaultConfig())
		for i := range 150 + round*20 {
			n := 1 + rng.IntN(8)
			var words []string
			for range n {
				words = append(words, vocab[rng.IntN(len(vocab))])
			}
			if rng.IntN(10) == 0 {
				words = []string{"a", "to"} // no word of three letters: an empty set
			}
			e := &Entry{ID: itoa(round) + "x" + itoa(i), Importance: 3, Date: today, Text: strings.Join(words, " ")}
			f.Tiers[1].Blocks = append(f.Tiers[1].Blocks, Block{Entry: e})
		}
		deep := &DeepReport{}
		judgmentBrief(f, deep)
		if want := plainNearDuplicates(f); !slices.EqualFunc(deep.NearDuplicates, want, slices.Equal[[]string]) {
			t.Fatalf("round %d: near duplicates\n%v\nwant\n%v", round, deep.NearDuplicates, want)
		}
		if round == 0 && len(deep.NearDuplicates) == 0 {
			t.Fatal("no near duplicates to compare")
		}
	}
}

// plainNearDuplicates is judgmentBrief's grouping as it was written
// first: a map of words per entry and every pair compared.
func plainNearDuplicates(f *File) [][]string {
	all := append(f.Entries(1), f.Entries(2)...)
	if len(all) > nearDuplicateLimit {
		all = all[:nearDuplicateLimit]
	}
	words := make([]map[string]bool, len(all))
	for i, e := range all {
		words[i] = wordSet(e.Text)
	}
	jac := func(a, b map[string]bool) float64 {
		if len(a) == 0 || len(b) == 0 {
			return 0
		}
		inter := 0
		for w := range a {
			if b[w] {
				inter++
			}
		}
		return float64(inter) / float64(len(a)+len(b)-inter)
	}
	parent := make([]int, len(all))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for i := range all {
		for j := i + 1; j < len(all); j++ {
			if jac(words[i], words[j]) >= 0.6 {
				parent[find(j)] = find(i)
			}
		}
	}
	groups := map[int][]string{}
	var roots []int
	for i, e := range all {
		r := find(i)
		if len(groups[r]) == 0 {
			roots = append(roots, r)
		}
		groups[r] = append(groups[r], e.ID)
	}
	var out [][]string
	for _, r := range roots {
		if len(groups[r]) > 1 {
			out = append(out, groups[r])
		}
	}
	return out
}

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
