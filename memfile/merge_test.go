package memfile_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

// mgDoc is a memory file with a header saying sessions and last, and the
// three tiers' bodies as given.
func mgDoc(sessions int, last, t1, t2, t3 string) string {
	return fmt.Sprintf("<!-- BIMRI v2.0-cc | Last Maintained: %s | Sessions: %d | Token Est: ~300 -->\n"+
		"<!-- Maintenance Due: After 10 sessions or when token estimate exceeds 6,000 -->\n\n"+
		"# BIMRI Memory\n\n## Tier 1: Core Intelligence\n\n%s\n## Tier 2: Active Context\n\n%s\n"+
		"## Tier 3: Pattern Recognition\n\n%s\n<!-- END BIMRI -->\n", last, sessions, t1, t2, t3)
}

// mgE is an entry with an explicit ID.
func mgE(id string, imp int, date, tags, text string) string {
	return fmt.Sprintf("[IMPORTANCE:%d] [TIMESTAMP:%s] [TAGS:%s] [ID:%s]\n%s\n\n", imp, date, tags, id, text)
}

// mgP is a pattern; text "" gives the automatic sentence.
func mgP(id string, obs int, first, last, tags, evidence, text string) string {
	return fmt.Sprintf("[PATTERN:%s] [OBSERVATIONS:%d] [FIRST:%s] [LAST:%s] [TAGS:%s] [EVIDENCE:%s] [ID:%s]\n%s\n\n",
		memfile.LevelFor(obs), obs, first, last, tags, evidence, id, text)
}

// mgEntries describes a file's entries, sorted, weights left out: the
// merge reorders Tier 2 by weight, which these tests do not pin.
func mgEntries(f *memfile.File) []string {
	var out []string
	for tier := 1; tier <= 2; tier++ {
		for _, e := range f.Entries(tier) {
			out = append(out, fmt.Sprintf("T%d %s imp%d %s [%s] %s", tier, e.ID, e.Importance, e.Date.Format("2006-01-02"), strings.Join(e.Tags, ","), e.Text))
		}
	}
	slices.Sort(out)
	return out
}

func mgPatterns(f *memfile.File) []string {
	var out []string
	for _, p := range f.Patterns() {
		out = append(out, fmt.Sprintf("%s %s %d [%s] ev=%s: %s", p.ID, p.Level, p.Observations, strings.Join(p.Tags, ","), strings.Join(p.Evidence, ","), p.Text))
	}
	slices.Sort(out)
	return out
}

func mgNotes(f *memfile.File) []string {
	var out []string
	for _, s := range f.Tiers {
		for _, b := range s.Blocks {
			if b.Note != nil {
				out = append(out, strings.Join(b.Note.Lines, "|"))
			}
		}
	}
	return out
}

func TestMergeFiles(t *testing.T) {
	const (
		d1 = "2026-11-01"
		d2 = "2026-11-10"
		d3 = "2026-11-20"
	)
	baseT2 := mgE("aaaa0001", 3, d1, "db", "Chose SQLite for storage.") +
		mgE("aaaa0002", 2, d1, "ci", "Set up CI.")
	tests := []struct {
		name              string
		base, ours, their string // base "" is git's add/add: no common version
		entries           []string
		patterns          []string
		notes             []string
		sessions          int
		last              string
		report            memfile.MergeReport
	}{
		{
			name:  "each side adds an entry: both kept",
			base:  mgDoc(4, d1, "", baseT2, ""),
			ours:  mgDoc(5, d2, "", baseT2+mgE("bbbb0001", 3, d2, "api", "Added the REST API."), ""),
			their: mgDoc(6, d3, "", baseT2+mgE("cccc0001", 4, d3, "ui", "Built the settings page."), ""),
			entries: []string{
				"T2 aaaa0001 imp3 2026-11-01 [db] Chose SQLite for storage.",
				"T2 aaaa0002 imp2 2026-11-01 [ci] Set up CI.",
				"T2 bbbb0001 imp3 2026-11-10 [api] Added the REST API.",
				"T2 cccc0001 imp4 2026-11-20 [ui] Built the settings page.",
			},
			sessions: 7, // 4 + 1 + 2
			last:     d3,
		},
		{
			name:  "the same entry recorded on both sides: once, higher importance, union of tags",
			base:  mgDoc(4, d1, "", baseT2, ""),
			ours:  mgDoc(5, d2, "", baseT2+mgE("dddd0001", 3, d2, "deploy", "Deployed to staging."), ""),
			their: mgDoc(5, d2, "", baseT2+mgE("dddd0001", 4, d2, "deploy,ops", "Deployed to staging."), ""),
			entries: []string{
				"T2 aaaa0001 imp3 2026-11-01 [db] Chose SQLite for storage.",
				"T2 aaaa0002 imp2 2026-11-01 [ci] Set up CI.",
				"T2 dddd0001 imp4 2026-11-10 [deploy,ops] Deployed to staging.",
			},
			sessions: 6,
			last:     d2,
		},
		{
			name:  "removed on one side, untouched on the other: stays removed",
			base:  mgDoc(4, d1, "", baseT2, ""),
			ours:  mgDoc(5, d2, "", mgE("aaaa0001", 3, d1, "db", "Chose SQLite for storage."), ""),
			their: mgDoc(4, d1, "", baseT2, ""),
			entries: []string{
				"T2 aaaa0001 imp3 2026-11-01 [db] Chose SQLite for storage.",
			},
			sessions: 5,
			last:     d2,
			report:   memfile.MergeReport{Removed: []string{"aaaa0002"}},
		},
		{
			name:  "removed on one side, changed on the other: the change wins",
			base:  mgDoc(4, d1, "", baseT2, ""),
			ours:  mgDoc(4, d1, "", mgE("aaaa0001", 3, d1, "db", "Chose SQLite for storage."), ""),
			their: mgDoc(4, d1, "", mgE("aaaa0001", 3, d1, "db", "Chose SQLite for storage.")+mgE("aaaa0002", 4, d1, "ci", "Set up CI."), ""),
			entries: []string{
				"T2 aaaa0001 imp3 2026-11-01 [db] Chose SQLite for storage.",
				"T2 aaaa0002 imp4 2026-11-01 [ci] Set up CI.",
			},
			sessions: 4,
			last:     d1,
			report:   memfile.MergeReport{Revived: []string{"aaaa0002"}},
		},
		{
			name:  "removed on both sides: gone",
			base:  mgDoc(4, d1, "", baseT2, ""),
			ours:  mgDoc(4, d1, "", mgE("aaaa0001", 3, d1, "db", "Chose SQLite for storage."), ""),
			their: mgDoc(4, d1, "", mgE("aaaa0001", 3, d1, "db", "Chose SQLite for storage."), ""),
			entries: []string{
				"T2 aaaa0001 imp3 2026-11-01 [db] Chose SQLite for storage.",
			},
			sessions: 4,
			last:     d1,
		},
		{
			name:  "changed on one side only: that side's version, even a lower importance",
			base:  mgDoc(4, d1, "", baseT2, ""),
			ours:  mgDoc(4, d1, "", mgE("aaaa0001", 2, d1, "db", "Chose SQLite for storage.")+mgE("aaaa0002", 2, d1, "ci", "Set up CI."), ""),
			their: mgDoc(4, d1, "", baseT2, ""),
			entries: []string{
				"T2 aaaa0001 imp2 2026-11-01 [db] Chose SQLite for storage.",
				"T2 aaaa0002 imp2 2026-11-01 [ci] Set up CI.",
			},
			sessions: 4,
			last:     d1,
		},
		{
			name:  "changed on both sides: higher importance, newer date, union of tags, the changed text",
			base:  mgDoc(4, d1, "", baseT2, ""),
			ours:  mgDoc(4, d1, "", mgE("aaaa0001", 4, d1, "db,decision", "Chose SQLite for storage.")+mgE("aaaa0002", 2, d1, "ci", "Set up CI."), ""),
			their: mgDoc(4, d1, "", mgE("aaaa0001", 2, d2, "db,storage", "Chose SQLite for local storage.")+mgE("aaaa0002", 2, d1, "ci", "Set up CI."), ""),
			entries: []string{
				"T2 aaaa0001 imp4 2026-11-10 [db,decision,storage] Chose SQLite for local storage.",
				"T2 aaaa0002 imp2 2026-11-01 [ci] Set up CI.",
			},
			sessions: 4,
			last:     d1,
		},
		{
			name:  "both sides rewrote the text: both kept, theirs as a new entry",
			base:  mgDoc(4, d1, "", baseT2, ""),
			ours:  mgDoc(4, d1, "", mgE("aaaa0001", 3, d1, "db", "Chose SQLite for local storage.")+mgE("aaaa0002", 2, d1, "ci", "Set up CI."), ""),
			their: mgDoc(4, d1, "", mgE("aaaa0001", 4, d1, "db", "Chose PostgreSQL for storage.")+mgE("aaaa0002", 2, d1, "ci", "Set up CI."), ""),
			entries: []string{
				"T2 aaaa0001 imp3 2026-11-01 [db] Chose SQLite for local storage.",
				"T2 aaaa0002 imp2 2026-11-01 [ci] Set up CI.",
				"T2 " + memfile.EntryID(mgDay(d1), "Chose PostgreSQL for storage.") + " imp4 2026-11-01 [db] Chose PostgreSQL for storage.",
			},
			sessions: 4,
			last:     d1,
			report:   memfile.MergeReport{Split: []memfile.SplitEntry{{ID: "aaaa0001", NewID: memfile.EntryID(mgDay(d1), "Chose PostgreSQL for storage.")}}},
		},
		{
			name:  "promoted to Tier 1 on one side, tagged on the other",
			base:  mgDoc(4, d1, "", mgE("aaaa0001", 4, d1, "db", "Chose SQLite for storage."), ""),
			ours:  mgDoc(4, d1, mgE("aaaa0001", 5, d1, "db", "Chose SQLite for storage."), "", ""),
			their: mgDoc(4, d1, "", mgE("aaaa0001", 4, d1, "db,storage", "Chose SQLite for storage."), ""),
			entries: []string{
				"T1 aaaa0001 imp5 2026-11-01 [db,storage] Chose SQLite for storage.",
			},
			sessions: 4,
			last:     d1,
		},
		{
			name:  "no base (add/add): a two-way union, sessions added up",
			base:  "",
			ours:  mgDoc(3, d2, mgE("eeee0001", 5, d1, "purpose", "A CLI for invoices."), mgE("bbbb0001", 3, d2, "api", "Added the REST API."), ""),
			their: mgDoc(2, d1, mgE("eeee0001", 5, d1, "purpose,cli", "A CLI for invoices."), mgE("cccc0001", 3, d1, "ui", "Built the settings page."), ""),
			entries: []string{
				"T1 eeee0001 imp5 2026-11-01 [cli,purpose] A CLI for invoices.",
				"T2 bbbb0001 imp3 2026-11-10 [api] Added the REST API.",
				"T2 cccc0001 imp3 2026-11-01 [ui] Built the settings page.",
			},
			sessions: 5,
			last:     d2,
		},
		{
			name: "a pattern both sides counted into: union of evidence, counts added up",
			base: mgDoc(4, d1, "", mgE("aaaa0001", 3, d1, "db", "One.")+mgE("aaaa0002", 3, d1, "db", "Two."),
				mgP("p0000001", 2, d1, d1, "db", "aaaa0001,aaaa0002", "")),
			ours: mgDoc(5, d2, "", mgE("aaaa0001", 3, d1, "db", "One.")+mgE("aaaa0002", 3, d1, "db", "Two.")+mgE("bbbb0001", 3, d2, "db", "Three."),
				mgP("p0000001", 3, d1, d2, "db", "aaaa0001,aaaa0002,bbbb0001", "")),
			their: mgDoc(5, d3, "", mgE("aaaa0001", 3, d1, "db", "One.")+mgE("aaaa0002", 3, d1, "db", "Two.")+mgE("cccc0001", 3, d3, "db", "Four."),
				mgP("p0000001", 3, d1, d3, "db", "aaaa0001,aaaa0002,cccc0001", "")),
			entries: []string{
				"T2 aaaa0001 imp3 2026-11-01 [db] One.",
				"T2 aaaa0002 imp3 2026-11-01 [db] Two.",
				"T2 bbbb0001 imp3 2026-11-10 [db] Three.",
				"T2 cccc0001 imp3 2026-11-20 [db] Four.",
			},
			patterns: []string{"p0000001 DEVELOPING 4 [db] ev=aaaa0001,aaaa0002,bbbb0001,cccc0001: Tag db recurs: 4 entries from 2026-11-01 to 2026-11-20."},
			sessions: 6,
			last:     d3,
		},
		{
			name: "a pattern with a full evidence list: the count adds both sides' increments",
			base: mgDoc(4, d1, "", "",
				mgP("p0000001", 12, d1, d1, "db", "e01,e02,e03,e04,e05,e06,e07,e08,e09,e10,e11,e12", "Storage keeps coming up.")),
			ours: mgDoc(4, d1, "", "",
				mgP("p0000001", 14, d1, d2, "db", "e03,e04,e05,e06,e07,e08,e09,e10,e11,e12,o01,o02", "Storage keeps coming up.")),
			their: mgDoc(4, d1, "", "",
				mgP("p0000001", 15, d1, d3, "db", "e04,e05,e06,e07,e08,e09,e10,e11,e12,t01,t02,t03", "Storage keeps coming up.")),
			// The evidence keeps the newest 12; entries not in any file
			// (archived) count as oldest, ordered by ID.
			patterns: []string{"p0000001 ESTABLISHED 17 [db] ev=e06,e07,e08,e09,e10,e11,e12,o01,o02,t01,t02,t03: Storage keeps coming up."},
			sessions: 4,
			last:     d1,
		},
		{
			name: "the same new entry counted on both sides counts once",
			base: mgDoc(4, d1, "", mgE("aaaa0001", 3, d1, "db", "One.")+mgE("aaaa0002", 3, d1, "db", "Two."),
				mgP("p0000001", 2, d1, d1, "db", "aaaa0001,aaaa0002", "")),
			ours: mgDoc(4, d2, "", mgE("aaaa0001", 3, d1, "db", "One.")+mgE("aaaa0002", 3, d1, "db", "Two.")+mgE("dddd0001", 3, d2, "db,ops", "Same."),
				mgP("p0000001", 3, d1, d2, "db", "aaaa0001,aaaa0002,dddd0001", "")),
			their: mgDoc(4, d2, "", mgE("aaaa0001", 3, d1, "db", "One.")+mgE("aaaa0002", 3, d1, "db", "Two.")+mgE("dddd0001", 3, d2, "db", "Same."),
				mgP("p0000001", 3, d1, d2, "db", "aaaa0001,aaaa0002,dddd0001", "")),
			entries: []string{
				"T2 aaaa0001 imp3 2026-11-01 [db] One.",
				"T2 aaaa0002 imp3 2026-11-01 [db] Two.",
				"T2 dddd0001 imp3 2026-11-10 [db,ops] Same.",
			},
			patterns: []string{"p0000001 DEVELOPING 3 [db] ev=aaaa0001,aaaa0002,dddd0001: Tag db recurs: 3 entries from 2026-11-01 to 2026-11-10."},
			sessions: 4,
			last:     d2,
		},
		{
			name: "a sentence written on one side wins over the automatic one",
			base: mgDoc(4, d1, "", "", mgP("p0000001", 2, d1, d1, "db", "aaaa0001,aaaa0002", "")),
			ours: mgDoc(4, d1, "", "", mgP("p0000001", 2, d1, d1, "db", "aaaa0001,aaaa0002", "The database choice is revisited often.")),
			their: mgDoc(4, d1, "", "",
				mgP("p0000001", 3, d1, d2, "db", "aaaa0001,aaaa0002,cccc0001", "")),
			patterns: []string{"p0000001 DEVELOPING 3 [db] ev=aaaa0001,aaaa0002,cccc0001: The database choice is revisited often."},
			sessions: 4,
			last:     d1,
		},
		{
			name:     "a pattern archived on one side and untouched on the other stays archived",
			base:     mgDoc(4, d1, "", "", mgP("p0000001", 2, d1, d1, "db", "aaaa0001,aaaa0002", "")),
			ours:     mgDoc(4, d1, "", "", ""),
			their:    mgDoc(4, d1, "", "", mgP("p0000001", 2, d1, d1, "db", "aaaa0001,aaaa0002", "")),
			sessions: 4,
			last:     d1,
			report:   memfile.MergeReport{Removed: []string{"p0000001"}},
		},
		{
			name:     "notes: both sides' kept once; a base note one side removed stays removed",
			base:     mgDoc(4, d1, "", "Shared note.\n\nOld note.\n\n", ""),
			ours:     mgDoc(4, d1, "", "Shared note.\n\nOurs note.\n\n", ""),
			their:    mgDoc(4, d1, "", "Shared note.\n\nOld note.\n\nTheirs note.\n\nOurs note.\n\n", ""),
			notes:    []string{"Shared note.", "Ours note.", "Theirs note."},
			sessions: 4,
			last:     d1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			var base *memfile.File
			if tt.base != "" {
				base, _ = mgParse(t, tt.base)
			}
			ours, _ := mgParse(t, tt.ours)
			theirs, _ := mgParse(t, tt.their)
			before := [2]string{string(memfile.Render(ours)), string(memfile.Render(theirs))}

			got, rep := memfile.MergeFiles(base, ours, theirs, memfile.DefaultConfig())

			want := slices.Clone(tt.entries)
			slices.Sort(want)
			is.Equal(mgEntries(got), want)
			is.Equal(mgPatterns(got), tt.patterns)
			is.Equal(mgNotes(got), tt.notes)
			is.Equal(got.Header.Sessions, tt.sessions)
			is.Equal(got.Header.LastMaintained.Format("2006-01-02"), tt.last)
			is.Equal(rep, tt.report)

			// The inputs are untouched, the result is canonical (a parse
			// and render give the same bytes) and the same merge gives the
			// same bytes again.
			is.Equal([2]string{string(memfile.Render(ours)), string(memfile.Render(theirs))}, before)
			out := memfile.Render(got)
			again, _ := mgParse(t, string(out))
			is.Equal(string(memfile.Render(again)), string(out))
			got2, _ := memfile.MergeFiles(base, ours, theirs, memfile.DefaultConfig())
			is.Equal(string(memfile.Render(got2)), string(out))
			is.True(!strings.Contains(string(out), "<<<<<<<"))
		})
	}
}

// TestMergeFilesReweighsForTheMergedDay: entries from the side maintained
// earlier get the weight the later side's day gives them, and Tier 2 is in
// weight order.
func TestMergeFilesReweighsForTheMergedDay(t *testing.T) {
	is := is.New(t)
	base, _ := mgParse(t, mgDoc(1, "2026-11-01", "", "", ""))
	ours, _ := mgParse(t, mgDoc(2, "2026-11-29", "",
		"[IMPORTANCE:3] [TIMESTAMP:2026-11-29] [TAGS:a] [WEIGHT:3.0] [ID:bbbb0001]\nFresh.\n\n", ""))
	theirs, _ := mgParse(t, mgDoc(2, "2026-11-02", "",
		"[IMPORTANCE:5] [TIMESTAMP:2026-11-02] [TAGS:b] [WEIGHT:5.0] [ID:cccc0001]\nOld but important.\n\n"+
			"[IMPORTANCE:2] [TIMESTAMP:2026-11-02] [TAGS:c] [WEIGHT:2.0] [ID:cccc0002]\nOld and minor.\n\n", ""))
	got, _ := memfile.MergeFiles(base, ours, theirs, memfile.DefaultConfig())
	var weights []string
	for _, e := range got.Entries(2) {
		weights = append(weights, e.ID+"="+e.Weight.String())
	}
	// 27 days old: importance 5 is floored at 4.0, importance 2 decays to 0.2.
	is.Equal(weights, []string{"cccc0001=4.0", "bbbb0001=3.0", "cccc0002=0.2"})
	is.Equal(got.Header.Sessions, 3)
}

// TestMergeFilesTheirsOnlyNotesAndItemsGoLast: ours' layout is kept and
// what only theirs has follows it.
func TestMergeFilesKeepsOursLayout(t *testing.T) {
	is := is.New(t)
	ours, _ := mgParse(t, mgDoc(0, "2026-11-01",
		mgE("aaaa0002", 5, "2026-11-01", "b", "Second fact.")+"A note between.\n\n"+mgE("aaaa0001", 5, "2026-11-01", "a", "First fact."), "", ""))
	theirs, _ := mgParse(t, mgDoc(0, "2026-11-01",
		mgE("cccc0001", 4, "2026-11-01", "c", "Their fact.")+mgE("aaaa0001", 5, "2026-11-01", "a", "First fact."), "", ""))
	got, _ := memfile.MergeFiles(nil, ours, theirs, memfile.DefaultConfig())
	var ids []string
	for _, b := range got.Tiers[0].Blocks {
		switch {
		case b.Entry != nil:
			ids = append(ids, b.Entry.ID)
		case b.Note != nil:
			ids = append(ids, "note")
		}
	}
	is.Equal(ids, []string{"aaaa0002", "note", "aaaa0001", "cccc0001"})
}

func mgParse(tb testing.TB, s string) (*memfile.File, []memfile.Warning) {
	tb.Helper()
	f, w, err := memfile.Parse([]byte(s))
	if err != nil {
		tb.Fatalf("Parse: %v\n%s", err, s)
	}
	return f, w
}

func mgDay(s string) time.Time {
	d, ok := memfile.ParseDate(s)
	if !ok {
		panic(s)
	}
	return d
}
