package recall

// Recall strengthens memory: an archived item that keeps being recalled
// is one the project still needs. The same question pasted into session
// after session says nothing new, so the record keeps, per item, which
// sessions recalled it for which prompt (short hashes), and an item is
// worth reviving after KeepAfter sessions and KeepPrompts prompts. It also
// keeps what each recent session was given, so no item comes twice in a
// session: a recalling prompt writes this one state file.

import (
	"cmp"
	"encoding/json"
	"errors"
	"hash/fnv"
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
// recently recalled leaving first, and what the last maxSessions sessions
// were given, maxGiven items each. MaxKept is one digit: the recall line
// is measured with it.
const (
	MaxKept     = 8
	maxItems    = 256
	maxSessions = 32
	maxGiven    = 256
)

// Recalls is the record, kept as JSON in the state under StateKey.
type Recalls struct {
	items    []line // ID, then "session:prompt" hashes; least recently recalled first
	sessions []line // a session's hash, then the IDs it was given; least recent first
}

const StateKey = "recalls"

// line is a record's line: its key, then its values, space-separated.
type line []string

// saved is the blob; a version 1 record (no prompts) is damaged.
type saved struct {
	Version  int      `json:"version"`
	Items    []string `json:"items"`
	Sessions []string `json:"sessions,omitempty"`
}

const savedVersion = 2

// ErrDamaged: the caller sets the blob aside and starts afresh.
var ErrDamaged = errors.New("recall record does not read")

// ParseRecalls reads the blob (empty: a fresh start); anything else than
// the current version is ErrDamaged with an empty record. An item's line
// that does not read is dropped, and the record trimmed to its bounds.
func ParseRecalls(data []byte) (*Recalls, error) {
	r := &Recalls{}
	if len(data) == 0 {
		return r, nil
	}
	var s saved
	if err := json.Unmarshal(data, &s); err != nil || s.Version != savedVersion {
		return r, ErrDamaged
	}
	for _, text := range s.Items {
		l := line(strings.Fields(text))
		// Each recall is "session:prompt", both there.
		if len(l) >= 2 && strings.Join(l, " ") == text && !slices.ContainsFunc(l[1:], func(v string) bool { return promptOf(v) == "" || sessionOf(v) == "" }) {
			r.items = append(r.items, l)
		}
	}
	for _, text := range s.Sessions {
		if l := line(strings.Fields(text)); len(l) >= 1 {
			r.sessions = append(r.sessions, l)
		}
	}
	r.trim()
	return r, nil
}

// Marshal is the blob, in the current version.
func (r *Recalls) Marshal() []byte {
	s := saved{Version: savedVersion, Items: []string{}}
	for _, l := range r.items {
		s.Items = append(s.Items, strings.Join(l, " "))
	}
	for _, l := range r.sessions {
		s.Sessions = append(s.Sessions, strings.Join(l, " "))
	}
	data, _ := json.Marshal(s)
	return data
}

// take removes key's line from lines and returns it, or a new one.
func take(lines *[]line, key string) line {
	if i := slices.IndexFunc(*lines, func(l line) bool { return l[0] == key }); i >= 0 {
		l := (*lines)[i]
		*lines = slices.Delete(*lines, i, i+1)
		return l
	}
	return line{key}
}

// Given is what session was given already.
func (r *Recalls) Given(session string) []string {
	i := slices.IndexFunc(r.sessions, func(l line) bool { return l[0] == shortHash(session) })
	if i < 0 {
		return nil
	}
	return r.sessions[i][1:]
}

// Give records that session was given ids.
func (r *Recalls) Give(session string, ids ...string) {
	l := take(&r.sessions, shortHash(session))
	for _, id := range ids {
		if id != "" && !strings.ContainsFunc(id, unicode.IsSpace) {
			l = append(l, id)
		}
	}
	r.sessions = append(r.sessions, l) // the most recent, last
	r.trim()
}

// Note records that session recalled id for prompt, and returns the item's
// strength and whether this recall counted (a session counts once, with
// its first prompt; an ID with a space never).
func (r *Recalls) Note(id, session, prompt string) (Strength, bool) {
	if id == "" || strings.ContainsFunc(id, unicode.IsSpace) {
		return Strength{}, false
	}
	mark := shortHash(session) + ":" + shortHash(normalPrompt(prompt))
	l := take(&r.items, id)
	counted := !slices.ContainsFunc(l[1:], func(v string) bool { return sessionOf(v) == sessionOf(mark) })
	if counted {
		l = keepDifferent(append(l, mark))
	}
	r.items = append(r.items, l) // the most recently recalled, last
	r.trim()
	return strengthOf(l), counted
}

func (r *Recalls) trim() {
	r.items = r.items[max(0, len(r.items)-maxItems):]
	for i := range r.items {
		r.items[i] = keepDifferent(r.items[i])
	}
	r.sessions = r.sessions[max(0, len(r.sessions)-maxSessions):]
	for i, l := range r.sessions {
		if n := len(l) - 1 - maxGiven; n > 0 {
			r.sessions[i] = slices.Delete(l, 1, 1+n)
		}
	}
}

func sessionOf(v string) string { s, _, _ := strings.Cut(v, ":"); return s }
func promptOf(v string) string  { _, p, _ := strings.Cut(v, ":"); return p }

// keepDifferent bounds one item's recalls to MaxKept, dropping the oldest
// whose prompt a later one has too, else the oldest: a different prompt
// is never forgotten while a repeated one is kept.
func keepDifferent(l line) line {
	for len(l)-1 > MaxKept {
		drop := 1
		for i := 1; i < len(l); i++ {
			if slices.ContainsFunc(l[i+1:], func(v string) bool { return promptOf(v) == promptOf(l[i]) }) {
				drop = i
				break
			}
		}
		l = slices.Delete(l, drop, drop+1)
	}
	return l
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
	if i := slices.IndexFunc(r.items, func(l line) bool { return l[0] == id }); i >= 0 {
		return strengthOf(r.items[i])
	}
	return Strength{}
}

func strengthOf(l line) Strength {
	var sessions, prompts []string
	for _, v := range l[1:] {
		sessions, prompts = append(sessions, sessionOf(v)), append(prompts, promptOf(v))
	}
	slices.Sort(sessions)
	slices.Sort(prompts)
	return Strength{Sessions: len(slices.Compact(sessions)), Prompts: len(slices.Compact(prompts))}
}

// WorthReviving lists the IDs worth reviving, strongest first, then by ID.
func (r *Recalls) WorthReviving() []string {
	var out []string
	for _, l := range r.items {
		if strengthOf(l).Worth() {
			out = append(out, l[0])
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		return cmp.Or(r.Strength(b).Compare(r.Strength(a)), strings.Compare(a, b))
	})
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
