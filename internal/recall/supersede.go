package recall

import "slices"

// Alternatives says whether two entries' texts name alternatives of one
// kind about one thing: words of one lexicon family, neither text holding
// the other's, and another word shared ("Chose GitHub Actions for CI." and
// "Chose GitLab CI for CI after the migration."). The record path then
// asks the agent; nothing is moved.
func Alternatives(older, newer string) bool {
	a, b := tokens(older), tokens(newer)
	if !slices.ContainsFunc(a, func(w string) bool { return slices.Contains(b, w) && !decisionWord(w) }) {
		return false
	}
	for _, x := range a {
		if slices.Contains(b, x) {
			continue
		}
		for _, n := range neighbours(x) {
			if n.family() && slices.Contains(b, n.term) && !slices.Contains(a, n.term) {
				return true
			}
		}
	}
	return false
}

// decisionWord is a verb every decision starts with, which tells nothing.
func decisionWord(w string) bool {
	switch w {
	case stem("chose"), stem("choose"), stem("decided"), stem("switched"), stem("moved"), stem("use"),
		stem("picked"), stem("adopted"), stem("replaced"), stem("dropped"), stem("removed"), stem("go"), stem("goes"), stem("went"), stem("instead"):
		return true
	}
	return false
}
