package recall

import (
	"cmp"
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// lexiconText is recall's lexicon of software work: one group a line of
// words that mean the same or nearly the same thing (see the file's head).
//
//go:embed lexicon.txt
var lexiconText string

// lexiconWeight is how much a neighbour's match counts against the word
// the prompt used: half. A neighbour is weaker evidence than the word
// itself ("database" for "Postgres" is near, not the same), so an entry
// with the prompt's own word ranks above one with its neighbour; yet half
// of a rare neighbour's score, beside another word of the prompt, is
// enough to pass the least score, so "Postgres" still finds "PostgreSQL".
const lexiconWeight = 0.5

// The lexicon is parsed on the first prompt that ranks with it, not when
// the package loads: every hook links this package, and most never rank.
var (
	lexiconOnce sync.Once
	theLexicon  *lexicon
)

// neighbours are the terms the lexicon puts beside term (as tokens gives
// them), sorted by term; nil for a word it does not know.
func neighbours(term string) []neighbour {
	lexiconOnce.Do(func() { theLexicon, _ = parseLexicon(lexiconText) })
	return theLexicon.neighbours(term)
}

// neighbour is a term the lexicon puts beside another, and how near:
// the size of the smallest group that holds both, plus familyNear when
// that group is a family. The smaller, the nearer ("postgresql" is
// nearer "postgres" than "mysql" is).
type neighbour struct {
	term string
	near int
}

// familyNear puts every family behind every group of one thing.
const familyNear = 1 << 16

// family says whether n is only related (in a family), not the same.
func (n neighbour) family() bool { return n.near >= familyNear }

// lexicon is a parsed lexicon: every group's terms, one group after
// another, and where each term is. A prompt looks up a few terms, so a
// neighbour list is made when asked for, not for every term when the
// lexicon is parsed: that is once per process, but the process is a hook.
type lexicon struct {
	terms  []string         // every group's terms, group after group
	group  []int32          // the group of terms[j]
	ends   []int32          // where each group's terms end in terms
	family []bool           // whether each group is a family
	prev   []int32          // the place of terms[j] before j in terms, -1 for none
	last   map[string]int32 // a term's last place in terms
}

// parseLexicon reads a lexicon: a group a line, words apart by spaces, a
// family when the line starts with "~", blank lines and lines starting
// with # ignored. Each word goes through
// tokens, as the entries' words do. A word that is not one term (a stop
// word, a letter, two words), a group of fewer than two terms, or two
// words of a group that come to one term is refused, with its line: the
// lexicon would not say what it seems to. The rest is kept.
func parseLexicon(text string) (*lexicon, []error) {
	var errs []error
	// About four terms a line: sized once.
	lines := strings.Count(text, "\n")
	l := &lexicon{terms: make([]string, 0, 4*lines), group: make([]int32, 0, 4*lines), prev: make([]int32, 0, 4*lines),
		ends: make([]int32, 0, lines), family: make([]bool, 0, lines), last: make(map[string]int32, 3*lines)}
	var buf []string // one word's terms; reused, so a word costs no allocation
	n := 0
	for line := range strings.Lines(text) {
		n++
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		family := strings.HasPrefix(line, "~")
		start := len(l.terms)
		for w := range strings.FieldsSeq(strings.TrimPrefix(line, "~")) {
			buf = appendTokens(buf[:0], w)
			switch {
			case len(buf) == 0 && isStopWord(strings.ToLower(w)):
				errs = append(errs, fmt.Errorf("lexicon line %d: %q is a stop word", n, w))
			case len(buf) != 1:
				errs = append(errs, fmt.Errorf("lexicon line %d: %q is not one word to recall (its terms: %q)", n, w, buf))
			case isStopWord(buf[0]):
				errs = append(errs, fmt.Errorf("lexicon line %d: %q comes to the stop word %q", n, w, buf[0]))
			case slices.Contains(l.terms[start:], buf[0]):
				errs = append(errs, fmt.Errorf("lexicon line %d: %q and another word of the group are one word to recall (%q)", n, w, buf[0]))
			default:
				l.terms = append(l.terms, buf[0])
			}
		}
		if len(l.terms)-start < 2 {
			errs = append(errs, fmt.Errorf("lexicon line %d: a group needs two words or more: %q", n, line))
			l.terms = l.terms[:start]
			continue
		}
		for j := start; j < len(l.terms); j++ {
			p, ok := l.last[l.terms[j]]
			if !ok {
				p = -1
			}
			l.group, l.prev = append(l.group, int32(len(l.ends))), append(l.prev, p)
			l.last[l.terms[j]] = int32(j)
		}
		l.ends, l.family = append(l.ends, int32(len(l.terms))), append(l.family, family)
	}
	return l, errs
}

// neighbours are every other term of every group that holds term, each
// once, as near as its nearest group with term makes it, sorted by term.
func (l *lexicon) neighbours(term string) []neighbour {
	var out []neighbour
	j, ok := l.last[term]
	for ; ok && j >= 0; j = l.prev[j] {
		g := l.group[j]
		start := int32(0)
		if g > 0 {
			start = l.ends[g-1]
		}
		members := l.terms[start:l.ends[g]]
		near := len(members)
		if l.family[g] {
			near += familyNear
		}
		for _, m := range members {
			if m != term {
				out = append(out, neighbour{m, near})
			}
		}
	}
	slices.SortFunc(out, func(x, y neighbour) int { return cmp.Or(strings.Compare(x.term, y.term), x.near-y.near) })
	return slices.CompactFunc(out, func(x, y neighbour) bool { return x.term == y.term })
}
