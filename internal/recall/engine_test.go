package recall

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// A one-entry archive recalls a prompt that shares its words: the least
// score is a share of what the prompt asks, not a number only a big
// archive's rare words reach. A prompt about something else gets nothing.
func TestOneEntryRecalls(t *testing.T) {
	one := NewMemory([]Item{{ID: "aa000001", Date: date("2026-11-02"), Text: "Moved the reminder jobs to a zanzibar-queue worker pool"}})
	opt := Query{MinShare: DefaultMinShare}
	if got := ids(Rank("Where do the zanzibar-queue reminder jobs run now?", opt, one)); !slices.Equal(got, []string{"aa000001"}) {
		t.Errorf("one entry: recalled %v", got)
	}
	for _, p := range []string{"How do I reverse a linked list in Python?", "Which worker handles the invoices?"} {
		if got := ids(Rank(p, opt, one)); got != nil {
			t.Errorf("%q recalls %v from one unrelated entry", p, got)
		}
	}
}

// When the prompt's rare words are names most entries hold (a chat's two
// speakers), its other word still singles the entry out.
func TestNamesEverywhere(t *testing.T) {
	var items []Item
	chat := []string{"went hiking with the dog", "finished a long book about whales", "cooked a curry for friends",
		"started a pottery class", "painted a sunset over the lake", "fixed the bike's brakes", "moved to a bigger flat"}
	for i := range 40 {
		who := []string{"Caroline", "Melanie"}[i%2]
		items = append(items, Item{ID: fmt.Sprintf("c%07d", i), Date: date("2026-01-01").AddDate(0, 0, i), Text: who + ": Today I " + chat[i%len(chat)] + "."})
	}
	got := ids(Rank("What did Caroline paint?", Query{MinShare: DefaultMinShare, Limit: 3}, NewMemory(items)))
	if len(got) == 0 || textOf(items, got[0]) != "Caroline: Today I painted a sunset over the lake." {
		t.Errorf("recalled %v, want first Caroline's painting", got)
	}
}

// A time scopes the answer and never replaces it: the time's matches
// first, then matches at any time; with none in that time, the matches
// at any time, then the time's entries; a time alone, its entries a day
// at a time.
func TestFindTimeScopes(t *testing.T) {
	items := []Item{
		{ID: "cache001", Date: date("2026-11-09"), Importance: 4, Text: "Switched the session cache from memcached to Redis."},
		{ID: "week0001", Date: date("2026-11-24"), Importance: 3, Text: "Fixed the flaky billing export test."},
		{ID: "week0002", Date: date("2026-11-26"), Importance: 3, Text: "Bumped the Postgres driver."},
		{ID: "depl0001", Date: date("2026-10-14"), Importance: 3, Text: "The deploy broke: a migration locked the appointments table."},
		{ID: "depl0002", Date: date("2026-08-03"), Importance: 3, Text: "The deploy pipeline runs migrations before the web pods roll."},
		{ID: "miss0001", Date: date("2026-09-07"), Importance: 3, Text: "Added the missing index on visits."},
	}
	today := date("2026-11-30")
	find := func(prompt string) []string {
		return ids(Find(Query{Text: prompt, Today: today, MinShare: DefaultMinShare}, NewMemory(items), nil))
	}
	for _, c := range []struct {
		prompt string
		want   []string
	}{
		{"Why did we switch the cache recently?", []string{"cache001", "week0002", "week0001"}},
		{"What broke the deploy in October?", []string{"depl0001"}}, // August shares one word
		{"What did we do last week?", []string{"week0002", "week0001"}},
		{"What did we bump last week?", []string{"week0002"}},
		{"I was off last week, what did I miss?", []string{"week0002", "week0001"}}, // catching up, not "missing"
	} {
		if got := find(c.prompt); !slices.Equal(got, c.want) {
			t.Errorf("%q: %v, want %v", c.prompt, got, c.want)
		}
	}
	strict := Find(Query{Text: "deploy", Since: date("2026-10-01"), Until: date("2026-10-31"), MinShare: DefaultMinShare}, NewMemory(items), nil)
	if got := ids(strict); !slices.Equal(got, []string{"depl0001"}) {
		t.Errorf("deploy in --since/--until October: %v", got)
	}
}

// An item of the best match's day comes before one as good of another
// day: a day's work hangs together.
func TestSameDayRanksFirst(t *testing.T) {
	items := []Item{
		{ID: "best0001", Date: date("2026-11-02"), Text: "The deploy broke: the schema migration locked the appointments table."},
		{ID: "other001", Date: date("2026-11-20"), Text: "Schema migration tooling reviewed for the reports table."},
		{ID: "sameday1", Date: date("2026-11-02"), Text: "Schema migration tooling reviewed for the billing table."},
	}
	items = append(items, corpusItems()...)
	got := ids(Rank("why did the deploy break on the appointments schema migration table", Query{MinShare: DefaultMinShare}, NewMemory(items)))
	if len(got) < 3 || !slices.Equal(got[:2], []string{"best0001", "sameday1"}) {
		t.Errorf("recalled %v, want the best, then its day's other item", got)
	}
}

// FuzzFind: any prompt over any entries answers without a panic (a hook
// would fail), each ranking within its limit (a time gives two: its own
// days', then the rest), and --since keeps only items of its days.
func FuzzFind(f *testing.F) {
	f.Add("How did we fix the cache last week?", "fixed the cache\nchose postgres for storage\ncache latency went down", uint8(3), uint8(5))
	f.Add("on 25 May, 2022 what broke", "deploy broke\nthe deploy of May", uint8(0), uint8(1))
	today := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, prompt, texts string, limit, spread uint8) {
		var items []Item
		for i, line := range strings.Split(texts, "\n") {
			if i > 50 {
				break
			}
			items = append(items, Item{ID: fmt.Sprintf("%08x", i), Date: today.AddDate(0, 0, -i*int(spread)), Text: line, Tags: strings.Fields(line)[:min(1, len(strings.Fields(line)))]})
		}
		q := Query{Text: prompt, Today: today, MinShare: 0.2, Limit: int(limit % 12), Lexicon: limit%2 == 0}
		check := func(hits []Hit, since time.Time) {
			if q.Limit > 0 && len(hits) > 2*q.Limit { // each of a time's two rankings is bounded
				t.Fatalf("%d hits, limit %d", len(hits), q.Limit)
			}
			for _, h := range hits {
				if h.Item.Date.Before(since) {
					t.Fatalf("hit of %s before --since %s", h.Item.Date, since)
				}
			}
		}
		check(Find(q, NewMemory(items), nil), time.Time{})
		q.Since = today.AddDate(0, 0, -int(spread))
		check(Find(q, NewMemory(items[:len(items)/2]), NewMemory(items[len(items)/2:])), q.Since)
	})
}
