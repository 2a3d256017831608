package memfile

import (
	"strings"
	"unicode/utf8"
)

// Tokens is an estimate of a file's size in model tokens.
type Tokens struct {
	Tiers [3]int // each tier's heading, comments and blocks
	Total int    // the whole file except the header line itself
}

// The estimate: every non-blank line costs ceil(characters / 4) tokens,
// where characters are Unicode code points. Four characters a token is the
// usual rule of thumb for English prose with Claude's tokenizer; code and
// IDs tokenize a little denser, so treat the figure as the estimate the
// protocol says it is, not a count. It is computed line by line, so a
// section's cost is the sum of its blocks' costs and the budget check can
// drop blocks without rendering the file again.
func lineTokens(s string) int {
	return (runeCount(s) + 3) / 4
}

// runeCount is utf8.RuneCountInString, eight ASCII bytes at a time
// until the first byte that is not ASCII: the budget counts every
// entry's text several times a pass.
func runeCount(s string) int {
	i := asciiPrefix(s)
	return i + utf8.RuneCountInString(s[i:])
}

// asciiPrefix is the length of the run of ASCII bytes s starts with,
// read a word at a time.
func asciiPrefix(s string) int {
	const highs = 0x8080808080808080
	i := 0
	// Sixteen bytes a turn while both words are ASCII, then eight: the
	// loop's own work is most of a turn's.
	for rest := s; len(rest) >= 16; rest = rest[16:] {
		if (word(rest)|word(rest[8:]))&highs != 0 {
			break
		}
		i += 16
	}
	for rest := s[i:]; len(rest) >= 8; rest = rest[8:] {
		// Indexing rest, whose length the loop checked, rather than s at
		// i+k: the compiler then drops the eight bounds checks and loads
		// the word at once (four times fewer instructions a word).
		if word(rest)&highs != 0 {
			break
		}
		i += 8
	}
	for i < len(s) && s[i] < utf8.RuneSelf {
		i++
	}
	return i
}

// word is the first eight bytes of s as a little-endian word; s must be
// at least eight bytes long.
func word(s string) uint64 {
	s = s[:8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// estimateText applies the estimate to any text.
func estimateText(s string) int {
	n := 0
	for _, l := range strings.Split(s, "\n") {
		n += lineTokens(l)
	}
	return n
}

func blockTokens(b Block) int {
	switch {
	case b.Entry != nil:
		return (entryLineRunes(b.Entry)+3)/4 + lineTokens(b.Entry.Text)
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
	comments := s.Comments
	if comments == nil {
		comments = templateComments(DefaultConfig(), tier)
	}
	for _, c := range comments {
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
