package recall

import (
	"strings"
	"sync"
	"unicode"

	"github.com/kljensen/snowball/english"
)

// tokens are the terms the ranking compares: letters and digits, case
// folded, stop words dropped, stemmed, repeats and order kept.
func tokens(s string) []string { return appendTokens(nil, s) }

func appendTokens(out []string, s string) []string {
	for w := range strings.FieldsFuncSeq(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if w = strings.ToLower(w); len(w) >= 2 && !isStopWord(w) {
			out = append(out, stem(w))
		}
	}
	return out
}

// stem is w's Porter2 stem ("migrations", "migrated" meet; "pets" meets
// "pet"). A word with a digit or other letters than ASCII stays whole.
func stem(w string) string {
	for i := 0; i < len(w); i++ {
		if c := w[i]; c < 'a' || c > 'z' {
			return w
		}
	}
	stems.Lock()
	defer stems.Unlock()
	if s, ok := stems.of[w]; ok {
		return s
	}
	if len(stems.of) >= maxStems {
		clear(stems.of)
	}
	s := english.Stem(w, true)
	stems.of[w] = s
	return s
}

// stems caches stems (Porter2 allocates per ending; an archive holds
// millions of words, few distinct); a long-lived process clears it past
// maxStems.
var stems = struct {
	sync.Mutex
	of map[string]string
}{of: map[string]string{}}

const maxStems = 1 << 17

// isStopWord says w is a function word, politeness or a counting word:
// they match everything. The function words are the Snowball project's
// English list, from the stemmer's module (so "his", "during" and "don"
// of "don't" tell nothing either); the rest are ours. A switch, so
// nothing is built at run time.
func isStopWord(w string) bool {
	switch w {
	case "could", "done", "would", "us", "please", "yes", "ok", "okay", "also",
		"let", "lets", "thanks", "thank", "want", "need", "tell", "know",
		// Counting and order words say how many or which, not of what:
		// "the last three commits" is not about the "three fake clinics"
		// of the "last six months".
		"one", "two", "three", "four", "five", "six", "seven", "eight",
		"nine", "ten", "first", "last", "next":
		return true
	}
	return english.IsStopWord(w)
}
