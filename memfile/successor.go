package memfile

import (
	"cmp"
	"errors"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Likely supersession: a lasting entry (importance 4 or 5) that a newer
// one seems to override ("Chose Redis for sessions", later "Removed
// Redis: sessions now live in Postgres"). Only the agent knows, so the
// view marks the older one "possibly" superseded until it leaves or the
// agent answers that both hold (HoldTogether).
//
// Two entries look alike when they share a tag beside "decision" and
// subject words weighing alikeShare of the shorter one's; a word weighs
// less the more lasting entries have it (its IDF), so what every
// decision about a component says weighs little.

// supersedeMinImportance is the least importance asked about or marked.
const supersedeMinImportance = 4

// alikeShare is the least share of the shorter entry's word weight two
// alike entries share.
const alikeShare = 0.4

// markedLasting bounds the search to the newest lasting entries: the
// newer of a pair is recent, and older ones past a few hundred are
// rarely shown whole.
const markedLasting = 300

// subjects are lasting entries, newest first, with their subjects.
type subjects struct {
	entries []*Entry
	subs    []subject
	df      map[string]int
}

// subject is an entry's sorted subject words, their weights and sum.
type subject struct {
	words   []string
	weights []float64
	total   float64
}

// lastingSubjects are the newest markedLasting lasting entries of f with
// tags, newest first (later in the file first).
func lastingSubjects(f *File) subjects {
	var lasting []*Entry
	for _, x := range f.TierEntries() {
		if x.Importance >= supersedeMinImportance && len(x.Tags) > 0 {
			lasting = append(lasting, x)
		}
	}
	slices.Reverse(lasting) // a tie of dates: later in the file first
	slices.SortStableFunc(lasting, func(a, b *Entry) int { return b.Date.Compare(a.Date) })
	lasting = lasting[:min(len(lasting), markedLasting)]
	s := subjects{entries: lasting, subs: make([]subject, len(lasting)), df: make(map[string]int, 2*len(lasting))}
	// Every entry's words, then weights, in one array each.
	all := make([]string, 0, 16*len(lasting))
	for i, x := range lasting {
		n := len(all)
		all = subjectWords(all, x.Text)
		s.subs[i].words = all[n:len(all):len(all)]
		for _, w := range s.subs[i].words {
			s.df[w]++
		}
	}
	weights := make([]float64, len(all))
	for i := range s.subs {
		n := len(s.subs[i].words)
		s.subs[i] = s.subject(s.subs[i].words, weights[:n:n])
		weights = weights[n:]
	}
	return s
}

// subject weighs each word by its IDF among s, into weights (one a word).
func (s subjects) subject(words []string, weights []float64) subject {
	sub := subject{words: words, weights: weights}
	for i, w := range words {
		sub.weights[i] = math.Log(2 + float64(len(s.entries))/float64(max(s.df[w], 1)))
		sub.total += sub.weights[i]
	}
	return sub
}

// alikeSubjects says whether a and b share enough of the one with fewer
// words.
func alikeSubjects(a, b subject) bool {
	if len(a.words) > len(b.words) {
		a, b = b, a
	}
	n, shared := 0, 0.0
	for x, w := range a.words {
		if _, found := slices.BinarySearch(b.words, w); found {
			n++
			shared += a.weights[x]
		}
	}
	if n == 1 && len(a.words) <= 2 {
		return true // "The deadline is March 1." and "The deadline is April 2."
	}
	return n >= 2 && shared >= alikeShare*a.total
}

// supersedes says whether s.entries[j], newer than older (its subject
// sub), looks like it supersedes it and was not answered as holding beside it.
func (s subjects) supersedes(older *Entry, sub subject, j int) bool {
	return CouldSupersede(s.entries[j], older) && alikeSubjects(sub, s.subs[j])
}

// successor is the newest of s.entries[:n] that supersedes e, nil for none.
func (s subjects) successor(e *Entry, sub subject, n int) *Entry {
	for j := range n {
		if s.supersedes(e, sub, j) {
			return s.entries[j]
		}
	}
	return nil
}

// LikelyPredecessors are the older lasting entries of f that e, a lasting
// entry of f among the newest markedLasting, looks like it supersedes,
// newest first.
func (f *File) LikelyPredecessors(e *Entry) []*Entry {
	if e == nil || e.Importance < supersedeMinImportance || len(e.Tags) == 0 {
		return nil // not lasting: no need to weigh the file's subjects
	}
	s := lastingSubjects(f)
	i := slices.Index(s.entries, e)
	if i < 0 {
		return nil
	}
	var out []*Entry
	for j := i + 1; j < len(s.entries); j++ {
		if s.supersedes(s.entries[j], s.subs[j], i) {
			out = append(out, s.entries[j])
		}
	}
	return out
}

// likelySuccessors maps each lasting entry a newer one looks like it
// supersedes to the newest such entry's ID: what the view marks.
func likelySuccessors(f *File) map[string]string {
	s := lastingSubjects(f)
	var succ map[string]string
	for i, o := range s.entries { // o is older than every entries[j], j < i
		if x := s.successor(o, s.subs[i], i); x != nil {
			if succ == nil {
				succ = map[string]string{}
			}
			succ[o.ID] = x.ID
		}
	}
	return succ
}

// Successors gives recall what the view's mark says, for entries of the
// file or archived: the newest lasting entry of the file, dated after e,
// that looks like it supersedes e, nil for none.
func (f *File) Successors() func(e *Entry) *Entry {
	lasting := sync.OnceValue(func() subjects { return lastingSubjects(f) })
	return func(e *Entry) *Entry {
		if e.Importance < supersedeMinImportance || len(e.Tags) == 0 {
			return nil // only lasting entries are marked
		}
		s := lasting()
		if x, _ := f.Find(e.ID); x != nil { // of the file: the view's marks
			if i := slices.Index(s.entries, x); i >= 0 {
				return s.successor(x, s.subs[i], i)
			}
			return nil
		}
		n := 0 // the entries dated after e, newest first
		for n < len(s.entries) && s.entries[n].Date.After(e.Date) {
			n++
		}
		words := subjectWords(nil, e.Text)
		return s.successor(e, s.subject(words, make([]float64, len(words))), n)
	}
}

// CouldSupersede is what every likely supersession of older by newer
// holds: they share a tag beside "decision", and the agent did not answer
// that both hold.
func CouldSupersede(newer, older *Entry) bool {
	return !slices.Contains(older.HoldsWith, newer.ID) && !slices.Contains(newer.HoldsWith, older.ID) &&
		slices.ContainsFunc(older.Tags, func(t string) bool { return t != "decision" && slices.Contains(newer.Tags, t) })
}

// subjectWords appends text's subject words to dst, sorted, once each:
// letters and digits, case folded, a plural s dropped, three or more, not
// notSubject.
func subjectWords(dst []string, text string) []string {
	n := len(dst)
	for w := range strings.FieldsFuncSeq(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if n := utf8.RuneCountInString(w); n > 3 && w[len(w)-1] == 's' && w[len(w)-2] != 's' {
			w = w[:len(w)-1]
		}
		if utf8.RuneCountInString(w) >= 3 && !notSubject[w] {
			dst = append(dst, w)
		}
	}
	slices.Sort(dst[n:])
	return dst[:n+len(slices.Compact(dst[n:]))]
}

// notSubject are the words that say nothing of an entry's subject.
var notSubject = map[string]bool{
	"the": true, "and": true, "for": true, "with": true, "from": true, "into": true, "over": true, "now": true,
	"not": true, "all": true, "any": true, "our": true, "its": true, "this": true, "that": true, "then": true,
	"than": true, "are": true, "was": true, "were": true, "been": true, "has": true, "have": true, "will": true,
	"use": true, "used": true, "using": true, "instead": true, "after": true, "before": true, "because": true,
	"chose": true, "chosen": true, "choose": true, "decided": true, "decide": true, "decision": true,
	"switched": true, "switch": true, "moved": true, "move": true, "removed": true, "remove": true,
	"replaced": true, "replace": true, "dropped": true, "drop": true, "adopted": true, "picked": true,
	"went": true, "keep": true, "kept": true, "stay": true, "stays": true, "new": true, "old": true,
}

// Both hold: the agent's answer, "no", to whether a new lasting entry
// supersedes older ones it looks like, kept on the newer as
// [HOLDS_WITH:id,id]; neither the mark nor the question pairs them again.

// HoldTogether records that the entries ids all still hold: each gets the
// IDs of the older ones (as the supersession search orders them). It
// returns them newest first; nothing changes for fewer than two IDs, a
// pattern, an unknown or a repeated one.
func (f *File) HoldTogether(ids []string) ([]*Entry, error) {
	if len(ids) < 2 {
		return nil, errors.New("name two or more entries that all still hold")
	}
	es, _, err := f.namedEntries(ids, "", "only entries supersede one another")
	if err != nil {
		return nil, err
	}
	all := append(f.Entries(1), f.Entries(2)...) // a tie of dates: later in the file first
	slices.SortFunc(es, func(a, b *Entry) int {
		return cmp.Or(b.Date.Compare(a.Date), slices.Index(all, b)-slices.Index(all, a))
	})
	for i, e := range es {
		for _, older := range es[i+1:] {
			e.HoldsWith = append(e.HoldsWith, older.ID)
		}
		e.HoldsWith = normalIDs(e.HoldsWith)
	}
	return es, nil
}

// normalIDs is a list of IDs sorted, each once.
func normalIDs(ids []string) []string {
	if len(ids) == 0 {
		return nil
	}
	ids = slices.Clone(ids)
	slices.Sort(ids)
	return slices.Compact(ids)
}

// renameEntries makes both-hold answers and patterns' evidence naming an
// entry another took the place of name that one; an entry's own ID leaves
// its answers.
func renameEntries(f *File, renamed map[string]string) {
	if len(renamed) == 0 {
		return
	}
	rename := func(ids []string) {
		for i, id := range ids {
			if to, ok := renamed[id]; ok {
				ids[i] = to
			}
		}
	}
	for _, e := range f.TierEntries() {
		if len(e.HoldsWith) > 0 {
			rename(e.HoldsWith)
			e.HoldsWith = normalIDs(slices.DeleteFunc(e.HoldsWith, func(id string) bool { return id == e.ID }))
		}
	}
	for _, p := range f.Patterns() {
		rename(p.Evidence)
		p.Evidence = mergeEvidence(nil, p.Evidence)
	}
}
