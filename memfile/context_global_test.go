package memfile_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

// TestContextViewGlobalShare: the global memory comes first but never
// crowds out the workspace's. It takes what the workspace leaves, at least
// a third of the view; the view never exceeds its limit.
func TestContextViewGlobalShare(t *testing.T) {
	day := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	filled := func(n int, prefix string) *memfile.File {
		f := memfile.New(memfile.DefaultConfig())
		for i := range n {
			_, _, err := f.Add(memfile.NewEntry{Tier: 1, Importance: 5, Date: day,
				Text: fmt.Sprintf("%s %03d %s", prefix, i, strings.Repeat("x", 80))})
			if err != nil {
				t.Fatal(err)
			}
		}
		return f
	}
	count := func(view, prefix string) int { return strings.Count(view, ": "+prefix+" ") }
	const limit = 3000
	tests := []struct {
		name              string
		global, workspace int // entries of about 120 characters each in the view
		allGlobal         bool
		allWorkspace      bool
	}{
		{"both small: all shown", 3, 3, true, true},
		{"huge global, small workspace: the workspace is whole, the global fills the rest", 100, 3, false, true},
		{"small global, huge workspace: the global is whole", 3, 100, true, false},
		{"both huge: each keeps a share", 100, 100, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			view := memfile.ContextView(filled(tt.workspace, "local"), memfile.View{Limit: limit, Global: filled(tt.global, "global")})
			is.True(memfile.Length(view) <= limit)
			g, w := count(view, "global"), count(view, "local")
			t.Logf("global %d of %d, workspace %d of %d, %d characters", g, tt.global, w, tt.workspace, memfile.Length(view))
			is.Equal(g == tt.global, tt.allGlobal)
			is.Equal(w == tt.workspace, tt.allWorkspace)
			is.True(g > 0 && w > 0)
			// However large the workspace, the global gets about a third;
			// however large the global, the workspace gets the rest.
			is.True(g >= min(tt.global, limit/3/130))
			if !tt.allGlobal {
				is.True(memfile.Length(view) > limit-200) // the room is used
			}
			is.True(strings.Index(view, "## About you") < strings.Index(view, "## Core intelligence"))
		})
	}
}
