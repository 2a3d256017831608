package recall

import "slices"

// Alternatives says whether older and newer, two entries' texts, name two
// alternatives of one kind and are about one thing: a word of one and a
// word of the other are of one family of the lexicon ("~ ci ... gitlab
// github", "~ database postgres mysql"), neither text holds the other's
// word, and they share another word besides. "Chose GitHub Actions for
// CI." and "Chose GitLab CI for CI after the migration." share one
// subject word and look unlike by their words alone; a reversal is often
// just that, one thing of a kind put in another's place. The record path
// asks the agent about such a pair as it asks about alike ones
// (memfile.LikelyPredecessors); it never moves anything itself.
func Alternatives(older, newer string) bool {
	a, b := distinct(tokens(older)), distinct(tokens(newer))
	shared := 0
	for _, w := range a {
		if slices.Contains(b, w) && !decisionWord(w) {
			shared++
		}
	}
	if shared == 0 {
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

func distinct(ws []string) []string {
	slices.Sort(ws)
	return slices.Compact(ws)
}

// decisionWord says whether the term w is a verb every decision starts
// with, which says nothing of what was decided.
func decisionWord(w string) bool {
	switch w {
	case stem("chose"), stem("choose"), stem("decided"), stem("switched"), stem("moved"), stem("use"),
		stem("picked"), stem("adopted"), stem("replaced"), stem("dropped"), stem("removed"), stem("went"), stem("instead"):
		return true
	}
	return false
}
