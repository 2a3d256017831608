package memfile

import (
	"math"
	"testing"
	"time"

	"github.com/matryer/is"
)

// Session counts stop at the largest int; they never wrap to a negative
// count, which would read back as no count at all.
func TestSessionCountsSaturate(t *testing.T) {
	is := is.New(t)
	merged := func(base, ours, theirs int) int { // a merge adds both sides' new sessions
		side := func(n int) *File {
			f := New(DefaultConfig())
			f.Header.Sessions = n
			return f
		}
		m, _ := MergeFiles(side(base), side(ours), side(theirs), DefaultConfig())
		return m.Header.Sessions
	}
	is.Equal(merged(0, math.MaxInt, 1), math.MaxInt)
	is.Equal(merged(1, math.MaxInt-1, 6), math.MaxInt)
	is.Equal(merged(1, 4, 5), 8)
	f := New(DefaultConfig())
	f.Header.Sessions = math.MaxInt
	next, _ := Maintain(f, time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC), DefaultConfig(), Options{CountSession: true})
	is.Equal(next.Header.Sessions, math.MaxInt)
}
