package recall

// Recall strengthens memory: an archived item that keeps being recalled
// is one the project still needs. The same question pasted into session
// after session says nothing new, so the record keeps, per item, which
// sessions recalled it for which prompt (short hashes), and an item is
// worth reviving after KeepAfter sessions and KeepPrompts prompts.

import (
	"cmp"
	"encoding/json"
	"errors"
	"hash/fnv"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// KeepAfter sessions must recall an item for it to be worth keeping (once
// is chance, three times need), for KeepPrompts different prompts.
const (
	KeepAfter   = 3
	KeepPrompts = 2
)

// NameAtMost is how many items one answer calls worth reviving: a pointer,
// not a list.
const NameAtMost = 2

// The record keeps MaxKept recalls per item and maxItems items, the least
// recently recalled leaving first. MaxKept is one digit: the recall line
// is measured with it.
const (
	MaxKept  = 8
	maxItems = 256
)

// Recalls records, per archived item, the sessions that recalled it and
// for which prompt; kept as JSON in the state under StateKey.
type Recalls struct {
	items []itemRecalls // least recently recalled first
}

const StateKey = "recalls"

type itemRecalls struct {
	ID      string
	Recalls []recalled
}

// recalled is one recall: hashes of the session ID and of the prompt's
// words, so neither's text sits in the record.
type recalled struct {
	Session, Prompt string
}

// parseItem reads an item's line; ok is false for a line that is not one.
func parseItem(line string) (it itemRecalls, ok bool) {
	fields := strings.Fields(line)
	if len(fields) < 2 {
		return it, false
	}
	it.ID = fields[0]
	for _, f := range fields[1:] {
		session, prompt, found := strings.Cut(f, ":")
		if !found || session == "" || prompt == "" {
			return it, false
		}
		it.Recalls = append(it.Recalls, recalled{session, prompt})
	}
	return it, true
}

func (it itemRecalls) line() string {
	var b strings.Builder
	b.WriteString(it.ID)
	for _, c := range it.Recalls {
		b.WriteString(" " + c.Session + ":" + c.Prompt)
	}
	return b.String()
}

// saved is the blob; version 1, a map of ID to sessions, had no prompts.
type saved struct {
	Version int      `json:"version"`
	Items   []string `json:"items"`
}

const savedVersion = 2

// unknownPrompt is a version 1 recall's prompt: all of an item's old
// recalls count as one prompt, so old data alone never makes it worth
// reviving.
const unknownPrompt = "?"

// ErrDamaged: the caller sets the blob aside and starts afresh.
var ErrDamaged = errors.New("recall record does not read")

// ParseRecalls reads the blob (empty: a fresh start), version 1 as version
// 2; anything else is ErrDamaged with an empty record. A line that does
// not read as written is dropped, and the record trimmed to its bounds.
func ParseRecalls(data []byte) (*Recalls, error) {
	r := &Recalls{}
	if len(data) == 0 {
		return r, nil
	}
	var s saved
	if err := json.Unmarshal(data, &s); err == nil && s.Version == savedVersion {
		for _, line := range s.Items {
			if it, ok := parseItem(line); ok && it.line() == line {
				r.items = append(r.items, it)
			}
		}
		r.trim()
		return r, nil
	}
	var old map[string][]string
	if err := json.Unmarshal(data, &old); err != nil || old == nil {
		return &Recalls{}, ErrDamaged
	}
	for _, id := range slices.Sorted(maps.Keys(old)) {
		it := itemRecalls{ID: id}
		for _, session := range old[id] {
			it.Recalls = append(it.Recalls, recalled{Session: shortHash(session), Prompt: unknownPrompt})
		}
		if len(it.Recalls) > 0 && !strings.ContainsFunc(id, unicode.IsSpace) {
			r.items = append(r.items, it)
		}
	}
	r.trim()
	return r, nil
}

// Marshal is the blob, in the current version.
func (r *Recalls) Marshal() []byte {
	var lines []string
	for _, it := range r.items {
		lines = append(lines, it.line())
	}
	data, _ := json.Marshal(saved{Version: savedVersion, Items: lines})
	return data
}

func (r *Recalls) find(id string) int {
	return slices.IndexFunc(r.items, func(it itemRecalls) bool { return it.ID == id })
}

// Note records that session recalled id for prompt, and returns the item's
// strength and whether this recall counted (a session counts once, with
// its first prompt; an ID with a space never).
func (r *Recalls) Note(id, session, prompt string) (Strength, bool) {
	if id == "" || strings.ContainsFunc(id, unicode.IsSpace) {
		return Strength{}, false
	}
	mark := recalled{Session: shortHash(session), Prompt: shortHash(normalPrompt(prompt))}
	it := itemRecalls{ID: id}
	if i := r.find(id); i >= 0 {
		it = r.items[i]
		r.items = slices.Delete(r.items, i, i+1)
	}
	counted := !slices.ContainsFunc(it.Recalls, func(c recalled) bool { return c.Session == mark.Session })
	if counted {
		it.Recalls = keepDifferent(append(it.Recalls, mark))
	}
	r.items = append(r.items, it) // the most recently recalled, last
	r.trim()
	return it.strength(), counted
}

func (r *Recalls) trim() {
	if n := len(r.items) - maxItems; n > 0 {
		r.items = slices.Delete(r.items, 0, n)
	}
	for i := range r.items {
		r.items[i].Recalls = keepDifferent(r.items[i].Recalls)
	}
}

// keepDifferent bounds one item's recalls to MaxKept, dropping the oldest
// whose prompt a later one has too, else the oldest: a different prompt
// is never forgotten while a repeated one is kept.
func keepDifferent(rs []recalled) []recalled {
	for len(rs) > MaxKept {
		drop := 0
		for i, c := range rs {
			if slices.ContainsFunc(rs[i+1:], func(d recalled) bool { return d.Prompt == c.Prompt }) {
				drop = i
				break
			}
		}
		rs = slices.Delete(rs, drop, drop+1)
	}
	return rs
}

// Strength is in how many sessions, for how many prompts, an item was recalled.
type Strength struct {
	Sessions, Prompts int
}

func (s Strength) Worth() bool { return s.Sessions >= KeepAfter && s.Prompts >= KeepPrompts }

// Compare orders strengths, weakest first: prompts, then sessions.
func (s Strength) Compare(o Strength) int {
	return cmp.Or(cmp.Compare(s.Prompts, o.Prompts), cmp.Compare(s.Sessions, o.Sessions))
}

// Strength is id's (zero for an item never recalled).
func (r *Recalls) Strength(id string) Strength {
	if i := r.find(id); i >= 0 {
		return r.items[i].strength()
	}
	return Strength{}
}

func (it itemRecalls) strength() Strength {
	var sessions, prompts []string
	unknown := false
	for _, c := range it.Recalls {
		if !slices.Contains(sessions, c.Session) {
			sessions = append(sessions, c.Session)
		}
		switch {
		case c.Prompt == unknownPrompt:
			unknown = true
		case !slices.Contains(prompts, c.Prompt):
			prompts = append(prompts, c.Prompt)
		}
	}
	if unknown && len(prompts) == 0 {
		return Strength{Sessions: len(sessions), Prompts: 1}
	}
	return Strength{Sessions: len(sessions), Prompts: len(prompts)}
}

// WorthReviving lists the IDs worth reviving, strongest first, then by ID.
func (r *Recalls) WorthReviving() []string {
	found := slices.DeleteFunc(slices.Clone(r.items), func(it itemRecalls) bool { return !it.strength().Worth() })
	slices.SortFunc(found, func(a, b itemRecalls) int {
		return cmp.Or(b.strength().Compare(a.strength()), strings.Compare(a.ID, b.ID))
	})
	out := make([]string, 0, len(found))
	for _, it := range found {
		out = append(out, it.ID)
	}
	return out
}

// normalPrompt is a prompt's words in lower case, one space apart: the
// same question typed again is the same prompt.
func normalPrompt(prompt string) string {
	words := strings.FieldsFunc(strings.ToLower(prompt), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r)
	})
	return strings.Join(words, " ")
}

// shortHash is 8 hex digits of s's FNV-1a hash.
func shortHash(s string) string {
	h := fnv.New32a()
	h.Write([]byte(s))
	return strconv.FormatUint(uint64(h.Sum32())|1<<32, 16)[1:]
}
