package recall

import (
	"cmp"
	_ "embed"
	"slices"
	"strings"
)

// lexiconText is one group a line of words of software work that mean
// the same or nearly (see the file's head).
//
//go:embed lexicon.txt
var lexiconText string

// lexiconWeight is a neighbour's match against the word the prompt used:
// weaker evidence, yet beside another word of the prompt enough to pass,
// so "Postgres" still finds "PostgreSQL".
const lexiconWeight = 0.5

// neighbour is a term the lexicon puts beside another, and how near: the
// size of the smallest group holding both, plus familyNear for a family.
type neighbour struct {
	term string
	near int
}

const familyNear = 1 << 16

func (n neighbour) family() bool { return n.near >= familyNear }

// neighbours are the terms the lexicon puts beside term, each once at its
// nearest, sorted; nil for a word it does not know. Only the lines that
// hold term's searchKey are parsed (TestLexiconFile checks the stemmer
// changes no more than a word's ending): parsing the whole lexicon would
// be work on every prompt.
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
		buf, family = lexiconLine(text[start:end], buf[:0])
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

// searchKey is what the lexicon's text holds of every word whose term is
// term: all but its last two letters, or last one for a short term
// ("memori", "rubi").
func searchKey(term string) string {
	switch {
	case len(term) > 4:
		return term[:len(term)-2]
	case len(term) > 2:
		return term[:len(term)-1]
	}
	return term
}

// lexiconLine appends the terms of a lexicon line's group ("~" first: a
// family; blank or "#": none) to terms, each word read as entries' words
// are. A word that is not one term, or repeats one, is left out, and a
// group of fewer than two terms is none (TestLexiconFile says which).
func lexiconLine(line string, terms []string) ([]string, bool) {
	line = strings.TrimSpace(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return terms, false
	}
	family := strings.HasPrefix(line, "~")
	start := len(terms)
	var buf [4]string // one word's terms, on the stack
	for w := range strings.FieldsSeq(strings.TrimPrefix(line, "~")) {
		if ts := appendTokens(buf[:0], w); len(ts) == 1 && !isStopWord(ts[0]) && !slices.Contains(terms[start:], ts[0]) {
			terms = append(terms, ts[0])
		}
	}
	if len(terms)-start < 2 {
		return terms[:start], family
	}
	return terms, family
}
