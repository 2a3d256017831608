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
	is.Equal(addCounts(math.MaxInt, 1), math.MaxInt)
	is.Equal(addCounts(math.MaxInt-1, 1, 5), math.MaxInt)
	is.Equal(addCounts(3, 4), 7)
	f := New(DefaultConfig())
	f.Header.Sessions = math.MaxInt
	next, _ := Maintain(f, time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC), DefaultConfig(), Options{CountSession: true})
	is.Equal(next.Header.Sessions, math.MaxInt)
}
