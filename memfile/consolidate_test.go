package memfile_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

func TestConsolidate(t *testing.T) {
	is := is.New(t)
	doc := fxDoc("",
		fxEntry(3, fxAgo(4), "auth", "Looked at the login form.")+
			fxEntry(4, fxAgo(7), "auth,db", "Moved sessions to the database.")+
			fxEntry(3, fxAgo(2), "auth,testing", "Added login tests.")+
			fxEntry(3, fxAgo(1), "ui", "Unrelated."),
		"[PATTERN:DEVELOPING] [OBSERVATIONS:3] [FIRST:2026-11-20] [LAST:2026-11-24] [TAGS:auth]\nTag auth recurs.\n\n")
	f, _ := fxParse(t, doc)
	f, _ = memfile.Maintain(f, fxToday, memfile.DefaultConfig(), memfile.Options{})
	ids := []string{fxByText(f, "Looked at the login form.").ID, fxByText(f, "Moved sessions to the database.").ID, fxByText(f, "Added login tests.").ID}

	e, gone, err := f.Consolidate(ids, "Login: sessions in the database, form reviewed, tests added.")
	is.NoErr(err)
	is.Equal(e.Importance, 4)                               // the highest
	is.Equal(e.Tags, []string{"auth", "db", "testing"})     // the union
	is.Equal(e.Date.Format("2006-01-02"), fxAgo(2))         // the newest
	is.Equal(fxTexts(f, 2), []string{"Unrelated.", e.Text}) // originals out, summary in
	is.Equal(len(gone), 3)
	for i, a := range gone {
		is.Equal(a.Entry.ID, ids[i])
		is.Equal(a.Reason, "consolidated into "+e.ID)
	}
	p := fxPatternByTag(f, "auth")
	is.True(slices.Contains(p.Evidence, e.ID)) // evidence names the summary
	for _, id := range ids {
		is.True(!slices.Contains(p.Evidence, id))
	}
	// The archive records read back with their reason.
	recs, _ := memfile.ParseArchive(memfile.RenderArchived(gone, fxToday))
	is.Equal(len(recs), 3)
	is.Equal(recs[0].Reason, "consolidated into "+e.ID)
}

func TestConsolidateRefuses(t *testing.T) {
	doc := fxDoc(fxEntry(5, fxAgo(3), "", "Core fact."), fxEntry(3, fxAgo(2), "a", "One.")+fxEntry(3, fxAgo(1), "a", "Two."), "")
	for _, c := range []struct {
		name string
		ids  func(f *memfile.File) []string
		text string
		want string
	}{
		{"one id", func(f *memfile.File) []string { return []string{fxByText(f, "One.").ID} }, "x", "two or more"},
		{"unknown id", func(f *memfile.File) []string { return []string{fxByText(f, "One.").ID, "deadbeef"} }, "x", "no entry deadbeef"},
		{"twice", func(f *memfile.File) []string { id := fxByText(f, "One.").ID; return []string{id, id} }, "x", "named twice"},
		{"empty text", func(f *memfile.File) []string { return []string{fxByText(f, "One.").ID, fxByText(f, "Two.").ID} }, "  ", "empty"},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			f, _ := fxParse(t, doc)
			f, _ = memfile.Maintain(f, fxToday, memfile.DefaultConfig(), memfile.Options{})
			before := string(memfile.Render(f))
			_, _, err := f.Consolidate(c.ids(f), c.text)
			is.True(err != nil)
			is.True(strings.Contains(err.Error(), c.want))
			is.Equal(string(memfile.Render(f)), before) // nothing changed
		})
	}
}

func TestConsolidateWithTier1GoesToTier1(t *testing.T) {
	is := is.New(t)
	f, _ := fxParse(t, fxDoc(fxEntry(5, fxAgo(30), "money", "Amounts are cents."), fxEntry(4, fxAgo(2), "money", "Amounts are integer cents everywhere."), ""))
	e, _, err := f.Consolidate([]string{fxByText(f, "Amounts are cents.").ID, fxByText(f, "Amounts are integer cents everywhere.").ID}, "All money amounts are integer cents.")
	is.NoErr(err)
	is.Equal(fxTexts(f, 1), []string{e.Text})
	is.Equal(len(f.Entries(2)), 0)
	is.Equal(e.Importance, 5)
}

func TestPromote(t *testing.T) {
	is := is.New(t)
	f, _ := fxParse(t, fxDoc("", fxEntry(5, fxAgo(20), "money", "All money amounts are integer cents.")+fxEntry(3, fxAgo(1), "", "Minor."), ""))
	e, err := f.Promote(fxByText(f, "All money amounts are integer cents.").ID)
	is.NoErr(err)
	is.Equal(fxTexts(f, 1), []string{"All money amounts are integer cents."})
	is.Equal(e.Weight.String(), "5.0") // Tier 1 never decays
	_, err = f.Promote(fxByText(f, "Minor.").ID)
	is.True(err != nil && strings.Contains(err.Error(), "Tier 1 holds only 4 and 5"))
	_, err = f.Promote(e.ID)
	is.True(err != nil && strings.Contains(err.Error(), "already in Tier 1"))
	// It stays there through a pass, never weighed by freshness.
	out, _ := memfile.Maintain(f, fxToday, memfile.DefaultConfig(), memfile.Options{})
	is.Equal(fxTexts(out, 1), []string{"All money amounts are integer cents."})
}

func TestWritePattern(t *testing.T) {
	is := is.New(t)
	var t2 strings.Builder
	for i := 0; i < 4; i++ {
		t2.WriteString(fxEntry(3, fxAgo(i), "testing,bugfix", fmt.Sprintf("Fixed bug %d with a regression test.", i)))
	}
	f, _ := fxParse(t, fxDoc("", t2.String(), ""))
	f, _ = memfile.Maintain(f, fxToday, memfile.DefaultConfig(), memfile.Options{})
	auto := fxPatternByTag(f, "testing")
	is.True(auto != nil && !auto.HasSentence())

	// Naming an automatic pattern keeps its ID and counts.
	p, isNew, err := f.WritePattern([]string{"Testing"}, "The user asks for a regression test with every bug fix.", fxToday)
	is.NoErr(err)
	is.True(!isNew)
	is.Equal(p.ID, auto.ID)
	is.True(p.HasSentence())

	// A new pattern over two tags is counted by the next pass, and its
	// sentence survives it.
	q, isNew, err := f.WritePattern([]string{"bugfix", "testing"}, "Bug fixes come with tests.", fxToday)
	is.NoErr(err)
	is.True(isNew)
	out, _ := memfile.Maintain(f, fxToday, memfile.DefaultConfig(), memfile.Options{})
	q = out.FindPattern(q.ID)
	is.Equal(q.Observations, 4)
	is.Equal(q.Level, memfile.Developing)
	is.Equal(q.Text, "Bug fixes come with tests.")
	is.Equal(out.FindPattern(p.ID).Text, "The user asks for a regression test with every bug fix.")

	_, _, err = f.WritePattern(nil, "No tags.", fxToday)
	is.True(err != nil && strings.Contains(err.Error(), "at least one tag"))
	_, _, err = f.WritePattern([]string{"x"}, " ", fxToday)
	is.True(err != nil && strings.Contains(err.Error(), "empty"))
}

func TestAdvise(t *testing.T) {
	is := is.New(t)
	cfg := memfile.DefaultConfig()
	var t2 strings.Builder
	for i := 0; i < 8; i++ {
		t2.WriteString(fxEntry(3, fxAgo(1), "ui", fmt.Sprintf("Recent ui work %d.", i)))
	}
	for i := 0; i < 4; i++ {
		t2.WriteString(fxEntry(4, fxAgo(40+i), "billing", fmt.Sprintf("Old billing work %d.", i)))
	}
	t2.WriteString(fxEntry(5, fxAgo(30), "money", "All money amounts are integer cents."))
	t2.WriteString(fxEntry(5, fxAgo(2), "money", "A decision too new to call lasting."))
	f, _ := fxParse(t, fxDoc("", t2.String(), ""))
	f, _ = memfile.Maintain(f, fxToday, cfg, memfile.Options{})

	a := memfile.Advise(f, fxToday, cfg)
	is.Equal(len(a.Consolidate), 0) // far under 90% of the budget: nothing asked
	is.Equal(a.Promote, "")
	is.Equal(a.Unnamed, []string{fxPatternByTag(f, "ui").ID, fxPatternByTag(f, "billing").ID}) // DEVELOPING+, no sentence, strongest first
	is.Equal(memfile.Unnamed(f, cfg), a.Unnamed)                                               // the same, without the rest of Advise

	cfg.Budgets[1] = memfile.Estimate(f).Tiers[1] // at 100% of its budget
	rendered := string(memfile.Render(f))
	a = memfile.Advise(f, fxToday, cfg)
	is.Equal(string(memfile.Render(f)), rendered) // Advise only reads: SessionStart reuses the file it advised on
	is.Equal(a.ConsolidateTag, "billing")         // the next the budget would take, and its relatives
	is.Equal(len(a.Consolidate), 4)
	is.Equal(a.Consolidate[0], fxByText(f, "Old billing work 3.").ID) // oldest first
	is.Equal(a.Promote, fxByText(f, "All money amounts are integer cents.").ID)

	_, _, err := f.WritePattern([]string{"ui"}, "UI work comes in bursts.", fxToday)
	is.NoErr(err)
	is.Equal(memfile.Advise(f, fxToday, cfg).Unnamed, []string{fxPatternByTag(f, "billing").ID})
	is.Equal(memfile.Unnamed(f, cfg), []string{fxPatternByTag(f, "billing").ID})
	cfg.IgnoreTags = []string{"billing"}
	is.Equal(memfile.Unnamed(f, cfg), memfile.Advise(f, fxToday, cfg).Unnamed) // ignored tags are not asked about
	is.Equal(len(memfile.Unnamed(f, cfg)), 0)
}

// TestAdviseDecisions: once what lasts (Tier 1 and the decisions) passes
// 90% of its room in the view, Advise names the oldest related decisions,
// in one tier and sharing a tag, whose texts a summary can keep within
// the limit; a summary already that long is left alone. Promotion waits
// while Tier 1 is past its part of the view.
func TestAdviseDecisions(t *testing.T) {
	is := is.New(t)
	cfg := memfile.DefaultConfig()
	var t1, t2 strings.Builder
	t1.WriteString(fxEntry(5, fxAgo(90), "core", "A CLI that generates invoices."))
	for i := range 6 {
		t2.WriteString(fxEntry(5, fxAgo(60-i), "money", fmt.Sprintf("Money decision %d: amounts are integer cents in module %d.", i, i)))
	}
	t2.WriteString(fxEntry(5, fxAgo(70), "money", "Money decisions: "+strings.Repeat("kept in a few words; ", 28)+"done."))
	t2.WriteString(fxEntry(5, fxAgo(50), "ui", "A lone ui decision, related to nothing."))
	t2.WriteString(fxEntry(5, fxAgo(1), "money", "A money decision of yesterday, still among the latest work."))
	t2.WriteString(fxEntry(4, fxAgo(80), "money", "Routine money work is not a decision."))
	f, _ := fxParse(t, fxDoc(t1.String(), t2.String(), ""))
	f, _ = memfile.Maintain(f, fxToday, cfg, memfile.Options{})

	tier1, decisions := memfile.Lasting(f)
	is.True(tier1 > 0 && decisions > 0)
	a := memfile.Advise(f, fxToday, cfg)
	is.Equal(a.Lasting, tier1+decisions)
	is.Equal(a.Room, cfg.ContextLimit*memfile.LastingShare/100)
	is.Equal(len(a.Decisions), 0) // well within its room: nothing asked

	cfg.ContextLimit = (tier1 + decisions) * 100 / memfile.LastingShare // what lasts fills its room
	a = memfile.Advise(f, fxToday, cfg)
	is.Equal(a.DecisionsTag, "money")
	want := []string{}
	for i := range 6 {
		want = append(want, fxByText(f, fmt.Sprintf("Money decision %d: amounts are integer cents in module %d.", i, i)).ID)
	}
	is.Equal(a.Decisions, want) // oldest first; not the full summary, yesterday's decision or routine work
	is.Equal(a.Promote, "")     // Tier 2 is far from its budget

	cfg.Budgets[1] = memfile.Estimate(f).Tiers[1] // now it is not
	a = memfile.Advise(f, fxToday, cfg)
	is.True(a.Promote != "" && !slices.Contains(a.Decisions, a.Promote)) // never one entry asked twice
	for _, id := range a.Consolidate {
		is.True(!slices.Contains(a.Decisions, id) && id != a.Promote)
	}
	_, tier1Room := memfile.LastingRoom(cfg)
	is.True(tier1 < tier1Room)
	cfg.ContextLimit = tier1 * 100 / memfile.Tier1Share // Tier 1 fills its part
	a = memfile.Advise(f, fxToday, cfg)
	is.Equal(a.Promote, "")
}
