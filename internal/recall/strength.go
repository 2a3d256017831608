package recall

// Recall strengthens memory: an archived item that keeps being recalled
// is one the project still needs. "Keeps" must mean need, not an echo:
// the same question pasted into session after session (a script, an
// evaluation, a habit) recalls the same item every time and says nothing
// new. So the record keeps, per item, which sessions recalled it and for
// which prompt (a short hash of the prompt's words, never its text), and
// an item is worth reviving only when both add up: KeepAfter different
// sessions and KeepPrompts different prompts.

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

// KeepAfter is how many different sessions must recall an archived item
// before it counts as worth keeping: once is chance, three times is need.
// KeepPrompts is how many different prompts those recalls must answer:
// one question asked again is one need, however often it is asked.
const (
	KeepAfter   = 3
	KeepPrompts = 2
)

// NameAtMost is how many items one recall answer calls worth reviving:
// the strongest, so the note stays a pointer and not a list to wade
// through. (Each is named at most once a session, as it is recalled at
// most once a session.)
const NameAtMost = 2

// The record stays small whatever a workspace does: it keeps MaxKept
// recalls (a session and its prompt) per item, which is more than
// KeepAfter and KeepPrompts need to be told, and maxItems items, the
// ones recalled least recently leaving first. MaxKept is below 10, so a
// count of either fits one digit (the recall line is measured with it).
const (
	MaxKept  = 8
	maxItems = 256
)

// Recalls records, per archived item, the sessions that recalled it and
// the prompt each recalled it for. It is kept as JSON in the workspace's
// state folder under StateKey. The zero value is an empty record.
type Recalls struct {
	// items are the items' lines, least recently recalled first: the ID,
	// then a recall SESSION:PROMPT per recall, space-separated (IDs hold
	// no spaces). A prompt parses only the lines of what it recalled:
	// the record is read on every prompt that recalls.
	items []string
}

// StateKey names the Recalls blob in the store's state.
const StateKey = "recalls"

// itemRecalls is one item's record, parsed from its line.
type itemRecalls struct {
	ID      string
	Recalls []recalled
}

// recalled is one session's recall of an item: hashes of the session ID
// and of the prompt's words (hashed so that a long ID or a prompt's
// text, which may hold anything, never sits in the record).
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

// wellFormed says, without parsing it, whether parseItem reads line as
// the current version writes it: an ID and SESSION:PROMPT recalls, each
// field one space apart.
func wellFormed(line string) bool {
	id, rest, ok := strings.Cut(line, " ")
	if !ok || id == "" {
		return false
	}
	for rest != "" {
		var field string
		field, rest, _ = strings.Cut(rest, " ")
		session, prompt, found := strings.Cut(field, ":")
		if !found || session == "" || prompt == "" || strings.ContainsFunc(field, unicode.IsSpace) {
			return false
		}
	}
	return !strings.HasSuffix(line, " ")
}

// line is the item's line.
func (it itemRecalls) line() string {
	var b strings.Builder
	b.WriteString(it.ID)
	for _, c := range it.Recalls {
		b.WriteString(" " + c.Session + ":" + c.Prompt)
	}
	return b.String()
}

// saved is the blob's layout. Version 1, a map from item ID to the
// sessions that recalled it, had no prompts.
type saved struct {
	Version int      `json:"version"`
	Items   []string `json:"items"`
}

const savedVersion = 2

// unknownPrompt is the prompt of a recall recorded by version 1: all of
// an item's old recalls count as one prompt, which may be any prompt
// asked since (see strength), so old data never makes an item worth
// reviving, alone or with one prompt asked again.
const unknownPrompt = "?"

// ErrDamaged says a recalls blob is neither version: the caller sets it
// aside and starts afresh.
var ErrDamaged = errors.New("recall record does not read")

// ParseRecalls reads the blob (nil or empty: a fresh start). A version 1
// blob reads as version 2, each item's sessions with one unknown prompt;
// anything else is ErrDamaged, with an empty record to go on with. A
// line that does not read is dropped, and a record over its bounds is
// trimmed.
func ParseRecalls(data []byte) (*Recalls, error) {
	r := &Recalls{}
	if len(data) == 0 {
		return r, nil
	}
	var s saved
	if err := json.Unmarshal(data, &s); err == nil && s.Version == savedVersion {
		r.items = slices.DeleteFunc(s.Items, func(line string) bool { return !wellFormed(line) })
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
			r.items = append(r.items, it.line())
		}
	}
	r.trim()
	return r, nil
}

// Marshal is the blob to save, always in the current version; the same
// recalls in the same order give the same bytes.
func (r *Recalls) Marshal() []byte {
	data, _ := json.Marshal(saved{Version: savedVersion, Items: r.items})
	return data
}

// find is the index of id's line, -1 if none.
func (r *Recalls) find(id string) int {
	return slices.IndexFunc(r.items, func(line string) bool {
		return len(line) > len(id) && line[len(id)] == ' ' && strings.HasPrefix(line, id)
	})
}

// Note records that session recalled id for prompt. It returns the
// item's strength, and whether this recall counted: false when session
// had recalled it already (a session counts once, with its first prompt).
// An ID with a space in it (none is valid) is never counted.
func (r *Recalls) Note(id, session, prompt string) (Strength, bool) {
	if id == "" || strings.ContainsFunc(id, unicode.IsSpace) {
		return Strength{}, false
	}
	mark := recalled{Session: shortHash(session), Prompt: shortHash(normalPrompt(prompt))}
	it := itemRecalls{ID: id}
	if i := r.find(id); i >= 0 {
		it, _ = parseItem(r.items[i])
		r.items = slices.Delete(r.items, i, i+1)
	}
	counted := !slices.ContainsFunc(it.Recalls, func(c recalled) bool { return c.Session == mark.Session })
	if counted {
		it.Recalls = keepDifferent(append(it.Recalls, mark))
	}
	r.items = append(r.items, it.line()) // the most recently recalled, last
	r.trim()
	return it.strength(), counted
}

// trim keeps the record within its bounds.
func (r *Recalls) trim() {
	if n := len(r.items) - maxItems; n > 0 {
		r.items = slices.Delete(r.items, 0, n)
	}
	for i, line := range r.items {
		if strings.Count(line, " ") > MaxKept {
			it, _ := parseItem(line)
			it.Recalls = keepDifferent(it.Recalls)
			r.items[i] = it.line()
		}
	}
}

// keepDifferent bounds one item's recalls to MaxKept, dropping the
// oldest recall whose prompt another kept recall has too, else the
// oldest: what the record forgets never makes it forget a different
// prompt while a repeated one is kept.
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

// Strength is how often an item was recalled: in how many different
// sessions, for how many different prompts (of the recalls the record
// keeps).
type Strength struct {
	Sessions, Prompts int
}

// Worth says whether an item recalled this often is worth reviving.
func (s Strength) Worth() bool { return s.Sessions >= KeepAfter && s.Prompts >= KeepPrompts }

// Compare orders strengths, weakest first: more different prompts is
// stronger, then more sessions.
func (s Strength) Compare(o Strength) int {
	return cmp.Or(cmp.Compare(s.Prompts, o.Prompts), cmp.Compare(s.Sessions, o.Sessions))
}

// Strength is id's (zero for an item never recalled).
func (r *Recalls) Strength(id string) Strength {
	if i := r.find(id); i >= 0 {
		it, _ := parseItem(r.items[i])
		return it.strength()
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

// WorthReviving lists the IDs worth reviving, strongest first (ties by
// ID).
func (r *Recalls) WorthReviving() []string {
	type worth struct {
		id string
		s  Strength
	}
	var found []worth
	for _, line := range r.items {
		it, _ := parseItem(line)
		if s := it.strength(); s.Worth() {
			found = append(found, worth{it.ID, s})
		}
	}
	slices.SortFunc(found, func(a, b worth) int { return cmp.Or(b.s.Compare(a.s), strings.Compare(a.id, b.id)) })
	out := make([]string, 0, len(found))
	for _, w := range found {
		out = append(out, w.id)
	}
	return out
}

// normalPrompt is a prompt's words, lower case, one space apart: the
// same question typed again with other capitals, spacing or punctuation
// is the same prompt.
func normalPrompt(prompt string) string {
	words := strings.FieldsFunc(strings.ToLower(prompt), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r)
	})
	return strings.Join(words, " ")
}

// shortHash is 8 hex digits of s's FNV-1a hash: enough to tell the few
// sessions and prompts of one item apart.
func shortHash(s string) string {
	h := fnv.New32a()
	h.Write([]byte(s))
	return strconv.FormatUint(uint64(h.Sum32())|1<<32, 16)[1:]
}
