package memfile

import "strings"

// Names the black-box tests (package memfile_test) use that no other
// package needs, so memfile keeps them unexported.

var (
	LevelFor    = levelFor
	EntryLine   = entryLine
	PatternLine = patternLine
	Freshness   = freshness
	Neutralize  = neutralize
	PatternID   = patternID
)

const (
	OversizedRunes = oversizedRunes
	LastingShare   = viewLastingShare
	Tier1Share     = viewTier1Share
	MaxEvidence    = maxEvidence
)

func (p *Pattern) HasSentence() bool { return p.hasSentence() }

// EstimateText applies the token estimate to any text, line by line, as
// the budget counts a file: the oracle the render tests check against.
func EstimateText(s string) int {
	n := 0
	for _, l := range strings.Split(s, "\n") {
		n += lineTokens(l)
	}
	return n
}

// ContextView is the view's text alone.
func ContextView(f *File, v View) string { return ViewLayout(f, v).Text }
