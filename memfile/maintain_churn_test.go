package memfile

import (
	"fmt"
	"testing"
	"time"

	"github.com/matryer/is"
)

// A Tier 3 over its budget must not archive, at every pass, an EMERGING
// pattern the same pass created: the next pass would create it again and
// the archive would fill with copies.
func TestNoPatternChurnOverBudget(t *testing.T) {
	is := is.New(t)
	cfg := DefaultConfig()
	cfg.Budgets[2] = 60 // room for the heading and comments, not for patterns
	day := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	f := New(cfg)
	for i := range 6 {
		_, _, err := f.Add(NewEntry{Tier: 2, Importance: 3, Date: day, Tags: []string{fmt.Sprintf("t%d", i%3)}, Text: fmt.Sprintf("entry %d", i)})
		is.NoErr(err)
	}
	for range 3 {
		next, rep := Maintain(f, day, cfg, Options{})
		for _, a := range rep.Removed {
			is.True(a.Pattern == nil) // nothing created-then-archived
		}
		is.Equal(len(rep.Patterns), 0) // and not reported as new
		is.Equal(len(next.Patterns()), 0)
		f = next
	}
}
