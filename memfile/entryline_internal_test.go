package memfile

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// entryLineRunes counts EntryLine's characters without building it; the
// two must agree on every entry, or the budget drifts from the file.
func TestEntryLineRunes(t *testing.T) {
	day := time.Date(2026, 3, 7, 0, 0, 0, 0, time.UTC)
	entries := []*Entry{
		{ID: "ab12cd34", Importance: 4, Date: day, Tags: []string{"db", "go"}, Weight: 375, HasWeight: true},
		{ID: "x", Importance: 1},
		{ID: "n-2", Importance: 5, Date: day, Tags: []string{"ünï", "ß"}},
		{ID: "ïd", Importance: -3, Weight: -42, HasWeight: true},
		{ID: "big", Importance: 12, Date: time.Date(12026, 1, 2, 0, 0, 0, 0, time.UTC), Weight: 123456, HasWeight: true},
		{ID: "bc", Importance: 2, Date: time.Date(-5, 1, 2, 0, 0, 0, 0, time.UTC), Tags: []string{}},
		// Bytes that are not UTF-8, after ASCII and at the start.
		{ID: "ab\xffé", Importance: 3, Tags: []string{"a\xff", "\xc3é", "é\xc3"}},
	}
	// The edges of four-digit years, in UTC and in zones either side,
	// and weights where the count of digits changes.
	east, west := time.FixedZone("east", 14*3600), time.FixedZone("west", -12*3600)
	for _, d := range []time.Time{
		time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(-1, 12, 31, 23, 59, 59, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC), time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(0, 1, 1, 1, 0, 0, 0, east), time.Date(9999, 12, 31, 23, 0, 0, 0, west),
		time.Date(10000, 1, 1, 0, 0, 0, 0, east), time.Date(-1, 12, 31, 23, 0, 0, 0, west),
	} {
		entries = append(entries, &Entry{ID: "d", Importance: 3, Date: d})
	}
	for _, w := range []Weight{0, 4, 5, 94, 95, 99, 994, 995, 999, 9994, 9995, 99995, -4, -5, -6, -95, -96} {
		entries = append(entries, &Entry{ID: "w", Importance: 10, Weight: w, HasWeight: true})
	}
	for _, parsed := range parsedTestdata(t) {
		for tier := 1; tier <= 3; tier++ {
			entries = append(entries, parsed.f.Entries(tier)...)
		}
	}
	if len(entries) < 20 {
		t.Fatalf("only %d entries to check", len(entries))
	}
	for _, e := range entries {
		if got, want := entryLineRunes(e), utf8.RuneCountInString(EntryLine(e)); got != want {
			t.Errorf("entryLineRunes = %d, EntryLine has %d characters: %q", got, want, EntryLine(e))
		}
	}
}

// renderSize sizes Render's buffer; it must not fall short for files as
// a pass writes them, or Render grows (and copies) it.
func TestRenderSizeCoversRender(t *testing.T) {
	checked := 0
	for _, parsed := range parsedTestdata(t) {
		name, f := parsed.name, parsed.f
		checked++
		if got, need := renderSize(f), len(Render(f)); got < need {
			t.Errorf("%s: renderSize %d, Render writes %d", name, got, need)
		}
	}
	if checked < 5 {
		t.Fatalf("only %d files checked", checked)
	}
	// A big file, where the 4,096 bytes to spare no longer hide a
	// shortfall: every entry as a pass leaves it, tags of every length.
	f := New(DefaultConfig())
	day := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	for i := range 5000 {
		e := &Entry{ID: fmt.Sprintf("%08x", i*7919), Importance: 1 + i%5, Date: day.AddDate(0, 0, -(i % 300)),
			Weight: Weight(i % 10001), HasWeight: true, Text: strings.Repeat("word ", i%40) + "end."}
		for k := range i % 4 {
			e.Tags = append(e.Tags, strings.Repeat("t", 1+(i+k)%40))
		}
		f.Tiers[1].Blocks = append(f.Tiers[1].Blocks, Block{Entry: e})
	}
	if got, need := renderSize(f), len(Render(f)); got < need || got > need*5/4 {
		t.Errorf("a file of 5,000 entries: renderSize %d, Render writes %d", got, need)
	}
}
