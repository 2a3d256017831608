package memfile

// Names the black-box tests (package memfile_test) use that no other
// package needs, so memfile keeps them unexported.

var (
	EstimateText = estimateText
	LevelFor     = levelFor
	EntryLine    = entryLine
	PatternLine  = patternLine
	Freshness    = freshness
	Neutralize   = neutralize
	PatternID    = patternID
)

const (
	MaxEvidence = maxEvidence
	RenderPiece = renderPiece
)

func (p *Pattern) HasSentence() bool { return p.hasSentence() }
