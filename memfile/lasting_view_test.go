package memfile_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
)

// TestViewShowsEveryLastingDecision: nine months of a project - a dozen
// Tier 1 facts, five importance-5 decisions and two dozen lasting
// importance-4 decisions, each a line of ordinary length - and a busy last day of forty long entries. In
// the room a SessionStart view has beside its instructions and a deep
// maintenance brief, every lasting fact and decision is shown, whole or
// in a compact line: none is only named, and none left out.
func TestViewShowsEveryLastingDecision(t *testing.T) {
	today := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	cfg := memfile.DefaultConfig()
	f := memfile.New(cfg)
	var lasting []string
	add := func(tier, imp int, day time.Time, tags []string, text string) {
		e, _, err := f.Add(memfile.NewEntry{Tier: tier, Importance: imp, Date: day, Tags: tags, Text: text})
		if err != nil {
			t.Fatal(err)
		}
		if imp >= 4 && day.Before(today.AddDate(0, 0, -3)) {
			lasting = append(lasting, e.ID)
		}
	}
	// Words and a tag of its own for each item: alike entries would be
	// marked as possibly superseding each other.
	w := func(i int) string { return fmt.Sprintf("k%dq%dz %dv", i, i*7, i*13) }
	start := today.AddDate(0, -9, 0)
	for i := range 12 {
		add(1, 5, start.AddDate(0, 0, i), []string{fmt.Sprintf("fact%d", i)},
			fmt.Sprintf("Fact %s of the project: the scheduling service keeps rule %s for every clinic.", w(i), w(100+i)))
	}
	for i := range 5 {
		add(2, 5, start.AddDate(0, 1, 9*i), []string{fmt.Sprintf("rule%d", i)}, fmt.Sprintf("Decision %s: passwords, tenants and backups follow rule %s.", w(200+i), w(300+i)))
	}
	for i := range 24 {
		add(2, 4, start.AddDate(0, 0, 10*i+3), []string{fmt.Sprintf("area%d", i)},
			fmt.Sprintf("Lasting decision %s: the booking portal uses library %s for its calendar.", w(400+i), w(500+i)))
	}
	long := strings.Repeat("Explored the reports module's exports and charts in detail. ", 9)
	for i := range 40 {
		imp := 2 + i%2
		if i%10 == 3 {
			imp = 4
		}
		add(2, imp, today, []string{"reports"}, fmt.Sprintf("Busy day note %d. %s", i, long))
	}
	f, _ = memfile.Maintain(f, today, cfg, memfile.Options{})
	const room = 6300 // what a view of 10,000 has beside its instructions and a deep brief
	view := memfile.ContextView(f, memfile.View{Limit: room, Sure: room})
	for _, id := range lasting {
		if !strings.Contains(view, "(id "+id+")") {
			e, _ := f.Find(id)
			t.Errorf("lasting %s (imp %d, %s) %q is not in the view", id, e.Importance, e.Date.Format(time.DateOnly), e.Text)
		}
	}
	if t.Failed() {
		t.Log(view)
	}
}

// TestViewShowsPossiblySupersededLast: an entry a newer one looks like it
// supersedes comes after the entries of its group that hold now, Tier 1
// and Tier 2 alike: when room is short, it is the one left out.
func TestViewShowsPossiblySupersededLast(t *testing.T) {
	today := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	cfg := memfile.DefaultConfig()
	f := memfile.New(cfg)
	add := func(tier, ago int, tag, text string) string {
		e, _, err := f.Add(memfile.NewEntry{Tier: tier, Importance: 4, Date: today.AddDate(0, 0, -ago), Tags: []string{tag}, Text: text})
		if err != nil {
			t.Fatal(err)
		}
		return e.ID
	}
	var holds []string
	for i, text := range []string{"Invoices are PDFs rendered with Typst.", "Logs are JSON shipped to Loki.", "Feature flags live in a table."} {
		holds = append(holds, add(2, 100+10*i, fmt.Sprintf("topic%d", i), text))
	}
	old := add(2, 60, "sessions", "Sessions and rate limits are kept in Redis.")
	holds = append(holds, add(2, 30, "sessions", "Removed Redis: sessions and rate limits now live in Postgres."))
	deadline := add(1, 90, "launch", "The launch deadline is June 15.")
	fact := add(1, 200, "stack", "The backend is Go with PostgreSQL.")
	holds = append(holds, add(1, 50, "launch", "The launch deadline moved from June 15 to July 1."))
	f, _ = memfile.Maintain(f, today, cfg, memfile.Options{})
	view := memfile.ContextView(f, memfile.View{Limit: 10000, Sure: 10000})
	at := func(id string) int { return strings.Index(view, "(id "+id+")") }
	for _, stale := range []string{old, deadline} {
		if !strings.Contains(view, memfile.PossiblySupersededMark) || at(stale) < 0 {
			t.Fatalf("%s is not in the view marked:\n%s", stale, view)
		}
	}
	for _, id := range holds {
		if at(id) < 0 {
			t.Fatalf("%s is not in the view:\n%s", id, view)
		}
	}
	if at(old) < at(holds[0]) || at(old) < at(holds[2]) {
		t.Errorf("the possibly superseded %s comes before entries of its group that hold now:\n%s", old, view)
	}
	if at(deadline) < at(fact) {
		t.Errorf("the possibly superseded deadline %s comes before a Tier 1 fact that holds:\n%s", deadline, view)
	}
}
