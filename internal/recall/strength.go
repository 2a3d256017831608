package recall

import (
	"encoding/json"
	"slices"
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
// is bookkeeping, not memory.
func ParseRecalls(data []byte) Recalls {
	r := Recalls{}
	if data != nil {
		_ = json.Unmarshal(data, &r)
	}
	if r == nil { // "null" unmarshals as a nil map, which Note cannot fill
		r = Recalls{}
	}
	return r
}

// Marshal is the blob to save; json.Marshal sorts the keys, so the bytes
// are the same for the same recalls.
func (r Recalls) Marshal() []byte {
	data, _ := json.Marshal(map[string][]string(r))
	return data
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
