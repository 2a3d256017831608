package memfile

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

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
