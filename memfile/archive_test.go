package memfile_test

import (
	"strings"
	"testing"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

func TestArchiveRoundTrip(t *testing.T) {
	is := is.New(t)
	// Real archived items, from a pass that prunes, merges and trims
	// Tier 3.
	cfg := memfile.DefaultConfig()
	cfg.Budgets[2] = 5
	body := fxEntry(1, fxAgo(30), "lint", "Ran lint.") +
		fxEntry(1, fxAgo(29), "lint", "Ran lint again.") +
		fxEntry(3, fxAgo(0), "", "Same thing.") +
		fxEntry(2, fxAgo(1), "", "same thing")
	_, rep := fxPass(t, fxDoc("", body, "[PATTERN:EMERGING] [OBSERVATIONS:1] [TAGS:weak]\nA weak hunch.\n"), cfg, memfile.Options{Deep: true})
	is.True(len(rep.Removed) >= 4) // two pruned, one merged, patterns trimmed
	var merged, pattern bool
	for _, a := range rep.Removed {
		merged = merged || strings.HasPrefix(a.Reason, "merged into ")
		pattern = pattern || a.Pattern != nil
	}
	is.True(merged && pattern)

	day := fxDay("2026-11-29")
	data := append([]byte(memfile.ArchiveHeading), memfile.RenderArchived(rep.Removed, day)...)
	recs, w := memfile.ParseArchive(data)
	is.Equal(len(w), 0)
	is.Equal(len(recs), len(rep.Removed))
	for i, r := range recs {
		a := rep.Removed[i]
		is.Equal(r.Tier, a.Tier)
		is.Equal(r.ArchivedOn, day)
		is.Equal(r.Reason, a.Reason)
		if a.Entry != nil {
			is.True(r.Entry != nil)
			is.Equal(*r.Entry, *a.Entry)
		} else {
			is.True(r.Pattern != nil)
			is.Equal(*r.Pattern, *a.Pattern)
		}
	}
}

func TestArchiveAppendOnly(t *testing.T) {
	is := is.New(t)
	e1 := &memfile.Entry{ID: "aaa11111", Importance: 2, Date: fxDay("2026-11-01"), Tags: []string{"x"}, Weight: 30, HasWeight: true, Text: "First."}
	e2 := &memfile.Entry{ID: "bbb22222", Importance: 5, Date: fxDay("2026-11-02"), Text: "Second."}
	data := []byte(memfile.ArchiveHeading)
	data = append(data, memfile.RenderArchived([]memfile.Removal{{Tier: 2, Entry: e1, Reason: "weight 0.3 below threshold 1.5"}}, fxDay("2026-11-20"))...)
	data = append(data, memfile.RenderArchived([]memfile.Removal{{Tier: 1, Entry: e2, Reason: "merged into aaa11111"}}, fxDay("2026-11-21"))...)
	recs, w := memfile.ParseArchive(data)
	is.Equal(len(w), 0)
	is.Equal(len(recs), 2)
	is.Equal(recs[0].Entry.Text, "First.")
	is.Equal(recs[0].ArchivedOn, fxDay("2026-11-20"))
	is.Equal(recs[1].Tier, 1)
	is.Equal(recs[1].Entry.ID, "bbb22222")
	is.Equal(recs[1].Reason, "merged into aaa11111")
	// Appending never rewrites what was there.
	is.True(strings.HasPrefix(string(data), memfile.ArchiveHeading))
}

func TestArchiveReasonCannotBreakTheRecord(t *testing.T) {
	is := is.New(t)
	e := &memfile.Entry{ID: "aaa11111", Importance: 2, Date: fxDay("2026-11-01"), Text: "X."}
	data := memfile.RenderArchived([]memfile.Removal{{Tier: 2, Entry: e, Reason: "odd [REASON:fake]\nsecond line"}}, fxToday)
	recs, w := memfile.ParseArchive(data)
	is.Equal(len(w), 0)
	is.Equal(len(recs), 1)
	is.Equal(recs[0].Reason, "odd (REASON:fake) second line")
	is.Equal(recs[0].Entry.Text, "X.")
}

func TestParseArchiveLenient(t *testing.T) {
	is := is.New(t)
	data := strings.ReplaceAll(memfile.ArchiveHeading+
		"\n[IMPORTANCE:3] [TIMESTAMP:2026-11-01] [TAGS:a] [TIER:2] [ARCHIVED:2026-11-20] [REASON:by hand]\nWritten by hand, no ID.\n"+
		"\n[IMPORTANCE:9] [TIMESTAMP:2026-11-01] [TIER:2]\nBad importance.\n"+
		"\nsome stray text\n"+
		"\n[IMPORTANCE:2] [TIMESTAMP:2026-11-02] [TIER:7] Same-line summary, odd tier.\n", "\n", "\r\n")
	recs, w := memfile.ParseArchive([]byte(data))
	is.Equal(len(recs), 2)
	is.Equal(recs[0].Entry.ID, memfile.EntryID(fxDay("2026-11-01"), "Written by hand, no ID."))
	is.Equal(recs[0].Reason, "by hand")
	is.Equal(recs[1].Tier, 2) // an unknown tier reads as Tier 2
	is.Equal(recs[1].Entry.Text, "Same-line summary, odd tier.")
	is.Equal(len(w), 1)
	is.Equal(w[0].Line, 7) // the record's tag line
	is.True(strings.Contains(w[0].Message, "IMPORTANCE"))
}
