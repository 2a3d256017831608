package memfile_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

// Keywords: what the agent gives at record time is cleaned and
// normalised as tags are, written on the tag line, read back, and merged
// as tags are when entries meet.
func TestKeywordsRecordedAndKept(t *testing.T) {
	is := is.New(t)
	day := fxDay("2026-11-29")
	key := "ghp" + "_" + "FAKEfake0123456789FAKEfake0123456789" // assembled so scanners do not flag it
	f := memfile.New(memfile.DefaultConfig())
	e, isNew, err := f.Add(memfile.NewEntry{Tier: 2, Importance: 4, Date: day, Tags: []string{"perf"},
		Keywords: []string{" Latency ", "Day View", "latency", "<private>orion</private>", key},
		Text:     "Index on appointments(clinic_id, starts_at) took the day view query from 180ms to 9ms."})
	is.NoErr(err)
	is.True(isNew)
	is.Equal(e.Keywords, []string{"day-view", "latency", "redacted"}) // normal, sorted, once; nothing private

	out := string(memfile.Render(f))
	is.True(strings.Contains(out, "[TAGS:perf] [KEYWORDS:day-view,latency,redacted] [ID:"))
	is.True(!strings.Contains(out, "FAKEfake") && !strings.Contains(out, "orion"))

	// The same text again the same day: the union of the keywords.
	again, isNew, err := f.Add(memfile.NewEntry{Tier: 2, Importance: 3, Date: day, Keywords: []string{"faster"}, Text: e.Text})
	is.NoErr(err)
	is.True(!isNew)
	is.Equal(again.Keywords, []string{"day-view", "faster", "latency", "redacted"})

	// Round trip, and a clone's keywords are its own.
	g, _, err := memfile.Parse(memfile.Render(f))
	is.NoErr(err)
	read, _ := g.Find(e.ID)
	is.Equal(read.Keywords, again.Keywords)
	is.Equal(string(memfile.Render(g)), string(memfile.Render(f)))
	c := g.Clone()
	ce, _ := c.Find(e.ID)
	ce.Keywords[0] = "changed"
	is.Equal(read.Keywords[0], "day-view")

	// The archive keeps them, so recall of an archived entry finds them.
	gone, ok := g.Remove(e.ID, "test")
	is.True(ok)
	recs, warns := memfile.ParseArchive(memfile.RenderArchived([]memfile.Removal{gone}, day))
	is.Equal(len(warns), 0)
	is.Equal(recs[0].Entry.Keywords, again.Keywords)
}

func TestKeywordsRefused(t *testing.T) {
	for _, tc := range []struct {
		name     string
		keywords []string
		msg      string
	}{
		{"too many", []string{"a1", "b2", "c3", "d4", "e5", "f6"}, "6 keywords, over the limit of 5"},
		{"too long", []string{"short", strings.Repeat("x", 41)}, "is too long"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			f := memfile.New(memfile.DefaultConfig())
			before := string(memfile.Render(f))
			_, _, err := f.Add(memfile.NewEntry{Tier: 2, Importance: 3, Date: fxDay("2026-11-29"), Keywords: tc.keywords, Text: "x"})
			is.True(err != nil)
			is.True(strings.Contains(err.Error(), tc.msg)) // names the problem
			is.Equal(string(memfile.Render(f)), before)    // nothing was added
		})
	}
}

// A consolidation's summary carries the keywords of every entry it sums
// up, as it carries their tags.
func TestConsolidateUnitesKeywords(t *testing.T) {
	is := is.New(t)
	day := fxDay("2026-11-29")
	f := memfile.New(memfile.DefaultConfig())
	a, _, err := f.Add(memfile.NewEntry{Tier: 2, Importance: 3, Date: day, Keywords: []string{"login"}, Text: "Added the login form."})
	is.NoErr(err)
	b, _, err := f.Add(memfile.NewEntry{Tier: 2, Importance: 3, Date: day, Keywords: []string{"sign-in", "session"}, Text: "Sessions expire after a day."})
	is.NoErr(err)
	sum, _, err := f.Consolidate([]string{a.ID, b.ID}, "Login form added; sessions expire after a day.")
	is.NoErr(err)
	is.Equal(sum.Keywords, []string{"login", "session", "sign-in"})
	kw, err := memfile.Keywords([]string{"Sign In", " "})
	is.NoErr(err)
	is.True(slices.Equal(kw, []string{"sign-in"}))
}
