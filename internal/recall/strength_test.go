package recall

import (
	"testing"

	"github.com/matryer/is"
)

// What Marshal saves, ParseRecalls reads back; anything else is a fresh
// start that Note can still fill.
func TestRecallsRoundTrip(t *testing.T) {
	is := is.New(t)
	r := Recalls{}
	r.Note("0f3e2a11", "s1")
	r.Note("0f3e2a11", "s2")
	r.Note("7c1e0a42", "s<3>")
	is.Equal(string(r.Marshal()), `{"0f3e2a11":["s1","s2"],"7c1e0a42":["s\u003c3\u003e"]}`) // keys sorted
	is.Equal(ParseRecalls(r.Marshal()), r)
	for _, data := range []string{"", "null", "[]", `{"a":`, "not json"} {
		got := ParseRecalls([]byte(data))
		is.Equal(got.Note("a", "s"), 1) // a fresh start
	}
	is.Equal(ParseRecalls(nil), Recalls{})
}
