package recall

import (
	"encoding/json"
	"slices"

	"github.com/tidwall/gjson"
)

// KeepAfter is how many different sessions must recall an archived item
// before it counts as worth keeping: once is chance, three times is need.
const KeepAfter = 3

// Recalls records, per archived item, the sessions that recalled it (at
// most KeepAfter of them, in order). It is kept as JSON in the workspace's
// state folder under StateKey.
type Recalls map[string][]string

// StateKey names the Recalls blob in the store's state.
const StateKey = "recalls"

// ParseRecalls reads the blob; anything unreadable is a fresh start, as it
// is bookkeeping, not memory. A blob Marshal wrote (every one but a
// person's) is read with gjson and taken when Marshal writes it back
// exactly, so it reads as json.Unmarshal would: on a fresh process
// encoding/json's first decode and encode cost a recalling prompt about
// half a millisecond. Anything else goes through json.Unmarshal.
func ParseRecalls(data []byte) Recalls {
	r := Recalls{}
	if data == nil {
		return r
	}
	if gjson.ValidBytes(data) {
		if root := gjson.ParseBytes(data); root.IsObject() {
			root.ForEach(func(key, value gjson.Result) bool {
				var sessions []string
				value.ForEach(func(_, s gjson.Result) bool {
					sessions = append(sessions, s.Str)
					return true
				})
				r[key.Str] = sessions
				return true
			})
			if string(r.Marshal()) == string(data) {
				return r
			}
		}
	}
	r = Recalls{}
	_ = json.Unmarshal(data, &r)
	return r
}

// Marshal is the blob to save; keys come out sorted, so the bytes are the
// same for the same recalls. They are json.Marshal's; IDs and session IDs
// are plain text, written as they are, and anything needing an escape is
// left to encoding/json.
func (r Recalls) Marshal() []byte {
	ids := make([]string, 0, len(r))
	n := 2
	for id, sessions := range r {
		if !plainJSON(id) {
			return marshalJSON(r)
		}
		ids = append(ids, id)
		n += len(id) + 6
		for _, s := range sessions {
			if !plainJSON(s) {
				return marshalJSON(r)
			}
			n += len(s) + 3
		}
	}
	slices.Sort(ids)
	out := make([]byte, 0, n)
	out = append(out, '{')
	for i, id := range ids {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, '"')
		out = append(out, id...)
		out = append(out, '"', ':')
		if r[id] == nil {
			out = append(out, "null"...)
			continue
		}
		out = append(out, '[')
		for j, s := range r[id] {
			if j > 0 {
				out = append(out, ',')
			}
			out = append(out, '"')
			out = append(out, s...)
			out = append(out, '"')
		}
		out = append(out, ']')
	}
	return append(out, '}')
}

func marshalJSON(r Recalls) []byte {
	data, _ := json.Marshal(map[string][]string(r))
	return data
}

// plainJSON says whether json.Marshal writes s as it is between quotes:
// printable ASCII with no quote, backslash or HTML special.
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// Note records that session recalled id. It returns the number of distinct
// sessions that have, so far.
func (r Recalls) Note(id, session string) int {
	s := r[id]
	if !slices.Contains(s, session) && len(s) < KeepAfter {
		s = append(s, session)
		r[id] = s
	}
	return len(s)
}

// Sessions is how many distinct sessions recalled id.
func (r Recalls) Sessions(id string) int { return len(r[id]) }

// WorthKeeping lists the IDs recalled in KeepAfter sessions, sorted.
func (r Recalls) WorthKeeping() []string {
	var out []string
	for id, s := range r {
		if len(s) >= KeepAfter {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}
