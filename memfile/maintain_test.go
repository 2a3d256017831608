package memfile_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

// fxPass parses doc and runs one session-end pass on fxToday.
func fxPass(t *testing.T, doc string, cfg memfile.Config, opt memfile.Options) (*memfile.File, memfile.Report) {
	t.Helper()
	f, _ := fxParse(t, doc)
	return memfile.Maintain(f, fxToday, cfg, opt)
}

func TestMaintainThreshold(t *testing.T) {
	is := is.New(t)
	body := fxEntry(3, fxAgo(4), "", "A: 3 x 0.5 = 1.5 exactly.") +
		fxEntry(2, fxAgo(3), "", "B: 2 x 0.8 = 1.6.") +
		fxEntry(1, fxAgo(0), "", "C: 1 x 1.0 = 1.0.") +
		fxEntry(3, fxAgo(6), "", "D: 3 x 0.35 = 1.05.") +
		fxEntry(2, fxAgo(4), "", "E: 2 x 0.5 = 1.0.") +
		fxEntry(5, fxAgo(60), "", "F: floor 4.0.")
	core := fxEntry(1, fxAgo(90), "", "Tier 1 low importance, never pruned.")
	out, rep := fxPass(t, fxDoc(core, body, ""), memfile.DefaultConfig(), memfile.Options{})
	is.Equal(fxTexts(out, 2), []string{"F: floor 4.0.", "B: 2 x 0.8 = 1.6.", "A: 3 x 0.5 = 1.5 exactly."})
	is.Equal(fxTexts(out, 1), []string{"Tier 1 low importance, never pruned."})
	is.Equal(len(rep.Removed), 3)
	reasons := map[string]string{}
	for _, a := range rep.Removed {
		is.Equal(a.Tier, 2)
		reasons[a.Entry.Text] = a.Reason
	}
	is.Equal(reasons["C: 1 x 1.0 = 1.0."], "weight 1.0 below threshold 1.5")
	is.Equal(reasons["D: 3 x 0.35 = 1.05."], "weight 1.1 below threshold 1.5") // shown rounded, compared exactly
	is.Equal(reasons["E: 2 x 0.5 = 1.0."], "weight 1.0 below threshold 1.5")
	// Weights are written back with one decimal.
	is.Equal(fxByText(out, "A: 3 x 0.5 = 1.5 exactly.").Weight.String(), "1.5")
	is.True(strings.Contains(string(memfile.Render(out)), "[WEIGHT:1.5]"))
}

// TestMaintainThresholdBoundary: a weight of exactly the threshold stays,
// one tenth below goes. The floor setting makes an old importance-4 entry
// weigh exactly 1.4 or 1.5.
func TestMaintainThresholdBoundary(t *testing.T) {
	for _, tc := range []struct {
		floor memfile.Weight
		kept  bool
	}{
		{150, true},
		{149, false},
		{140, false},
		{151, true},
	} {
		t.Run(tc.floor.String(), func(t *testing.T) {
			is := is.New(t)
			cfg := memfile.DefaultConfig()
			cfg.Floor = tc.floor
			out, rep := fxPass(t, fxDoc("", fxEntry(4, fxAgo(40), "", "Old but important."), ""), cfg, memfile.Options{})
			is.Equal(len(out.Entries(2)) == 1, tc.kept)
			is.Equal(len(rep.Removed) == 1, !tc.kept)
		})
	}
	t.Run("threshold setting", func(t *testing.T) {
		is := is.New(t)
		cfg := memfile.DefaultConfig()
		cfg.Threshold = 160
		body := fxEntry(3, fxAgo(4), "", "1.5") + fxEntry(2, fxAgo(3), "", "1.6")
		out, rep := fxPass(t, fxDoc("", body, ""), cfg, memfile.Options{})
		is.Equal(fxTexts(out, 2), []string{"1.6"})
		is.Equal(rep.Removed[0].Reason, "weight 1.5 below threshold 1.6")
	})
}

func TestMaintainOrder(t *testing.T) {
	is := is.New(t)
	entries := []string{
		fxEntry(2, fxAgo(1), "", "Q: 2.0, yesterday."),
		fxEntry(2, fxAgo(0), "", "P: 2.0, today."),
		fxEntry(3, fxAgo(2), "", "T: 2.4."),
		fxEntry(5, fxAgo(20), "", "S: 4.0 by the floor, old."),
		fxEntry(2, fxAgo(0), "", "U: 2.0, today."),
		fxEntry(4, fxAgo(0), "", "R: 4.0, today."),
		fxEntry(2, fxAgo(0), "", "V: 2.0, today."),
	}
	out, _ := fxPass(t, fxDoc("", strings.Join(entries, ""), ""), memfile.DefaultConfig(), memfile.Options{})
	got := fxTexts(out, 2)
	// Weight first; ties newer first; R and S tie at 4.0.
	is.Equal(got[:3], []string{"R: 4.0, today.", "S: 4.0 by the floor, old.", "T: 2.4."})
	is.Equal(got[6], "Q: 2.0, yesterday.")
	// P, U and V tie on weight and date: by ID.
	today := []string{"P: 2.0, today.", "U: 2.0, today.", "V: 2.0, today."}
	slices.SortFunc(today, func(a, b string) int {
		return strings.Compare(memfile.EntryID(fxToday, a), memfile.EntryID(fxToday, b))
	})
	is.Equal(got[3:6], today)

	// The order does not depend on the input's.
	slices.Reverse(entries)
	again, _ := fxPass(t, fxDoc("", strings.Join(entries, ""), ""), memfile.DefaultConfig(), memfile.Options{})
	is.Equal(string(memfile.Render(again)), string(memfile.Render(out)))
}

func TestMaintainNotesKeepTheirSlots(t *testing.T) {
	is := is.New(t)
	body := fxEntry(2, fxAgo(0), "", "Low.") + "A note between.\n\n" + fxEntry(5, fxAgo(0), "", "High.")
	out, _ := fxPass(t, fxDoc("", body, ""), memfile.DefaultConfig(), memfile.Options{})
	bs := out.Tiers[1].Blocks
	is.Equal(len(bs), 3)
	is.Equal(bs[0].Entry.Text, "High.")
	is.Equal(bs[1].Note.Lines, []string{"A note between."})
	is.Equal(bs[2].Entry.Text, "Low.")
}

func TestMaintainHeader(t *testing.T) {
	is := is.New(t)
	doc := fxDoc("", fxEntry(3, fxAgo(0), "", "X."), "") // Sessions: 4, maintained 2026-11-28
	out, rep := fxPass(t, doc, memfile.DefaultConfig(), memfile.Options{})
	is.Equal(out.Header.Sessions, 4) // not counted
	is.Equal(out.Header.LastMaintained, fxToday)
	is.Equal(out.Header.TokenEst, memfile.Estimate(out).Total)
	is.Equal(rep.Tokens, memfile.Estimate(out))
	is.Equal(rep.Budgets, memfile.DefaultConfig().Budgets)

	out, _ = fxPass(t, doc, memfile.DefaultConfig(), memfile.Options{CountSession: true})
	is.Equal(out.Header.Sessions, 5)
	// The time of day and zone of "today" do not matter.
	late := time.Date(2026, 11, 29, 23, 59, 0, 0, time.FixedZone("X", -11*3600))
	f, _ := fxParse(t, doc)
	g, _ := memfile.Maintain(f, late, memfile.DefaultConfig(), memfile.Options{})
	is.Equal(g.Header.LastMaintained, fxToday)
	is.Equal(string(memfile.Render(g)), string(memfile.Render(must(memfile.Maintain(f, fxToday, memfile.DefaultConfig(), memfile.Options{})))))

	// A file without a header gets one.
	f, _ = fxParse(t, fxEntry(3, fxAgo(0), "", "X."))
	g, _ = memfile.Maintain(f, fxToday, memfile.DefaultConfig(), memfile.Options{CountSession: true})
	is.True(strings.HasPrefix(string(memfile.Render(g)), "<!-- BIMRI v2.0-cc | Last Maintained: 2026-11-29 | Sessions: 1 | Token Est: ~"))
}

func must(f *memfile.File, _ memfile.Report) *memfile.File { return f }

func TestMaintainAppliesConfigToComments(t *testing.T) {
	is := is.New(t)
	cw, _ := memfile.Profile("cowork")
	cw.Threshold = 200
	out, _ := fxPass(t, protocolTemplate, cw, memfile.Options{})
	s := string(memfile.Render(out))
	for _, want := range []string{
		"<!-- Maintenance Due: After 15 sessions or when token estimate exceeds 15,000 -->",
		"Budget: ~3,000 tokens. No decay.",
		"Budget: ~8,000 tokens. Freshness decays",
		"Archive threshold: 2.0 -->",
		"Budget: ~3,500 tokens. Confidence-scored.",
	} {
		is.True(strings.Contains(s, want))
	}
}

func TestMaintainDeepDue(t *testing.T) {
	for _, tc := range []struct {
		name     string
		sessions int
		count    bool
		every    int
		total    int
		want     bool
	}{
		{"counting reaches the cadence", 9, true, 10, 6000, true},
		{"already at the cadence", 10, false, 10, 6000, true},
		{"one past", 10, true, 10, 6000, false},
		{"not yet", 8, true, 10, 6000, false},
		{"twentieth", 19, true, 10, 6000, true},
		{"cowork cadence", 14, true, 15, 15000, true},
		{"zero sessions is not due", 0, false, 10, 6000, false},
		{"over the total budget", 3, false, 10, 50, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			cfg := memfile.DefaultConfig()
			cfg.DeepEvery = tc.every
			cfg.TotalBudget = tc.total
			doc := strings.Replace(fxDoc("", fxEntry(5, fxAgo(0), "", "X."), ""), "Sessions: 4", fmt.Sprintf("Sessions: %d", tc.sessions), 1)
			_, rep := fxPass(t, doc, cfg, memfile.Options{CountSession: tc.count})
			is.Equal(rep.DeepDue, tc.want)
		})
	}
}

// TestMaintainPatternLifecycle: a tag on two entries makes an EMERGING
// pattern; a third makes it DEVELOPING, a sixth ESTABLISHED.
func TestMaintainPatternLifecycle(t *testing.T) {
	is := is.New(t)
	cfg := memfile.DefaultConfig()
	body := fxEntry(3, "2026-11-27", "testing,auth", "Tests for auth.") +
		fxEntry(3, "2026-11-28", "testing", "Tests for export.") +
		fxEntry(3, "2026-11-28", "docs", "Wrote the README.")
	f, rep := fxPass(t, fxDoc("", body, ""), cfg, memfile.Options{})
	is.Equal(len(f.Patterns()), 1) // testing only: auth and docs are on one entry each
	p := fxPatternByTag(f, "testing")
	is.True(p != nil)
	is.Equal(p.Level, memfile.Emerging)
	is.Equal(p.Observations, 2)
	is.Equal(p.First, fxDay("2026-11-27"))
	is.Equal(p.Last, fxDay("2026-11-28"))
	is.Equal(p.Evidence, []string{memfile.EntryID(fxDay("2026-11-27"), "Tests for auth."), memfile.EntryID(fxDay("2026-11-28"), "Tests for export.")})
	is.Equal(p.Text, "Tag testing recurs: 2 entries from 2026-11-27 to 2026-11-28.")
	is.Equal(p.ID, memfile.PatternID([]string{"testing"}))
	is.Equal(rep.Patterns, []memfile.PatternChange{{ID: p.ID, Tags: []string{"testing"}, From: "", To: memfile.Emerging, Observations: 2}})

	// The same file on the same day: nothing new.
	f2, rep2 := memfile.Maintain(f, fxToday, cfg, memfile.Options{})
	is.Equal(len(rep2.Patterns), 0)
	is.Equal(fxPatternByTag(f2, "testing").Observations, 2)

	add := func(f *memfile.File, date, text string) {
		_, isNew, err := f.Add(memfile.NewEntry{Tier: 2, Importance: 3, Date: fxDay(date), Tags: []string{"testing"}, Text: text})
		is.NoErr(err)
		is.True(isNew)
	}
	add(f2, "2026-11-29", "Third.")
	f3, rep3 := memfile.Maintain(f2, fxToday, cfg, memfile.Options{})
	p = fxPatternByTag(f3, "testing")
	is.Equal(p.Observations, 3)
	is.Equal(p.Level, memfile.Developing)
	is.Equal(p.Last, fxDay("2026-11-29"))
	is.Equal(p.Text, "Tag testing recurs: 3 entries from 2026-11-27 to 2026-11-29.") // the automatic sentence follows the facts
	is.Equal(rep3.Patterns, []memfile.PatternChange{{ID: p.ID, Tags: []string{"testing"}, From: memfile.Emerging, To: memfile.Developing, Observations: 3}})

	add(f3, "2026-11-29", "Fourth.")
	f4, rep4 := memfile.Maintain(f3, fxToday, cfg, memfile.Options{})
	is.Equal(fxPatternByTag(f4, "testing").Observations, 4)
	is.Equal(len(rep4.Patterns), 0) // the count moved, the level did not

	add(f4, "2026-11-29", "Fifth.")
	add(f4, "2026-11-29", "Sixth.")
	f6, rep6 := memfile.Maintain(f4, fxToday, cfg, memfile.Options{})
	p = fxPatternByTag(f6, "testing")
	is.Equal(p.Observations, 6)
	is.Equal(p.Level, memfile.Established)
	is.Equal(len(p.Evidence), 6)
	is.Equal(rep6.Patterns[0].From, memfile.Developing)
	is.Equal(rep6.Patterns[0].To, memfile.Established)
	is.Equal(rep6.Summary(), "the pattern about testing is now established")

	// Thirty days on, every testing entry is pruned; the count stays.
	later := fxToday.AddDate(0, 0, 30)
	f7, rep7 := memfile.Maintain(f6, later, cfg, memfile.Options{})
	is.Equal(len(f7.Entries(2)), 0)
	is.Equal(len(rep7.Removed), 7)
	p = fxPatternByTag(f7, "testing")
	is.Equal(p.Observations, 6)
	is.Equal(p.Level, memfile.Established)
	is.Equal(len(p.Evidence), 6)
	is.Equal(len(rep7.Patterns), 0)
}

func TestMaintainCountsEntriesPrunedInTheSamePass(t *testing.T) {
	is := is.New(t)
	body := fxEntry(1, fxAgo(30), "lint", "Ran lint, clean.") + fxEntry(1, fxAgo(25), "lint", "Ran lint again.")
	out, rep := fxPass(t, fxDoc("", body, ""), memfile.DefaultConfig(), memfile.Options{})
	is.Equal(len(out.Entries(2)), 0)
	is.Equal(len(rep.Removed), 2)
	p := fxPatternByTag(out, "lint")
	is.True(p != nil)
	is.Equal(p.Observations, 2)
}

func TestMaintainIgnoreTags(t *testing.T) {
	is := is.New(t)
	body := fxEntry(2, fxAgo(0), "auto,build", "Fallback one.") + fxEntry(2, fxAgo(0), "auto,build", "Fallback two.")
	out, _ := fxPass(t, fxDoc("", body, ""), memfile.DefaultConfig(), memfile.Options{})
	is.True(fxPatternByTag(out, "auto") == nil) // where an entry came from is not a pattern
	is.True(fxPatternByTag(out, "build") != nil)
}

func TestMaintainTier1NotInPatterns(t *testing.T) {
	is := is.New(t)
	out, _ := fxPass(t, fxDoc(fxEntry(5, fxAgo(3), "intake", "A.")+fxEntry(5, fxAgo(3), "intake", "B."), "", ""), memfile.DefaultConfig(), memfile.Options{})
	is.Equal(len(out.Patterns()), 0)
}

func TestMaintainEvidenceCap(t *testing.T) {
	is := is.New(t)
	cfg := memfile.DefaultConfig()
	var body strings.Builder
	var ids []string
	for i := 1; i <= 15; i++ {
		date := fmt.Sprintf("2026-11-%02d", i)
		text := fmt.Sprintf("Decision %d.", i)
		body.WriteString(fxEntry(5, date, "arch", text)) // importance 5: the floor keeps them all
		ids = append(ids, memfile.EntryID(fxDay(date), text))
	}
	f, _ := fxPass(t, fxDoc("", body.String(), ""), cfg, memfile.Options{})
	p := fxPatternByTag(f, "arch")
	is.Equal(p.Observations, 15)
	is.Equal(memfile.MaxEvidence, 12)
	is.Equal(p.Evidence, ids[3:]) // the newest twelve, oldest first
	is.Equal(p.First, fxDay("2026-11-01"))
	is.Equal(p.Last, fxDay("2026-11-15"))

	// A newer entry joins; the oldest ID leaves the list, the count goes on.
	_, _, err := f.Add(memfile.NewEntry{Tier: 2, Importance: 5, Date: fxDay("2026-11-20"), Tags: []string{"arch"}, Text: "Decision 20."})
	is.NoErr(err)
	f, _ = memfile.Maintain(f, fxToday, cfg, memfile.Options{})
	p = fxPatternByTag(f, "arch")
	is.Equal(p.Observations, 16)
	is.Equal(len(p.Evidence), memfile.MaxEvidence)
	is.Equal(p.Evidence[11], memfile.EntryID(fxDay("2026-11-20"), "Decision 20."))
	is.Equal(p.Evidence[0], ids[4])

	// With the list full, an entry dated on or before LAST may have been
	// counted and trimmed already: a regular pass does not count it...
	_, _, err = f.Add(memfile.NewEntry{Tier: 2, Importance: 5, Date: fxDay("2026-11-02"), Tags: []string{"arch"}, Text: "Backdated decision."})
	is.NoErr(err)
	f, _ = memfile.Maintain(f, fxToday, cfg, memfile.Options{})
	is.Equal(fxPatternByTag(f, "arch").Observations, 16)
	// ...and a deep pass, which recounts every entry, does.
	f, _ = memfile.Maintain(f, fxToday, cfg, memfile.Options{Deep: true})
	p = fxPatternByTag(f, "arch")
	is.Equal(p.Observations, 17)
	is.Equal(len(p.Evidence), memfile.MaxEvidence)
}

func TestMaintainKeepsAgentSentence(t *testing.T) {
	is := is.New(t)
	body := fxEntry(3, fxAgo(0), "testing", "One.") + fxEntry(3, fxAgo(1), "testing", "Two.") + fxEntry(3, fxAgo(2), "testing", "Three.") +
		fxEntry(3, fxAgo(0), "deploy", "D1.") + fxEntry(3, fxAgo(1), "deploy", "D2.") + fxEntry(3, fxAgo(2), "deploy", "D3.")
	patterns := "[PATTERN:EMERGING] [OBSERVATIONS:2] [TAGS:testing]\nThe user writes tests before code.\n\n" +
		"[PATTERN:EMERGING] [OBSERVATIONS:2] [TAGS:deploy]\nTag deploy recurs: 2 entries.\n\n"
	out, rep := fxPass(t, fxDoc("", body, patterns), memfile.DefaultConfig(), memfile.Options{})
	tp := fxPatternByTag(out, "testing")
	is.Equal(tp.Observations, 3) // the three entries include the two it had seen
	is.Equal(tp.Level, memfile.Developing)
	is.Equal(tp.Text, "The user writes tests before code.")
	dp := fxPatternByTag(out, "deploy")
	is.Equal(dp.Observations, 3)
	is.Equal(dp.Text, fmt.Sprintf("Tag deploy recurs: 3 entries from %s to %s.", fxAgo(2), fxAgo(0)))
	is.Equal(len(rep.Patterns), 2)
	for _, c := range rep.Patterns {
		is.Equal(c.From, memfile.Emerging)
	}
}

func TestMaintainMultiTagPattern(t *testing.T) {
	is := is.New(t)
	body := fxEntry(3, fxAgo(0), "api,perf", "One.") + fxEntry(3, fxAgo(1), "api,perf,db", "Two.") + fxEntry(3, fxAgo(1), "api", "Three.")
	out, _ := fxPass(t, fxDoc("", body, "[PATTERN:EMERGING] [TAGS:perf,api]\nAPI work is about speed.\n"), memfile.DefaultConfig(), memfile.Options{})
	for _, p := range out.Patterns() {
		if len(p.Tags) == 2 {
			is.Equal(p.Observations, 2) // only entries with both tags
			is.Equal(p.Text, "API work is about speed.")
		}
	}
	is.Equal(fxPatternByTag(out, "api").Observations, 3)
}

func TestMaintainDeepCountsArchive(t *testing.T) {
	is := is.New(t)
	doc := fxDoc("", fxEntry(3, fxAgo(0), "perf", "Profiled the export."), "")
	archived := []memfile.Entry{{ID: "old00001", Importance: 2, Date: fxDay("2026-10-01"), Tags: []string{"perf"}, Text: "Old perf work."}}
	out, _ := fxPass(t, doc, memfile.DefaultConfig(), memfile.Options{ArchivedEntries: archived})
	is.Equal(len(out.Patterns()), 0) // a regular pass sees Tier 2 only
	out, _ = fxPass(t, doc, memfile.DefaultConfig(), memfile.Options{Deep: true, ArchivedEntries: archived})
	p := fxPatternByTag(out, "perf")
	is.True(p != nil)
	is.Equal(p.Observations, 2)
	is.Equal(p.First, fxDay("2026-10-01"))
	is.Equal(p.Evidence[0], "old00001")
}

// genBudgetFile writes n Tier 2 entries with importance and age cycling,
// so weights vary and tie.
func genBudgetFile(n int, imp func(i int) int, age func(i int) int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(fxEntry(imp(i), fxAgo(age(i)), "", fmt.Sprintf("Entry number %03d with a summary of a typical length for a session.", i)))
	}
	return fxDoc(fxEntry(5, fxAgo(9), "", "Core."), b.String(), "")
}

func TestMaintainTier2Budget(t *testing.T) {
	is := is.New(t)
	cfg := memfile.DefaultConfig()
	cfg.Budgets[1] = 300
	doc := genBudgetFile(40, func(i int) int { return 2 + i%4 }, func(i int) int { return i % 4 })
	out, rep := fxPass(t, doc, cfg, memfile.Options{})
	is.True(memfile.Estimate(out).Tiers[1] <= 300)
	is.True(len(rep.Removed) > 0)
	is.True(len(out.Entries(2)) > 0)
	for _, a := range rep.Removed {
		is.Equal(a.Reason, "Tier 2 over its budget of 300 tokens")
	}
	checkEvictionProperties(t, out, rep)
	// Only as many as needed: putting back the last one archived would
	// break the budget again.
	last := rep.Removed[len(rep.Removed)-1].Entry
	is.True(memfile.Estimate(out).Tiers[1]+memfile.EstimateText(memfile.EntryLine(last)+"\n"+last.Text) > 300)
	is.Equal(len(rep.Warnings), 0)
}

func TestMaintainTier2BudgetFloorEntries(t *testing.T) {
	is := is.New(t)
	cfg := memfile.DefaultConfig()
	cfg.Budgets[1] = 600
	// All importance 4 or 5 and at least six days old: all weigh 4.0, the
	// floor. The budget looks past it: importance 4 goes first, the oldest
	// (lowest importance x freshness) first; importance 5 stays.
	doc := genBudgetFile(30, func(i int) int { return 4 + i%2 }, func(i int) int { return 6 + (i*7)%30 })
	out, rep := fxPass(t, doc, cfg, memfile.Options{})
	is.True(len(rep.Removed) > 0)
	for _, a := range rep.Removed {
		is.Equal(a.Entry.Weight.String(), "4.0")
		is.Equal(a.Entry.Importance, 4)
	}
	checkEvictionProperties(t, out, rep)
	is.True(memfile.Estimate(out).Tiers[1] <= 600)
}

func TestMaintainTotalBudget(t *testing.T) {
	is := is.New(t)
	cfg := memfile.DefaultConfig()
	cfg.TotalBudget = 700
	doc := genBudgetFile(40, func(i int) int { return 2 + i%4 }, func(i int) int { return i % 4 })
	out, rep := fxPass(t, doc, cfg, memfile.Options{})
	is.True(memfile.Estimate(out).Total <= 700)
	is.True(len(rep.Removed) > 0)
	for _, a := range rep.Removed {
		is.Equal(a.Reason, "file over its total budget of 700 tokens")
	}
	is.Equal(fxTexts(out, 1), []string{"Core."})
}

func TestMaintainTier3Budget(t *testing.T) {
	var patterns strings.Builder
	for i := 0; i < 10; i++ {
		obs := 1 + i%2
		fmt.Fprintf(&patterns, "[PATTERN:EMERGING] [OBSERVATIONS:%d] [FIRST:2026-11-01] [LAST:2026-11-%02d] [TAGS:weak%d]\nWeak pattern %d.\n\n", obs, 10+i, i, i)
	}
	patterns.WriteString("[PATTERN:DEVELOPING] [OBSERVATIONS:4] [TAGS:mid]\nA developing one.\n\n")
	patterns.WriteString("[PATTERN:ESTABLISHED] [OBSERVATIONS:9] [TAGS:strong]\nAn established one.\n\n")
	doc := fxDoc("", "", patterns.String())

	t.Run("weakest EMERGING first", func(t *testing.T) {
		is := is.New(t)
		cfg := memfile.DefaultConfig()
		full, _ := fxPass(t, doc, memfile.DefaultConfig(), memfile.Options{})
		cfg.Budgets[2] = memfile.Estimate(full).Tiers[2] - 40
		out, rep := fxPass(t, doc, cfg, memfile.Options{})
		is.True(memfile.Estimate(out).Tiers[2] <= cfg.Budgets[2])
		is.True(len(rep.Removed) >= 2)
		var keptWeak []*memfile.Pattern
		for _, p := range out.Patterns() {
			if p.Level == memfile.Emerging {
				keptWeak = append(keptWeak, p)
			}
		}
		is.True(len(keptWeak) > 0)
		for _, a := range rep.Removed {
			is.Equal(a.Tier, 3)
			is.Equal(a.Pattern.Level, memfile.Emerging)
			is.True(strings.Contains(a.Reason, "Tier 3 over its budget"))
			for _, k := range keptWeak {
				// Fewest observations first, then the least recently seen.
				is.True(a.Pattern.Observations < k.Observations ||
					(a.Pattern.Observations == k.Observations && !a.Pattern.Last.After(k.Last)))
			}
		}
	})
	t.Run("never DEVELOPING or ESTABLISHED", func(t *testing.T) {
		is := is.New(t)
		cfg := memfile.DefaultConfig()
		cfg.Budgets[2] = 5
		out, rep := fxPass(t, doc, cfg, memfile.Options{})
		is.Equal(len(rep.Removed), 10)
		is.Equal(len(out.Patterns()), 2)
		is.True(strings.Contains(strings.Join(rep.Warnings, "\n"), "Tier 3 uses"))
	})
}

func TestMaintainTier1OverBudgetOnlyReported(t *testing.T) {
	is := is.New(t)
	cfg := memfile.DefaultConfig()
	cfg.Budgets[0] = 10
	var core strings.Builder
	for i := 0; i < 5; i++ {
		core.WriteString(fxEntry(5, fxAgo(100), "", fmt.Sprintf("Core fact %d that never decays.", i)))
	}
	out, rep := fxPass(t, fxDoc(core.String(), fxEntry(3, fxAgo(0), "", "Work."), ""), cfg, memfile.Options{})
	is.Equal(len(out.Entries(1)), 5)
	is.Equal(len(rep.Removed), 0)
	is.Equal(fxTexts(out, 2), []string{"Work."})
	is.True(strings.Contains(strings.Join(rep.Warnings, "\n"), "Tier 1 uses"))
	is.True(strings.Contains(strings.Join(rep.Warnings, "\n"), "never pruned automatically"))
}

func TestMaintainNotesNeverArchived(t *testing.T) {
	is := is.New(t)
	cfg := memfile.DefaultConfig()
	cfg.Budgets[1] = 20
	note := strings.Repeat("A long note a person wrote and wants to keep. ", 10) + "\n"
	out, rep := fxPass(t, fxDoc("", note+"\n"+fxEntry(3, fxAgo(0), "", "Work."), ""), cfg, memfile.Options{})
	is.Equal(len(out.Entries(2)), 0)
	is.Equal(len(rep.Removed), 1)
	is.True(strings.Contains(string(memfile.Render(out)), note))
	is.True(strings.Contains(strings.Join(rep.Warnings, "\n"), "notes alone"))
}

func TestMaintainDeepMerge(t *testing.T) {
	is := is.New(t)
	// A is the more important, B the newer; the merge keeps A's ID with
	// the higher importance, the newer date and both tag sets.
	aText, bText := "Set up the staging server.", "set up the   STAGING server"
	body := fxEntry(3, fxAgo(5), "infra,servers", aText) + // 1.5 before the merge
		fxEntry(2, fxAgo(0), "servers,staging", bText) +
		fxEntry(3, fxAgo(1), "servers", "Something else on the servers.")
	aID := memfile.EntryID(fxDay(fxAgo(5)), aText)
	bID := memfile.EntryID(fxToday, bText)
	// A first pass makes the servers pattern with all three as evidence.
	first, _ := fxPass(t, fxDoc("", body, ""), memfile.DefaultConfig(), memfile.Options{})
	is.Equal(len(fxPatternByTag(first, "servers").Evidence), 3)

	before := string(memfile.Render(first))
	out, rep := memfile.Maintain(first, fxToday, memfile.DefaultConfig(), memfile.Options{Deep: true})
	is.Equal(string(memfile.Render(first)), before) // the input is not changed

	merged, tier := out.Find(aID)
	is.Equal(tier, 2)
	is.Equal(merged.Importance, 3)
	is.Equal(merged.Date, fxToday)
	is.Equal(merged.Tags, []string{"infra", "servers", "staging"})
	is.Equal(merged.Text, aText)
	// The merged entry is weighed as what it now is: importance 3, today.
	is.Equal(merged.Weight.String(), "3.0")
	gone, _ := out.Find(bID)
	is.True(gone == nil)

	is.Equal(len(rep.Removed), 1)
	is.Equal(rep.Removed[0].Entry.ID, bID)
	is.Equal(rep.Removed[0].Reason, "merged into "+aID)
	is.Equal(rep.Deep.Merged, []memfile.Merge{{Kept: aID, Removed: []string{bID}}})

	p := fxPatternByTag(out, "servers")
	is.Equal(p.Observations, 3) // a merge never lowers a count
	is.True(!slices.Contains(p.Evidence, bID))
	is.Equal(len(p.Evidence), 2)
	is.True(slices.Contains(p.Evidence, aID))

	// Weighed before the merge, A would be pruned (3 x 0.15 = 0.45); it is
	// weighed after it and stays.
	oldA := fxEntry(3, fxAgo(20), "infra", aText) + fxEntry(2, fxAgo(0), "", bText)
	out, rep = fxPass(t, fxDoc("", oldA, ""), memfile.DefaultConfig(), memfile.Options{Deep: true})
	is.Equal(fxTexts(out, 2), []string{aText})
	is.Equal(out.Entries(2)[0].Weight.String(), "3.0")
	is.Equal(len(rep.Removed), 1)
	is.True(strings.HasPrefix(rep.Removed[0].Reason, "merged into "))
}

func TestMaintainDeepMergeTier1Wins(t *testing.T) {
	is := is.New(t)
	doc := fxDoc(fxEntry(4, fxAgo(30), "purpose", "An invoice CLI."),
		fxEntry(5, fxAgo(0), "cli", "An invoice CLI!")+fxEntry(3, fxAgo(0), "", "Other."), "")
	out, rep := fxPass(t, doc, memfile.DefaultConfig(), memfile.Options{Deep: true})
	is.Equal(fxTexts(out, 1), []string{"An invoice CLI."})
	e := out.Entries(1)[0]
	is.Equal(e.Importance, 5)
	is.Equal(e.Date, fxToday)
	is.Equal(e.Tags, []string{"cli", "purpose"})
	is.Equal(e.Weight.String(), "5.0")
	is.Equal(fxTexts(out, 2), []string{"Other."})
	is.Equal(rep.Removed[0].Tier, 2)
}

func TestMaintainDeepNoMergeWithoutDeep(t *testing.T) {
	is := is.New(t)
	doc := fxDoc("", fxEntry(3, fxAgo(0), "", "Same.")+fxEntry(3, fxAgo(1), "", "Same."), "")
	out, rep := fxPass(t, doc, memfile.DefaultConfig(), memfile.Options{})
	is.Equal(len(out.Entries(2)), 2)
	is.True(rep.Deep == nil)
}

func TestMaintainDeepOrphanTags(t *testing.T) {
	is := is.New(t)
	doc := fxDoc(fxEntry(5, fxAgo(40), "lonely-core,shared", "Core."),
		fxEntry(3, fxAgo(30), "lonely,shared", "Old and alone.")+
			fxEntry(3, fxAgo(2), "fresh", "Recent, its tag may still recur.")+
			fxEntry(3, fxAgo(25), "patterned", "Tag used by a pattern.")+
			// A decision keeps its subject's tag until the decision that
			// overrides it comes, months later if need be.
			fxEntry(4, fxAgo(60), "redis,sessions", "Sessions are kept in Redis.")+
			fxEntry(5, fxAgo(60), "monorepo", "The monorepo is managed with Nx."),
		"[PATTERN:EMERGING] [OBSERVATIONS:2] [TAGS:patterned]\nP.\n")
	cfg := memfile.DefaultConfig()
	cfg.Threshold = 0 // old routine entries stay, as a user may configure
	out, rep := fxPass(t, doc, cfg, memfile.Options{Deep: true})
	is.Equal(fxByText(out, "Old and alone.").Tags, []string{"shared"})
	is.Equal(fxByText(out, "Core.").Tags, []string{"lonely-core", "shared"}) // Tier 1 is lasting
	is.Equal(fxByText(out, "Recent, its tag may still recur.").Tags, []string{"fresh"})
	is.Equal(fxByText(out, "Tag used by a pattern.").Tags, []string{"patterned"})
	is.Equal(fxByText(out, "Sessions are kept in Redis.").Tags, []string{"redis", "sessions"})
	is.Equal(fxByText(out, "The monorepo is managed with Nx.").Tags, []string{"monorepo"})
	dropped := map[string]bool{}
	for _, d := range rep.Deep.DroppedTags {
		dropped[d.Tag] = true
	}
	is.Equal(dropped, map[string]bool{"lonely": true})
}

func TestMaintainDeepJudgmentBrief(t *testing.T) {
	is := is.New(t)
	core := fxEntry(5, "2026-11-05", "", "Newest core.") + fxEntry(5, "2026-11-01", "", "Oldest core.") + fxEntry(4, "2026-11-03", "", "Middle core.")
	body := fxEntry(3, fxAgo(0), "", "Fixed the flaky login test on the CI runners.") +
		fxEntry(3, fxAgo(1), "", "Fixed flaky login test on CI runners again today.") +
		fxEntry(3, fxAgo(1), "", "Wrote the billing export.")
	out, rep := fxPass(t, fxDoc(core, body, ""), memfile.DefaultConfig(), memfile.Options{Deep: true})
	is.Equal(rep.Deep.ReviewTier1, []string{
		fxByText(out, "Oldest core.").ID, fxByText(out, "Middle core.").ID, fxByText(out, "Newest core.").ID,
	})
	is.Equal(len(rep.Deep.NearDuplicates), 1)
	group := rep.Deep.NearDuplicates[0]
	slices.Sort(group)
	want := []string{fxByText(out, "Fixed the flaky login test on the CI runners.").ID, fxByText(out, "Fixed flaky login test on CI runners again today.").ID}
	slices.Sort(want)
	is.Equal(group, want)
}

// TestMaintainDoesNotModifyInput runs every kind of pass and checks the
// input renders the same afterwards.
func TestMaintainDoesNotModifyInput(t *testing.T) {
	cfg := memfile.DefaultConfig()
	cfg.Budgets[1] = 400
	cfg.Budgets[2] = 30
	data := string(fxGen(200)) // duplicates, patterns, pruning and budget all happen
	data = strings.Replace(data, "## Tier 2: Active Context\n", "## Tier 2: Active Context\n\n"+fxEntry(3, fxAgo(1), "api", "Session 7: dup.")+fxEntry(2, fxAgo(0), "db", "session 7: DUP"), 1)
	for _, opt := range []memfile.Options{{}, {CountSession: true}, {Deep: true, ArchivedEntries: []memfile.Entry{{ID: "a1", Date: fxToday, Tags: []string{"api"}, Text: "x"}}}} {
		t.Run(fmt.Sprintf("%+v", opt.Deep), func(t *testing.T) {
			is := is.New(t)
			f, _ := fxParse(t, data)
			before := string(memfile.Render(f))
			out, rep := memfile.Maintain(f, fxToday, cfg, opt)
			is.Equal(string(memfile.Render(f)), before)
			is.True(len(rep.Removed) > 0)
			// Mutating the result does not reach the input either.
			for _, e := range out.Entries(2) {
				e.Text = "changed"
				if len(e.Tags) > 0 {
					e.Tags[0] = "changed"
				}
			}
			for _, p := range out.Patterns() {
				if len(p.Evidence) > 0 {
					p.Evidence[0] = "changed"
				}
			}
			is.Equal(string(memfile.Render(f)), before)
		})
	}
}

func TestMaintainDeterministic(t *testing.T) {
	is := is.New(t)
	cfg := memfile.DefaultConfig()
	cfg.Budgets[1] = 800
	data := fxGen(300)
	var first []byte
	var firstRep memfile.Report
	for i := 0; i < 5; i++ {
		f, _, err := memfile.Parse(data)
		is.NoErr(err)
		out, rep := memfile.Maintain(f, fxToday, cfg, memfile.Options{CountSession: true, Deep: i%2 == 1})
		got := memfile.Render(out)
		if i%2 == 1 {
			continue // deep passes compared among themselves below
		}
		if first == nil {
			first, firstRep = got, rep
			continue
		}
		is.Equal(string(got), string(first))
		is.True(reflect.DeepEqual(rep, firstRep))
	}
	f1, _, _ := memfile.Parse(data)
	f2, _, _ := memfile.Parse(data)
	d1, r1 := memfile.Maintain(f1, fxToday, cfg, memfile.Options{Deep: true})
	d2, r2 := memfile.Maintain(f2, fxToday, cfg, memfile.Options{Deep: true})
	is.Equal(string(memfile.Render(d1)), string(memfile.Render(d2)))
	is.True(reflect.DeepEqual(r1, r2))
}

// TestMaintainIdempotent: a second pass on the same day changes nothing.
func TestMaintainIdempotent(t *testing.T) {
	cfg := memfile.DefaultConfig()
	for _, n := range []int{10, 100, 400} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			is := is.New(t)
			f, _ := fxParse(t, string(fxGen(n)))
			once, _ := memfile.Maintain(f, fxToday, cfg, memfile.Options{CountSession: true})
			twice, rep := memfile.Maintain(once, fxToday, cfg, memfile.Options{})
			is.Equal(string(memfile.Render(twice)), string(memfile.Render(once)))
			is.Equal(len(rep.Removed), 0)
		})
	}
}

func TestReportSummary(t *testing.T) {
	is := is.New(t)
	body := fxEntry(1, fxAgo(30), "lint", "Ran lint.") + fxEntry(1, fxAgo(29), "lint", "Ran lint again.")
	_, rep := fxPass(t, fxDoc("", body, ""), memfile.DefaultConfig(), memfile.Options{})
	is.Equal(rep.Summary(), "2 archived; a new pattern about lint")
	is.Equal(memfile.Report{}.Summary(), "")
}

// TestMaintainDeepCountsKnownEvidence: a deep pass without the archive
// still counts the entries the evidence list names; a regular pass and a
// deep one agree.
func TestMaintainDeepCountsKnownEvidence(t *testing.T) {
	is := is.New(t)
	doc := fxDoc("", fxEntry(3, fxAgo(0), "api", "New api work.")+fxEntry(3, fxAgo(1), "api", "More api work."),
		"[PATTERN:DEVELOPING] [OBSERVATIONS:3] [TAGS:api] [EVIDENCE:x0000001,x0000002,x0000003]\nAPI work recurs.\n")
	regular, _ := fxPass(t, doc, memfile.DefaultConfig(), memfile.Options{})
	deep, _ := fxPass(t, doc, memfile.DefaultConfig(), memfile.Options{Deep: true})
	is.Equal(fxPatternByTag(regular, "api").Observations, 5)
	is.Equal(fxPatternByTag(deep, "api").Observations, 5)
	is.Equal(fxPatternByTag(deep, "api").Level, memfile.Developing)
	is.Equal(len(fxPatternByTag(deep, "api").Evidence), 5)
}

// An entry dated in the future (a clock set ahead) is dated today by the
// pass, and the report says so: left as it was, it would stay fresh, in
// the view's latest work, until that day came.
func TestFutureDateIsClampedToToday(t *testing.T) {
	is := is.New(t)
	f, _ := fxParse(t, fxDoc("", fxEntry(3, "2036-01-01", "ops", "Recorded with the clock set ahead.")+fxEntry(3, fxAgo(5), "ops", "An ordinary entry."), ""))
	out, rep := memfile.Maintain(f, fxToday, memfile.DefaultConfig(), memfile.Options{})
	e := fxByText(out, "Recorded with the clock set ahead.")
	is.True(e != nil)
	is.Equal(e.Date, fxToday)
	is.True(len(rep.Converted) == 1 && strings.Contains(rep.Converted[0], "2036-01-01"))
	// Two days later, after two days of new work, it is no longer the
	// latest work.
	for ago := range 2 {
		_, _, err := out.Add(memfile.NewEntry{Tier: 2, Importance: 3, Date: fxToday.AddDate(0, 0, 2-ago), Tags: []string{"ops"}, Text: "New work."})
		is.NoErr(err)
	}
	later, _ := memfile.Maintain(out, fxToday.AddDate(0, 0, 2), memfile.DefaultConfig(), memfile.Options{})
	view := memfile.ContextView(later, memfile.View{Limit: 10000})
	latest := ""
	if i := strings.Index(view, "## Latest work"); i >= 0 {
		latest = view[i:]
		if j := strings.Index(latest, "\n## "); j >= 0 {
			latest = latest[:j]
		}
	}
	is.True(strings.Contains(view, "clock set ahead"))
	is.True(!strings.Contains(latest, "clock set ahead"))
}

// A date a few days ahead (clocks in other time zones, a machine sharing
// the file through git) is kept: only a clock far ahead is corrected.
func TestDateJustAheadIsKept(t *testing.T) {
	is := is.New(t)
	ahead := fxToday.AddDate(0, 0, 3)
	f, _ := fxParse(t, fxDoc("", fxEntry(3, ahead.Format("2006-01-02"), "ops", "Recorded on a clock three days ahead."), ""))
	out, rep := memfile.Maintain(f, fxToday, memfile.DefaultConfig(), memfile.Options{})
	e := fxByText(out, "Recorded on a clock three days ahead.")
	is.True(e != nil)
	is.Equal(e.Date, ahead)
	is.Equal(len(rep.Converted), 0)
}

// An entry of 150,000 characters at importance 5, committed by a
// teammate, is set aside whole in the archive before the budget weighs
// anything: today's own Tier 2 entries all stay (issue 34, item 3).
func TestMaintainSetsAsideAnOversizedEntry(t *testing.T) {
	is := is.New(t)
	var body strings.Builder
	var mine []string
	for i := range 8 {
		text := fmt.Sprintf("Own work %d of the day, recorded here.", i)
		mine = append(mine, text)
		body.WriteString(fxEntry(3, fxAgo(0), "work", text))
	}
	huge := "Deploy notes: " + strings.Repeat("x", 150_000)
	body.WriteString(fxEntry(5, fxAgo(0), "deploy", huge))
	big := "Core: " + strings.Repeat("y", memfile.OversizedRunes)
	fits := strings.Repeat("é", memfile.OversizedRunes-10) // more bytes than the limit, fewer characters
	out, rep := fxPass(t, fxDoc(fxEntry(5, fxAgo(3), "core", big)+fxEntry(4, fxAgo(3), "core", fits), body.String(), ""), memfile.DefaultConfig(), memfile.Options{})
	got := fxTexts(out, 2)
	slices.Sort(got)
	is.Equal(got, mine) // every own entry of the day stays
	is.Equal(fxTexts(out, 1), []string{fits})
	is.Equal(len(rep.Removed), 2)
	for _, r := range rep.Removed {
		is.True(r.Entry.Text == huge || r.Entry.Text == big) // whole, in the archive
		is.True(strings.Contains(r.Reason, "set aside"))
	}
}
