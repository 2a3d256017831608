package hooks

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/bimri/bimri-hook/transcript"
	"github.com/matryer/is"
)

// recalledIn reads what json.Unmarshal reads into sessionState.Recalled,
// on states as written, odd and damaged.
func TestRecalledInAsUnmarshal(t *testing.T) {
	for _, data := range []string{
		``,
		`{}`,
		`{"recalled":["a1","b2"]}`,
		`{"transcript":{"Prompts":3},"nudged":true,"recalled":["a1"],"advised":true}`,
		`{"Recalled":["x"]}`,
		`{"RECALLED":["x"],"recalled":["y","z"]}`,
		`{"recalled":["x"],"recalled":null}`,
		`{"recalled":["x"],"recalled":7}`,
		`{"recalled":["x"],"recalled":"y"}`,
		`{"recalled":["a",1,null,"b"]}`,
		`{"recalled":[]}`,
		`["recalled"]`,
		`"recalled"`,
		`{"recalled":["a"]`,
		`not json`,
		`{"recalled":["a\u00e9\"b"]}`,
	} {
		var st sessionState
		_ = json.Unmarshal([]byte(data), &st)
		if got := recalledIn([]byte(data)); !slices.Equal(got, st.Recalled) {
			t.Errorf("recalledIn(%s) = %q, json.Unmarshal reads %q", data, got, st.Recalled)
		}
	}
}

// withRecalled writes what json.Marshal writes for a state it wrote with
// the new list, and a fresh state for a damaged one.
func TestWithRecalledAsMarshal(t *testing.T) {
	is := is.New(t)
	ids := []string{"0f3e2a11", "7c1e0a42", "<&>\u2028"}
	for _, st := range []sessionState{
		{},
		{Nudged: true, Blocks: 2, Advised: true},
		{Transcript: transcript.Summary{Prompts: 4, FilesChanged: []string{"a.go", "b \"c\".go"}}, Counted: true, Recalled: []string{"old"}},
	} {
		before, err := json.Marshal(st)
		is.NoErr(err)
		st.Recalled = ids
		want, err := json.Marshal(st)
		is.NoErr(err)
		is.Equal(string(withRecalled(before, ids)), string(want))
	}
	for _, bad := range []string{"", "not json", `["a"]`, `{"recalled":`} {
		var st sessionState
		is.NoErr(json.Unmarshal(withRecalled([]byte(bad), ids), &st))
		is.Equal(st, sessionState{Recalled: ids}) // a fresh start
	}
	is.Equal(recalledIn(withRecalled([]byte(`{"Recalled":["x"],"told":true}`), ids)), ids) // every spelling of the key goes
}
