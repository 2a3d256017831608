//go:build bench

package main

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
)

// TestClinicflowGuarantees lives the Clinicflow scenario with both agent
// behaviours and fails when a guarantee of make eval breaks: a lasting
// fact or decision missing from the view at the end, a superseded entry
// shown without its mark (in the view or a recall), a prompt with no
// answer in memory that got a recall (with and without the lexicon).
//
// Not every guarantee holds yet (docs/recall.md, "How well it works"):
// where one does not, known holds what this tree measures, and the test
// fails when it gets worse, so that no change makes it so unseen; a
// change that mends one lowers its figure here. The lasting entries
// missing move by one or two with the length of the workspace's path,
// which the view names (make eval's and the test's differ).
func TestClinicflowGuarantees(t *testing.T) {
	known := map[string]struct{ missing, unmarked, noneRecalled int }{
		"records": {missing: 8, unmarked: 0, noneRecalled: 0}, // the agent that only records
		"answers": {missing: 0, unmarked: 0, noneRecalled: 0}, // the agent that answers
		"nokeywd": {missing: 2, unmarked: 0, noneRecalled: 0}, // the agent that answers, without keywords
	}
	start := time.Now()
	parent, err := evalDir()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(parent) })
	results, _, err := clinicflow(parent, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("lived and asked in %.1f s", time.Since(start).Seconds())
	for i, r := range results {
		k := known[behaviours[i].key]
		t.Run(behaviours[i].key, func(t *testing.T) {
			for _, f := range []*figures{r.without, r.with} {
				if f == nil {
					continue
				}
				way := map[bool]string{false: "without the lexicon", true: "with the lexicon"}[f == r.with]
				t.Logf("%s: lasting missing %v, unmarked %v, no-answer prompts recalled %d", way, f.missing, f.unmarked, f.noneRecalled)
				if len(f.missing) > k.missing {
					t.Errorf("%s: %d of %d lasting facts and decisions in the view; missing: %s", way, f.lasting, len(lastingKeys()), whereAre(t, r.l, f.missing))
				}
				if len(f.unmarked) > k.unmarked {
					t.Errorf("%s: superseded entries shown without their mark: %s", way, strings.Join(f.unmarked, " "))
				}
				if f.noneRecalled > k.noneRecalled {
					t.Errorf("%s: %d prompts with no answer in memory got a recall", way, f.noneRecalled)
				}
			}
		})
	}
}

// whereAre says, for each story key, where its entry is at the end: in
// bimri.md (and its tier), or archived, when and why.
func whereAre(t *testing.T, l *lived, keys []string) string {
	store, err := store.OpenStore(l.dir, memfile.DefaultConfig(), store.StoreOptions{Today: storyToday, LockTimeout: time.Second, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	read, err := store.Read()
	if err != nil {
		t.Fatal(err)
	}
	recs, err := store.ReadArchive()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, k := range keys {
		id := l.ids[k]
		where := "nowhere"
		if e, tier := read.File.Find(id); e != nil {
			where = "in bimri.md, Tier " + string(rune('0'+tier))
		}
		for _, r := range recs {
			if r.Entry != nil && r.Entry.ID == id {
				where = "archived " + r.ArchivedOn.Format(time.DateOnly) + ": " + r.Reason
			}
		}
		out = append(out, k+" ("+where+")")
	}
	return strings.Join(out, "; ")
}
