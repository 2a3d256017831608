package memfile

import (
	"unicode/utf8"
)

// Tokens is an estimate of a file's size in model tokens.
type Tokens struct {
	Tiers [3]int // each tier's heading, comments and blocks
	Total int    // the whole file except the header line itself
}

// The estimate: every non-blank line costs ceil(code points / 4) tokens,
// the usual rule of thumb, line by line so the budget check can drop
// blocks without rendering again.
func lineTokens(s string) int {
	return (utf8.RuneCountInString(s) + 3) / 4
}

func blockTokens(b Block) int {
	switch {
	case b.Entry != nil:
		return lineTokens(entryLine(b.Entry)) + lineTokens(b.Entry.Text)
	case b.Pattern != nil:
		return lineTokens(patternLine(b.Pattern)) + lineTokens(b.Pattern.Text)
	case b.Note != nil:
		n := 0
		for _, l := range b.Note.Lines {
			n += lineTokens(l)
		}
		return n
	}
	return 0
}

func sectionTokens(f *File, tier int) int {
	s := f.Tiers[tier-1]
	n := lineTokens(tierTitles[tier-1])
	for _, c := range s.comments(tier) {
		n += lineTokens(c)
	}
	for _, b := range s.Blocks {
		n += blockTokens(b)
	}
	return n
}

// Estimate measures a file as Render would write it.
func Estimate(f *File) Tokens {
	var t Tokens
	due := f.Header.DueLine
	if due == "" {
		due = dueLine(DefaultConfig())
	}
	t.Total = lineTokens(due) + lineTokens(titleLine) + lineTokens(endMarker)
	for _, l := range f.Preamble {
		t.Total += lineTokens(l)
	}
	for _, l := range f.Trailer {
		t.Total += lineTokens(l)
	}
	for _, b := range f.Intro {
		t.Total += blockTokens(b)
	}
	for i := range t.Tiers {
		t.Tiers[i] = sectionTokens(f, i+1)
		t.Total += t.Tiers[i]
	}
	return t
}
