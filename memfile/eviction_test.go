package memfile_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

// rawScore is importance x freshness, without the floor, in hundredths.
func rawScore(e *memfile.Entry) int {
	return e.Importance * memfile.Freshness(max(memfile.DaysBetween(e.Date, fxToday), 0))
}

// checkEvictionProperties checks the three properties of the budget's
// order on one pass (see docs/design.md); an entry archived as possibly
// superseded goes before the others of its importance. The entries archived for budget
// are listed in the order they went; an entry archived later, like every
// entry kept, still "remained" when an earlier one was taken.
func checkEvictionProperties(t *testing.T, out *memfile.File, rep memfile.Report) {
	t.Helper()
	var gone []*memfile.Entry
	marked := map[*memfile.Entry]bool{} // a newer entry looks like it supersedes it: it goes first
	for _, a := range rep.Removed {
		if a.Entry != nil && strings.Contains(a.Reason, "budget") {
			gone = append(gone, a.Entry)
			marked[a.Entry] = strings.Contains(a.Reason, "possibly superseded by ")
		}
	}
	kept := out.Entries(2)
	for i, a := range gone {
		remained := append(append([]*memfile.Entry{}, gone[i+1:]...), kept...)
		for _, k := range remained {
			if a.Importance == 5 && k.Importance <= 4 {
				t.Errorf("importance 5 %q evicted while importance %d %q remained", a.Text, k.Importance, k.Text)
			}
			if a.Date.Equal(fxToday) && k.Date.Before(a.Date) && k.Importance <= a.Importance {
				t.Errorf("%q evicted on its day while older %q (importance %d <= %d) remained", a.Text, k.Text, k.Importance, a.Importance)
			}
			if a.Importance == k.Importance && !marked[a] {
				ra, rk := rawScore(a), rawScore(k)
				if ra > rk || (ra == rk && a.Date.After(k.Date)) {
					t.Errorf("equal importance %d: %q (score %d, %s) evicted before %q (score %d, %s)",
						a.Importance, a.Text, ra, a.Date.Format("2006-01-02"), k.Text, rk, k.Date.Format("2006-01-02"))
				}
			}
		}
	}
}

// TestBudgetEvictionProperties runs the budget over many random Tier 2s
// (fixed seeds): every importance, ages from today to two months, and
// budgets from tight to loose.
func TestBudgetEvictionProperties(t *testing.T) {
	evicted5, evictedToday := 0, 0
	for seed := uint64(1); seed <= 60; seed++ {
		r := rand.New(rand.NewPCG(seed, 10))
		var t2 strings.Builder
		n := 20 + r.IntN(40)
		for i := 0; i < n; i++ {
			imp := 2 + r.IntN(4)
			age := r.IntN(60)
			if r.IntN(4) == 0 {
				age = r.IntN(2) // plenty of today's and yesterday's work
			}
			t2.WriteString(fxEntry(imp, fxAgo(age), fxTagPool[r.IntN(len(fxTagPool))], fmt.Sprintf("Seed %d entry %d, importance %d, %d days old.", seed, i, imp, age)))
		}
		cfg := memfile.DefaultConfig()
		cfg.Budgets[1] = 100 + r.IntN(900)
		out, rep := fxPass(t, fxDoc("", t2.String(), ""), cfg, memfile.Options{})
		if memfile.Estimate(out).Tiers[1] > cfg.Budgets[1] {
			t.Fatalf("seed %d: Tier 2 over its budget after the pass", seed)
		}
		checkEvictionProperties(t, out, rep)
		for _, a := range rep.Removed {
			if strings.Contains(a.Reason, "budget") {
				if a.Entry.Importance == 5 {
					evicted5++
				}
				if a.Entry.Date.Equal(fxToday) {
					evictedToday++
				}
			}
		}
	}
	// The cases must reach the edges the properties speak of, or they
	// would hold for want of a test.
	if evicted5 == 0 || evictedToday == 0 {
		t.Fatalf("the cases never evicted an importance-5 entry (%d) or one recorded today (%d)", evicted5, evictedToday)
	}
}

// The case: old importance-4 routine work at the floor must not
// crowd out an importance-5 decision or yesterday's importance-2 work.
func TestBudgetKeepsDecisionsAndNewWork(t *testing.T) {
	is := is.New(t)
	var t2 strings.Builder
	for i := 0; i < 30; i++ {
		t2.WriteString(fxEntry(4, fxAgo(30+i), "routine", fmt.Sprintf("Routine importance-4 work number %d, long since done.", i)))
	}
	t2.WriteString(fxEntry(5, fxAgo(130), "money", "All money amounts are integer cents."))
	t2.WriteString(fxEntry(2, fxAgo(1), "docs", "Fixed a typo in the README yesterday."))
	t2.WriteString(fxEntry(3, fxAgo(0), "api", "Added pagination to the list endpoint today."))
	cfg := memfile.DefaultConfig()
	cfg.Budgets[1] = 300
	out, rep := fxPass(t, fxDoc("", t2.String(), ""), cfg, memfile.Options{})
	is.True(len(rep.Removed) > 0)
	for _, text := range []string{"All money amounts are integer cents.", "Fixed a typo in the README yesterday.", "Added pagination to the list endpoint today."} {
		is.True(fxByText(out, text) != nil) // kept
	}
	checkEvictionProperties(t, out, rep)
}

// A busy day: forty long entries in one day, most of importance 2-3 and a
// few of 4, twice Tier 2's budget between them, must not push out months of lasting
// importance-4 decisions: they keep lastingShare of the budget, and the
// day's routine work makes the room.
func TestBudgetBusyDayKeepsLastingDecisions(t *testing.T) {
	var t2 strings.Builder
	var decisions []string
	for i := range 25 {
		text := fmt.Sprintf("Decision %d: the clinic calendar uses choice number %d for good.", i, i)
		decisions = append(decisions, text)
		t2.WriteString(fxEntry(4, fxAgo(30+7*i), "decision", text))
	}
	long := strings.Repeat("Explored the reports module's exports and charts in detail. ", 9)
	for i := range 40 {
		imp := 2 + i%2
		if i%10 == 3 {
			imp = 4
		}
		t2.WriteString(fxEntry(imp, fxAgo(0), "reports", fmt.Sprintf("Busy day note %d. %s", i, long)))
	}
	cfg := memfile.DefaultConfig()
	out, rep := fxPass(t, fxDoc("", t2.String(), ""), cfg, memfile.Options{})
	if memfile.Estimate(out).Tiers[1] > cfg.Budgets[1] {
		t.Fatalf("Tier 2 over its budget after the pass")
	}
	for _, text := range decisions {
		if fxByText(out, text) == nil {
			t.Errorf("lasting decision %q archived for the busy day", text)
		}
	}
	checkEvictionProperties(t, out, rep)
}

// When the budget must take lasting entries, an entry a newer one looks
// like it supersedes goes first, and its archive record keeps the view's
// mark, so recall says so too.
func TestBudgetTakesThePossiblySupersededFirst(t *testing.T) {
	var t2 strings.Builder
	var decisions []string
	for i := range 40 {
		text := fmt.Sprintf("Decision k%dq%dz: the clinic calendar keeps choice %dv.", i, i*7, i*13)
		decisions = append(decisions, text)
		t2.WriteString(fxEntry(4, fxAgo(100+i), fmt.Sprintf("area%d", i), text))
	}
	t2.WriteString(fxEntry(4, fxAgo(90), "sessions", "Sessions and rate limits are kept in Redis."))
	t2.WriteString(fxEntry(4, fxAgo(60), "sessions", "Removed Redis: sessions and rate limits now live in Postgres."))
	long := strings.Repeat("Explored the reports module's exports and charts in detail. ", 9)
	for i := range 40 {
		t2.WriteString(fxEntry(2+i%2, fxAgo(0), "reports", fmt.Sprintf("Busy day note %d. %s", i, long)))
	}
	cfg := memfile.DefaultConfig()
	cfg.Budgets[1] = 1500
	out, rep := fxPass(t, fxDoc("", t2.String(), ""), cfg, memfile.Options{})
	newer := fxByText(out, "Removed Redis: sessions and rate limits now live in Postgres.")
	if newer == nil {
		t.Fatal("the newer decision was archived")
	}
	var reason string
	lasting := 0
	for _, a := range rep.Removed {
		if a.Entry != nil && a.Entry.Text == "Sessions and rate limits are kept in Redis." {
			reason = a.Reason
		}
		if a.Entry != nil && a.Entry.Importance == 4 {
			lasting++
		}
	}
	if lasting == 0 {
		t.Fatal("the budget took no importance-4 entry: the case does not reach what it tests")
	}
	if want := "possibly superseded by " + newer.ID; !strings.Contains(reason, want) {
		t.Errorf("the older decision's archive reason is %q, want it to say %q", reason, want)
	}
	checkEvictionProperties(t, out, rep)
}
