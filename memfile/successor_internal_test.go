package memfile

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestLikelySuccessors(t *testing.T) {
	day := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	f := New(DefaultConfig())
	add := func(tier, imp, ago int, tags, text string) *Entry {
		e, _, err := f.Add(NewEntry{Tier: tier, Importance: imp, Date: day.AddDate(0, 0, -ago), Tags: SplitTags(tags), Text: text})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	redis := add(2, 5, 60, "sessions,decision", "Chose Redis for sessions and rate limits.")
	postgres := add(2, 5, 3, "sessions,decision", "Removed Redis: sessions now live in a Postgres table.")
	march := add(1, 5, 90, "deadline", "The deadline is March 1.")
	mid := add(2, 4, 40, "deadline", "The deadline moved to March 15.")
	april := add(1, 5, 10, "deadline", "The deadline is April 2.")
	// Alike but no shared tag beside "decision"; a shared tag but other
	// words; alike but routine work.
	retry := add(2, 5, 50, "payments,decision", "Chose exponential backoff with jitter for the payment gateway retry policy.")
	storage := add(2, 5, 20, "payments,decision", "Chose PostgreSQL with row locks for the payment gateway storage backend.")
	add(2, 5, 30, "billing,decision", "Chose Redis for sessions and rate limits in billing.")
	fix1 := add(2, 2, 30, "sessions", "Fixed a flaky test in the Redis sessions store.")
	add(2, 2, 1, "sessions", "Fixed another flaky test in the Redis sessions store.")

	got := likelySuccessors(f)
	want := map[string]string{redis.ID: postgres.ID, march.ID: april.ID, mid.ID: april.ID}
	for old, n := range want {
		if got[old] != n {
			t.Errorf("successor of %s = %q, want %s", old, got[old], n)
		}
	}
	for _, e := range []*Entry{postgres, april, retry, storage, fix1} {
		if n, ok := got[e.ID]; ok {
			t.Errorf("%s (%s) marked as superseded by %s", e.ID, e.Text, n)
		}
	}
	if len(got) != len(want) {
		t.Errorf("successors %v, want %v", got, want)
	}

	// At record time: the same rule, for one new entry, newest first.
	preds := f.LikelyPredecessors(april)
	if len(preds) != 2 || preds[0] != mid || preds[1] != march {
		t.Errorf("predecessors of %s: %v, want %s then %s", april.ID, preds, mid.ID, march.ID)
	}
	if preds := f.LikelyPredecessors(redis); len(preds) != 0 {
		t.Errorf("an entry's predecessors include newer ones: %v", preds)
	}

	// The view marks the older entry, naming the newer one.
	view := ContextView(f, View{Limit: 10000})
	for old, n := range want {
		found := false
		for _, l := range strings.Split(view, "\n") {
			if strings.Contains(l, "(id "+old+")") {
				found = true
				if !strings.Contains(l, PossiblySupersededMark+n+")") {
					t.Errorf("view line of %s lacks its mark: %q", old, l)
				}
			}
		}
		if !found {
			t.Errorf("%s is not in the view", old)
		}
	}
}

// In a file of more lasting entries than the search looks at, the newest
// are still marked, and LikelyPredecessors still finds them for an
// entry recorded today.
func TestLikelySuccessorsInALargeFile(t *testing.T) {
	day := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	f := New(DefaultConfig())
	add := func(ago int, tags, text string) *Entry {
		e, _, err := f.Add(NewEntry{Tier: 2, Importance: 5, Date: day.AddDate(0, 0, -ago), Tags: SplitTags(tags), Text: text})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	redis := add(20, "sessions", "Chose Redis for sessions and rate limits.")
	for i := range 2 * markedLasting {
		add(30+i%200, fmt.Sprintf("topic%d", i), fmt.Sprintf("Filler decision number %d about topic %d.", i, i))
	}
	postgres := add(1, "sessions", "Removed Redis: sessions now live in a Postgres table.")
	if got := likelySuccessors(f)[redis.ID]; got != postgres.ID {
		t.Errorf("successor of %s = %q, want %s", redis.ID, got, postgres.ID)
	}
	if preds := f.LikelyPredecessors(postgres); len(preds) != 1 || preds[0] != redis {
		t.Errorf("predecessors of %s: %v, want %s", postgres.ID, preds, redis.ID)
	}
	if n := len(lastingSubjects(f).entries); n != markedLasting {
		t.Errorf("the search looked at %d lasting entries, want %d", n, markedLasting)
	}
}
