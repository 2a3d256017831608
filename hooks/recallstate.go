package hooks

// What recall keeps in the session state, read and written without
// encoding/json: on a fresh process its first decode or encode of
// sessionState builds reflection caches, about a millisecond of a
// prompt's CPU, for the one field recall uses.

import (
	"strings"

	"github.com/tidwall/gjson"
)

// recalledIn is sessionState.Recalled as json.Unmarshal reads it from
// data: keys match without regard to case, the last occurrence wins, a
// value other than an array or null changes nothing, an element other
// than a string reads as "". A damaged state recalled nothing.
func recalledIn(data []byte) []string {
	var ids []string
	if !gjson.ValidBytes(data) {
		return nil
	}
	gjson.ParseBytes(data).ForEach(func(key, value gjson.Result) bool {
		if !strings.EqualFold(key.Str, "recalled") {
			return true
		}
		switch {
		case value.Type == gjson.Null:
			ids = nil
		case value.IsArray():
			ids = []string{}
			value.ForEach(func(_, e gjson.Result) bool {
				s := ""
				if e.Type == gjson.String {
					s = e.Str
				}
				ids = append(ids, s)
				return true
			})
		}
		return true
	})
	return ids
}

// withRecalled is the session state data with Recalled set to ids: every
// other member kept as it was, in its order, and the recalled list last,
// where sessionState puts it (so a state json.Marshal wrote comes out as
// it would write it). A damaged state is a fresh start, as loadState
// reads it: a state of the recalled list alone.
func withRecalled(data []byte, ids []string) []byte {
	out := []byte{'{'}
	if root := gjson.ParseBytes(data); gjson.ValidBytes(data) && root.IsObject() {
		root.ForEach(func(key, value gjson.Result) bool {
			if !strings.EqualFold(key.Str, "recalled") {
				out = append(out, key.Raw...)
				out = append(out, ':')
				out = append(out, value.Raw...)
				out = append(out, ',')
			}
			return true
		})
	}
	out = append(out, `"recalled":[`...)
	for i, id := range ids {
		if i > 0 {
			out = append(out, ',')
		}
		out = appendJSONStringEscaping(out, id, true) // as json.Marshal escapes
	}
	return append(out, ']', '}')
}
