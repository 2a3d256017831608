package memfile_test

import (
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

// TestNothingPrivateIsStored: Add cleans an entry's tags as well as its
// text, and the archive cleans the reason a person gave, so a key or a
// private span reaches neither bimri.md nor bimri-archive.md.
func TestNothingPrivateIsStored(t *testing.T) {
	is := is.New(t)
	key := "ghp" + "_" + "FAKEfake0123456789FAKEfake0123456789" // assembled so scanners do not flag it
	f := memfile.New(memfile.DefaultConfig())
	e, _, err := f.Add(memfile.NewEntry{Tier: 2, Importance: 3, Date: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC),
		Tags: []string{"db", key, "<private>codename</private>"},
		Text: "Rotated " + key + " <private>on the Orion host</private>"})
	is.NoErr(err)
	is.Equal(e.Text, "Rotated [redacted]")
	is.Equal(e.Tags, []string{"db", "redacted"})

	gone, ok := f.Remove(e.ID, "superseded by "+key+" <private>see Orion</private>")
	is.True(ok)
	archived := string(memfile.RenderArchived([]memfile.Removal{gone}, time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)))
	stored := string(memfile.Render(f)) + archived
	for _, leak := range []string{"FAKEfake", "fakefake", "Orion", "codename", "private>"} {
		is.True(!strings.Contains(stored, leak)) // nothing private in the file or the archive
	}
	is.True(strings.Contains(archived, "[REASON:superseded by (redacted)]"))
}
