package memfile

import (
	"fmt"
	"testing"
	"time"
)

// The view stops building Tier 2 lines once a group is longer than the
// whole view; it must show exactly what it showed when it built them all.
func TestViewWithoutUnshowableLinesIsTheSame(t *testing.T) {
	today := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	f := New(DefaultConfig())
	f.Header.LastMaintained = today
	f.Header.Sessions = 7
	for i := range 3000 {
		e := &Entry{
			ID:         fmt.Sprintf("e%04d", i),
			Importance: 1 + i%5,
			Date:       today.AddDate(0, 0, -(i % 90)),
			Tags:       []string{fmt.Sprintf("t%d", i%7)},
			Text:       fmt.Sprintf("Entry %d: did a thing of some length, %s.", i, "é"[:i%2*2]),
		}
		e.Weigh(2, today, DefaultConfig())
		tier := 1
		if e.Importance >= 4 && i%40 == 0 {
			tier = 0
		}
		f.Tiers[tier].Blocks = append(f.Tiers[tier].Blocks, Block{Entry: e})
	}
	for _, limit := range []int{300, 2000, 10000, 60000, 400000} {
		got := ContextView(f, View{Limit: limit})
		buildEveryLine = true
		want := ContextView(f, View{Limit: limit})
		buildEveryLine = false
		if got != want {
			t.Fatalf("limit %d: the view changed when lines past the limit were not built:\n%s\n---- want ----\n%s", limit, got, want)
		}
	}
}

func TestViewEntryLength(t *testing.T) {
	day := time.Date(2026, 3, 7, 0, 0, 0, 0, time.UTC)
	entries := []*Entry{
		{ID: "ab12cd34", Importance: 4, Date: day, Tags: []string{"db", "go"}, Weight: 375, HasWeight: true, Text: "Chose Postgres."},
		{ID: "x", Importance: 1, Text: "undated, untagged: é ü 𝄞"},
		{ID: "n-2", Importance: 5, Date: day, Tags: []string{"ünï"}, Text: "a\nb \xe2\x82"},
		{ID: "big", Importance: 12, Date: time.Date(12026, 1, 2, 0, 0, 0, 0, time.UTC), Weight: -42, Text: "\xff\xfe"},
	}
	for _, e := range entries {
		for _, w := range []bool{false, true} {
			if got, want := viewEntryLength(e, w), Length(viewEntry(e, w)); got != want {
				t.Errorf("viewEntryLength(%q, %v) = %d, the line is %d long", e.Text, w, got, want)
			}
		}
	}
}
