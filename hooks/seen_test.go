package hooks

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
)

// TestRecallGoesByWhatTheStartShowed: a prompt recalls what the
// session's SessionStart view did not show, as SessionStart recorded it,
// not as the view of the file would be laid out now. An entry the
// session saw whole is not brought back after newer entries have
// crowded it out of the view; a session whose start was not recorded
// still gets it, from the view worked out again.
func TestRecallGoesByWhatTheStartShowed(t *testing.T) {
	r := rand.New(rand.NewPCG(32, 1))
	words := func(n int) string {
		var w []string
		for range n {
			w = append(w, truthWord(r))
		}
		return strings.Join(w, " ") + "."
	}
	cfg := memfile.DefaultConfig()
	f := memfile.New(cfg)
	var early []*memfile.Entry
	for i := range 8 {
		e, _, err := f.Add(memfile.NewEntry{Tier: 2, Importance: 4, Date: truthDay.AddDate(0, 0, -5-i), Tags: []string{"work"}, Text: words(10)})
		if err != nil {
			t.Fatal(err)
		}
		early = append(early, e)
	}
	f, _ = memfile.Maintain(f, truthDay, cfg, memfile.Options{})
	cfg.Budgets[1], cfg.TotalBudget = 1000000, 1000000
	env := truthWorkspace(t, f, cfg)
	view := memoryPart(startText(t, env, "seen"))
	for _, e := range early {
		if !wholeIn(view, e) {
			t.Fatalf("entry %s is not whole in the view of a small file:\n%s", e.ID, view)
		}
	}
	// Work recorded after the start, newer take the view's room: laid out
	// now, it would leave the early entries out.
	if _, err := env.Store.Update(func(tx *store.Tx) error {
		for range 120 {
			if _, _, err := tx.File.Add(memfile.NewEntry{Tier: 2, Importance: 4, Date: truthDay.AddDate(0, 0, -3), Tags: []string{"work"}, Text: words(14)}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	crowded := 0
	for i, e := range early {
		if got := promptContext(t, env, "seen", e.Text); strings.Contains(got, "(id "+e.ID+";") {
			t.Errorf("entry %s, shown whole at the session's start, was recalled:\n%s", e.ID, got)
		}
		if got := promptContext(t, env, fmt.Sprint("unrecorded-", i), e.Text); strings.Contains(got, "(id "+e.ID+";") {
			crowded++
		}
	}
	if crowded == 0 {
		t.Fatal("no early entry is recalled in a session with no recorded start: the newer entries did not crowd them out, and the test shows nothing")
	}
}
