package memfile

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// holdsFile is a decision and a newer one alike: the view marks the
// older as possibly superseded until the agent answers.
func holdsFile(t *testing.T) (f *File, redis, postgres, cookies *Entry) {
	t.Helper()
	day := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	f = New(DefaultConfig())
	add := func(ago int, text string) *Entry {
		e, _, err := f.Add(NewEntry{Tier: 2, Importance: 5, Date: day.AddDate(0, 0, -ago), Tags: []string{"decision", "sessions"}, Text: text})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	redis = add(60, "Chose Redis for sessions and rate limits.")
	postgres = add(3, "Removed Redis: sessions now live in a Postgres table.")
	cookies = add(50, "Session cookies are HttpOnly and SameSite=Lax.")
	if likelySuccessors(f)[redis.ID] != postgres.ID || !slices.Contains(f.LikelyPredecessors(postgres), redis) {
		t.Fatalf("the pair is not marked to start with: %v", likelySuccessors(f))
	}
	return f, redis, postgres, cookies
}

// unmarked says the pair of a and b is neither marked nor asked about.
func unmarked(t *testing.T, f *File, older, newer *Entry) {
	t.Helper()
	if n, ok := likelySuccessors(f)[older.ID]; ok && n == newer.ID {
		t.Errorf("%s still marked as possibly superseded by %s", older.ID, newer.ID)
	}
	if slices.ContainsFunc(f.LikelyPredecessors(newer), func(e *Entry) bool { return e.ID == older.ID }) {
		t.Errorf("%s still asked about as superseding %s", newer.ID, older.ID)
	}
	if view := ContextView(f, View{Limit: 10000}); strings.Contains(view, "possibly superseded by "+newer.ID) {
		t.Errorf("the view still marks it:\n%s", view)
	}
}

func TestHoldTogether(t *testing.T) {
	f, redis, postgres, _ := holdsFile(t)
	es, err := f.HoldTogether([]string{redis.ID, postgres.ID}) // any order
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 2 || es[0] != postgres || !slices.Equal(postgres.HoldsWith, []string{redis.ID}) || redis.HoldsWith != nil {
		t.Fatalf("kept on the newer entry: %v; newer %v, older %v", es, postgres.HoldsWith, redis.HoldsWith)
	}
	unmarked(t, f, redis, postgres)

	// A write and a read keep the answer, in the canonical form.
	out := Render(f)
	if !strings.Contains(string(out), "[ID:"+postgres.ID+"] [HOLDS_WITH:"+redis.ID+"]\n") {
		t.Errorf("not on the newer entry's tag line:\n%s", out)
	}
	g, _, err := Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	if string(Render(g)) != string(out) {
		t.Errorf("not canonical: a round trip changed it")
	}
	gr, _ := g.Find(redis.ID)
	gp, _ := g.Find(postgres.ID)
	unmarked(t, g, gr, gp)

	// Answered again, or with the same pair inside a larger one: once.
	if _, err := g.HoldTogether([]string{gp.ID, gr.ID}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(gp.HoldsWith, []string{gr.ID}) {
		t.Errorf("answered twice: %v", gp.HoldsWith)
	}
}

// A consolidation keeps the answer: the summary of the older entry is
// not marked as superseded by the newer one, and the summary of the
// newer one holds beside the older.
func TestHoldTogetherSurvivesConsolidation(t *testing.T) {
	f, redis, postgres, cookies := holdsFile(t)
	if _, err := f.HoldTogether([]string{postgres.ID, redis.ID}); err != nil {
		t.Fatal(err)
	}
	sum, _, err := f.Consolidate([]string{redis.ID, cookies.ID}, "Chose Redis for sessions and rate limits; session cookies are HttpOnly.")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(postgres.HoldsWith, []string{sum.ID}) {
		t.Errorf("the answer names %v, not the summary %s", postgres.HoldsWith, sum.ID)
	}
	unmarked(t, f, sum, postgres)

	f, redis, postgres, cookies = holdsFile(t)
	if _, err := f.HoldTogether([]string{postgres.ID, redis.ID}); err != nil {
		t.Fatal(err)
	}
	sum, _, err = f.Consolidate([]string{postgres.ID, cookies.ID}, "Removed Redis: sessions live in Postgres; cookies are HttpOnly.")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(sum.HoldsWith, []string{redis.ID}) {
		t.Errorf("the summary holds with %v, want %s", sum.HoldsWith, redis.ID)
	}
	unmarked(t, f, redis, sum)
}

func TestHoldTogetherRefused(t *testing.T) {
	f, redis, postgres, _ := holdsFile(t)
	f.Tiers[2].Blocks = append(f.Tiers[2].Blocks, Block{Pattern: &Pattern{ID: "p1234567", Level: Emerging, Tags: []string{"x"}, Text: "x"}})
	before := string(Render(f))
	for _, tc := range []struct {
		ids  []string
		want string
	}{
		{[]string{postgres.ID, "deadbeef"}, "no entry deadbeef in the memory file"},
		{[]string{postgres.ID}, "name two or more entries"},
		{[]string{postgres.ID, postgres.ID}, "named twice"},
		{[]string{redis.ID, "p1234567"}, "p1234567 is a pattern"},
	} {
		_, err := f.HoldTogether(tc.ids)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("HoldTogether(%v) = %v, want an error saying %q", tc.ids, err, tc.want)
		}
		if got := string(Render(f)); got != before {
			t.Errorf("HoldTogether(%v) changed the file:\n%s", tc.ids, got)
		}
	}
}

// Recall marks an archived entry as the view marks one of the file: not
// when the agent answered that it holds beside the newer one.
func TestHoldTogetherInRecall(t *testing.T) {
	for _, answered := range []bool{false, true} {
		f, redis, postgres, _ := holdsFile(t)
		if answered {
			if _, err := f.HoldTogether([]string{postgres.ID, redis.ID}); err != nil {
				t.Fatal(err)
			}
		}
		if _, ok := f.Remove(redis.ID, "budget"); !ok {
			t.Fatal("no entry to archive")
		}
		switch got := f.Successors()(redis); {
		case answered && got != nil:
			t.Errorf("answered as both holding, the archived entry is marked as superseded by %s", got.ID)
		case !answered && got != postgres:
			t.Errorf("unanswered, the archived entry's successor is %v, want %s", got, postgres.ID)
		}
	}
}
