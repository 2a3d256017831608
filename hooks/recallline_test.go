package hooks

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/internal/recall"
	"github.com/bimri/bimri-hook/memfile"
)

// recalledLineFmt is recalledLine as it was written with fmt: the
// reference the faster one must match byte for byte.
func recalledLineFmt(it recall.Item, worth recall.Strength) string {
	var b strings.Builder
	b.WriteString("- ")
	if it.Pattern {
		b.WriteString("pattern")
	} else {
		fmt.Fprintf(&b, "%s imp %d", it.Date.Format(time.DateOnly), it.Importance)
	}
	if len(it.Tags) > 0 {
		fmt.Fprintf(&b, " [%s]", strings.Join(it.Tags, ","))
	}
	fmt.Fprintf(&b, ": %s (id %s; ", it.Text, it.ID)
	switch {
	case it.ArchivedOn.IsZero():
		b.WriteString("in bimri.md, left out of the session-start view for space)")
	default:
		fmt.Fprintf(&b, "archived %s: %s", it.ArchivedOn.Format(time.DateOnly), it.Reason)
		superseded := strings.HasPrefix(it.Reason, "superseded by ")
		if superseded {
			b.WriteString(", so it no longer holds")
			if it.Current != "" {
				fmt.Fprintf(&b, "; what holds now: %s", it.Current)
			}
		}
		if worth.Sessions >= recall.KeepAfter && worth.Prompts >= recall.KeepPrompts && !superseded {
			fmt.Fprintf(&b, "; recalled for %d different prompts in %d sessions, worth reviving", worth.Prompts, worth.Sessions)
		}
		b.WriteString(")")
	}
	return b.String()
}

func TestRecalledLineAsFmt(t *testing.T) {
	day := time.Date(2026, 3, 20, 0, 0, 0, 0, time.UTC)
	for _, it := range []recall.Item{
		{ID: "7c1e0a42", Date: day, Importance: 4, Tags: []string{"cache", "redis"}, Text: "Decided to use Redis, 100% (not memcached).", ArchivedOn: day.AddDate(0, 0, 4), Reason: "weight 0.8 below threshold 1.5"},
		{ID: "p1", Pattern: true, Date: day, Tags: []string{"flaky-tests"}, Text: "Tag flaky-tests recurs."},
		{ID: "e1", Date: day, Importance: 0, Text: "No tags, in the file, caf\u00e9 %d %s."},
		{ID: "a1", Pattern: true, Text: "Archived pattern", ArchivedOn: day, Reason: ""},
		{ID: "s1", Date: day, Importance: 5, Text: "Chose Redis for sessions.", ArchivedOn: day, Reason: "superseded by 9a9a9a9a",
			Current: "2026-04-01 imp 5: Sessions live in Postgres. (id 9a9a9a9a, in bimri.md)"},
		{ID: "s2", Date: day, Importance: 5, Text: "Chose Redis for sessions.", ArchivedOn: day, Reason: "superseded by 9a9a9a9a"},
	} {
		for _, worth := range []recall.Strength{{}, {Sessions: 1, Prompts: 1}, {Sessions: recall.KeepAfter, Prompts: 1},
			{Sessions: recall.KeepAfter, Prompts: recall.KeepPrompts}, {Sessions: 7, Prompts: 5}, widestStrength} {
			got, want := recalledLine(it, worth, false), recalledLineFmt(it, worth)
			if got != want {
				t.Errorf("recalledLine(%+v, %v) =\n%s\nwant\n%s", it, worth, got, want)
			}
			// Select measures every line with the widest strength.
			if len(got) > len(recalledLine(it, widestStrength, false)) {
				t.Errorf("recalledLine(%+v, %v) is longer than with %v", it, worth, widestStrength)
			}
		}
	}
}

// A recalled item of bimri.md that this workspace's sessions did not
// record carries the mark, and the context says what the mark means; an
// answer without one has no legend.
func TestRecallContextMarksForeignItems(t *testing.T) {
	env := Env{Binary: "/opt/bin/bimri-hook"}
	hits := []recall.Hit{{Item: recall.Item{ID: "a1", Text: "Deploys run from CI only.", Date: time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC), Importance: 4}}}
	for _, foreign := range []bool{false, true} {
		got := recallContext(env, hits, nil, func(recall.Item) bool { return foreign })
		if strings.Contains(got, memfile.ForeignMark) != foreign || strings.Contains(got, memfile.ForeignLegend) != foreign {
			t.Errorf("foreign %v: %q", foreign, got)
		}
	}
}

// An item of bimri.md is cleaned before recall shows it, as the view is: a
// credential pasted into the file by hand never reaches the model. (The
// archive's items are cleaned when the index is built.)
func TestDescribeHitsCleansTheFilesItems(t *testing.T) {
	key := "ghp" + "_" + strings.Repeat("aB3dE5gH7k", 4)[:36]
	hits := []recall.Hit{{Item: recall.Item{ID: "a1", Text: "The deploy token is " + key + " for now.", Date: time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)}}}
	describeHits(memfile.New(memfile.DefaultConfig()), hits)
	if strings.Contains(hits[0].Item.Text, key) || !strings.Contains(hits[0].Item.Text, "The deploy token is") {
		t.Fatalf("recalled as %q", hits[0].Item.Text)
	}
}
