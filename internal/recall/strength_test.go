package recall

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/matryer/is"
)

// Marshal writes json.Marshal's bytes, plain IDs or not.
func TestRecallsMarshalAsEncodingJSON(t *testing.T) {
	is := is.New(t)
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"0f3e2a11", "7c1e0a42", "5d1c9b2e-3f4a-4b5c-8d6e-7f8091a2b3c4", "", "a\"b", "a\\b", "<&>", "\u2028", "caf\u00e9", "\x7f", "\x01", "\xff"}
	for range 2000 {
		r := Recalls{}
		for range rng.IntN(4) {
			var sessions []string
			if rng.IntN(5) > 0 {
				sessions = []string{}
				for range rng.IntN(4) {
					sessions = append(sessions, pieces[rng.IntN(len(pieces))])
				}
			}
			r[pieces[rng.IntN(len(pieces))]+fmt.Sprint(rng.IntN(3))] = sessions
		}
		want, err := json.Marshal(map[string][]string(r))
		is.NoErr(err)
		is.Equal(string(r.Marshal()), string(want))
	}
}

// ParseRecalls reads what json.Unmarshal reads, from blobs Marshal wrote
// and from odd and damaged ones.
func TestParseRecallsAsUnmarshal(t *testing.T) {
	is := is.New(t)
	for _, data := range []string{
		`{}`,
		`{"0f3e2a11":["s1","s2"],"7c1e0a42":["s3"]}`,
		`{"a":null}`,
		`{"a":[]}`,
		`{"b":["s"],"a":["t"]}`,
		`{"a":["s"],"a":["t"]}`,
		`{"a":"s"}`,
		`{"a":["s",1,null]}`,
		`{"a":{"x":"y"}}`,
		`{"\u0041":["s"]}`,
		`{"a":["\u003c"]}`,
		`{ "a" : [ "s" ] }`,
		`["a"]`,
		`null`,
		`not json`,
		`{"a":["s"]`,
	} {
		want := Recalls{}
		_ = json.Unmarshal([]byte(data), &want)
		got := ParseRecalls([]byte(data))
		is.Equal(got, want) // ParseRecalls(data)
	}
	is.Equal(ParseRecalls(nil), Recalls{})
}
