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
	lexiconMap  map[string][]neighbour
)

// neighbour is a term the lexicon puts beside another, and the size of
// the smallest group that holds both: the smaller, the nearer
// ("postgresql" is nearer "postgres" than "database" is).
type neighbour struct {
	term  string
	group int
}

// neighbours are the terms the lexicon puts beside term (as tokens gives
// them), sorted by term; nil for a word it does not know.
func neighbours(term string) []neighbour {
	lexiconOnce.Do(func() { lexiconMap, _ = parseLexicon(lexiconText) })
	return lexiconMap[term]
}

// parseLexicon reads a lexicon: a group a line, words apart by spaces,
// blank lines and lines starting with # ignored. Each word goes through
// tokens, as the entries' words do. A word that is not one term (a stop
// word, a letter, two words), a group of fewer than two terms, or two
// words of a group that come to one term is refused, with its line: the
// lexicon would not say what it seems to. The rest is kept. Each term's
// neighbours are every other term of every group that holds it.
func parseLexicon(text string) (map[string][]neighbour, []error) {
	var errs []error
	out := map[string][]neighbour{}
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var group []string
		words := map[string]string{} // term -> the word that gave it
		for _, w := range strings.Fields(line) {
			ts := tokens(w)
			switch {
			case len(ts) == 0 && isStopWord(strings.ToLower(w)):
				errs = append(errs, fmt.Errorf("lexicon line %d: %q is a stop word", n+1, w))
			case len(ts) != 1:
				errs = append(errs, fmt.Errorf("lexicon line %d: %q is not one word to recall (its terms: %q)", n+1, w, ts))
			case isStopWord(ts[0]):
				errs = append(errs, fmt.Errorf("lexicon line %d: %q comes to the stop word %q", n+1, w, ts[0]))
			case words[ts[0]] != "":
				errs = append(errs, fmt.Errorf("lexicon line %d: %q and %q are one word to recall (%q)", n+1, words[ts[0]], w, ts[0]))
			default:
				words[ts[0]] = w
				group = append(group, ts[0])
			}
		}
		if len(group) < 2 {
			errs = append(errs, fmt.Errorf("lexicon line %d: a group needs two words or more: %q", n+1, line))
			continue
		}
		for _, t := range group {
			for _, u := range group {
				if u != t {
					out[t] = append(out[t], neighbour{u, len(group)})
				}
			}
		}
	}
	for t, ns := range out {
		// By term, the nearest first, then one of each term.
		slices.SortFunc(ns, func(x, y neighbour) int { return cmp.Or(strings.Compare(x.term, y.term), x.group-y.group) })
		out[t] = slices.CompactFunc(ns, func(x, y neighbour) bool { return x.term == y.term })
	}
	return out, errs
}
