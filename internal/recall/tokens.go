package recall

import (
	"strings"
	"unicode"
)

// tokens splits text into the terms the ranking compares: letters and
// digits only, case folded, stop words dropped, each word lightly stemmed
// so that "migrations", "migrated" and "migrating" meet. tokens keeps
// repeats and order; callers count them.
func tokens(s string) []string { return appendTokens(nil, s) }

// appendTokens appends the tokens of s to out.
func appendTokens(out []string, s string) []string {
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		w := strings.ToLower(s[start:end])
		start = -1
		if len(w) < 2 || isStopWord(w) {
			return
		}
		out = append(out, stem(w))
	}
	for i, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
	}
	flush(len(s))
	return out
}

// stem removes the common English inflections: plurals, -ing, -ed, -ly
// and a final e. It is deliberately light (no Porter rules): it only has
// to make a word and its inflected forms agree, and a word it does not
// recognise is left alone. Words of four letters or fewer are kept whole,
// and anything with a digit too ("v2", "go1.26").
func stem(w string) string {
	if len(w) <= 4 || strings.IndexFunc(w, unicode.IsDigit) >= 0 {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 5:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:len(w)-1]
	}
	for _, suf := range []string{"ing", "ed", "ly"} {
		if strings.HasSuffix(w, suf) && len(w)-len(suf) >= 4 {
			w = w[:len(w)-len(suf)]
			// "stopped" -> "stopp" -> "stop"
			if n := len(w); n >= 2 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiouls", rune(w[n-1])) {
				w = w[:n-1]
			}
			break
		}
	}
	if len(w) > 4 && strings.HasSuffix(w, "e") {
		w = w[:len(w)-1]
	}
	return w
}

// isStopWord says whether w is an English function word or part of the
// politeness around a request: they match everything and so mean
// nothing. A switch, not a map: Go compiles it to a search with nothing
// built at run time, where a map would be filled again by every process
// that reads a prompt.
func isStopWord(w string) bool {
	switch w {
	case "a", "an", "and", "are", "as", "at", "be", "been", "but", "by",
		"can", "could", "did", "do", "does", "done", "for", "from", "had", "has",
		"have", "how", "i", "if", "in", "into", "is", "it", "its", "just", "me",
		"my", "no", "not", "of", "on", "or", "our", "please", "so", "that",
		"the", "their", "them", "then", "there", "these", "they", "this",
		"those", "to", "too", "up", "us", "was", "we", "were", "what", "when",
		"where", "which", "who", "why", "will", "with", "would", "you", "your",
		"yes", "ok", "okay", "also", "about", "again", "all", "any", "let",
		"lets", "now", "should", "some", "than", "thanks", "thank", "want",
		"need", "tell", "know",
		// Counting and order words say how many or which, not of what:
		// "the last three commits" is not about the "three fake clinics"
		// of the "last six months".
		"one", "two", "three", "four", "five", "six", "seven", "eight",
		"nine", "ten", "first", "last", "next":
		return true
	}
	return false
}
