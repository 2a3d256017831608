package recall

import (
	"cmp"
	_ "embed"
	"fmt"
	"slices"
	"strings"
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

// neighbours are the terms the lexicon puts beside term (as tokens gives
// it): every other term of every group that holds it, each once, as near
// as its nearest group with term makes it, sorted by term; nil for a word
// the lexicon does not know.
//
// Nothing is parsed ahead: a lexicon word's term, but for its last
// letters (searchKey), is the start of the word (the lexicon is in lower
// case, and TestLexiconFile checks that the stemmer changes no more than
// an ending: "memory" is "memori", "usability" "usabl"), so only the
// lines that hold that start as text can hold the term, and only they
// are read. Parsing the whole lexicon would be work on every prompt for
// the few words it looks up; this costs a search of its text per prompt
// term.
func neighbours(term string) []neighbour {
	var out []neighbour
	var buf []string
	text, key := lexiconText, searchKey(term)
	for from := 0; from < len(text); {
		i := strings.Index(text[from:], key)
		if i < 0 {
			break
		}
		i += from
		start := strings.LastIndexByte(text[:i], '\n') + 1
		end := len(text)
		if n := strings.IndexByte(text[i:], '\n'); n >= 0 {
			end = i + n
		}
		from = end + 1
		var family bool
		buf, family, _ = lexiconLine(text[start:end], buf[:0])
		if !slices.Contains(buf, term) {
			continue
		}
		near := len(buf)
		if family {
			near += familyNear
		}
		for _, m := range buf {
			if m != term {
				out = append(out, neighbour{m, near})
			}
		}
	}
	slices.SortFunc(out, func(x, y neighbour) int { return cmp.Or(strings.Compare(x.term, y.term), x.near-y.near) })
	return slices.CompactFunc(out, func(x, y neighbour) bool { return x.term == y.term })
}

// searchKey is what the lexicon's text holds of every word whose term
// is term: the term but for its last two letters, or its last one when
// it has four or fewer (a stem may end otherwise than its word: "memori",
// "rubi", "page" for "paging").
func searchKey(term string) string {
	switch {
	case len(term) > 4:
		return term[:len(term)-2]
	case len(term) > 2:
		return term[:len(term)-1]
	}
	return term
}

// lexiconLine reads one line of a lexicon: a group of words apart by
// spaces, a family when the line starts with "~"; a blank line or one
// starting with # holds none. It appends the group's terms to terms,
// each word read by tokens as the entries' words are. A word that is not
// one term (a stop word, a letter, two words), or that comes to a term
// the group has already, is left out with an error, and a group of fewer
// than two terms is none: the line would not say what it seems to.
func lexiconLine(line string, terms []string) ([]string, bool, []error) {
	var errs []error
	line = strings.TrimSpace(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return terms, false, nil
	}
	family := strings.HasPrefix(line, "~")
	start := len(terms)
	var buf [4]string // one word's terms, on the stack
	for w := range strings.FieldsSeq(strings.TrimPrefix(line, "~")) {
		ts := appendTokens(buf[:0], w)
		switch {
		case len(ts) == 0 && isStopWord(strings.ToLower(w)):
			errs = append(errs, fmt.Errorf("%q is a stop word", w))
		case len(ts) != 1:
			errs = append(errs, fmt.Errorf("%q is not one word to recall (its terms: %q)", w, ts))
		case isStopWord(ts[0]):
			errs = append(errs, fmt.Errorf("%q comes to the stop word %q", w, ts[0]))
		case slices.Contains(terms[start:], ts[0]):
			errs = append(errs, fmt.Errorf("%q and another word of the group are one word to recall (%q)", w, ts[0]))
		default:
			terms = append(terms, ts[0])
		}
	}
	if len(terms)-start < 2 {
		errs = append(errs, fmt.Errorf("a group needs two words or more: %q", line))
		return terms[:start], family, errs
	}
	return terms, family, errs
}
