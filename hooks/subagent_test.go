package hooks

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
)

// The pack keeps whole entry lines, in order, within subagentLimit, and
// marks entries that came from elsewhere once with the legend.
func TestSubagentPackFitsWholeLines(t *testing.T) {
	f := memfile.New(memfile.DefaultConfig())
	day := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	for i := range 40 {
		text := fmt.Sprintf("Decision %02d: %s", i, strings.Repeat("keep the invoice renderer pure ", 4))
		if _, _, err := f.Add(memfile.NewEntry{Tier: 1, Importance: 5, Date: day, Tags: []string{"d"}, Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	entries := f.Entries(1)
	foreign := func(id string) bool { return id == entries[0].ID }
	pack := subagentPack(f, foreign)
	if n := memfile.Length(pack); n > subagentLimit || n < subagentLimit-200 {
		t.Fatalf("pack is %d characters, want at most %d and near it", n, subagentLimit)
	}
	lines := strings.Split(pack, "\n")
	if lines[0] != subagentHeading || !strings.HasSuffix(lines[1], memfile.ForeignLegend) {
		t.Fatalf("pack begins %q", lines[:2])
	}
	for i, line := range lines[2:] {
		want := "- " + memfile.Inert(entries[i].Text) + " (id " + entries[i].ID + ")"
		if i == 0 {
			want = "- " + memfile.ForeignMark + " " + want[2:]
		}
		if line != want {
			t.Fatalf("line %d is %q, want %q", i, line, want)
		}
	}
	if len(lines)-2 >= len(entries) {
		t.Fatalf("all %d entries fit; the test wants more than the limit holds", len(entries))
	}
}
