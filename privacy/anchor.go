package privacy

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A pattern is a rule's regexp, tried only where the text holds one of
// the rule's keywords.
//
// Go's regexp runs a pattern with no literal start (gitleaks' generic
// rules begin with [\w.-]{0,50}?, most others with \b) over every byte of
// a text, in the slower of its engines when the pattern is big: about a
// microsecond per byte of prose for gitleaks' generic-api-key. So where
// every match must begin with one of the rule's keywords, once an
// optional left part (like that [\w.-]{0,50}?) is set aside, the pattern
// is tried anchored at each keyword found instead: the same matches, from
// a few steps at each place. The left part only widens a match leftwards,
// holding no group, so the secret found is the same; a leading \b is
// checked by hand, since an anchored try cannot see the byte before.
type pattern struct {
	re       *regexp.Regexp // the whole pattern, when it cannot be anchored
	at       *regexp.Regexp // else ^ and the pattern's rest
	boundary bool           // the rest begins with \b
	gate     *gate          // a test each place passes first; nil for none
}

func compilePattern(expr string, keywords []string) *pattern {
	if rest, boundary, ok := anchorable(expr, keywords); ok {
		p := &pattern{at: regexp.MustCompile(`^(?:` + rest + `)`), boundary: boundary}
		p.gate = gateOf(rest)
		return p
	}
	return &pattern{re: regexp.MustCompile(expr)}
}

// each calls fn with every match of p in s (indices as
// FindAllStringSubmatchIndex gives them), where keyword occurrences start
// at the offsets at, in ascending order. Anchored matches may overlap;
// callers merge what they find.
func (p *pattern) each(s string, at []int, fn func(m []int)) {
	if p.at == nil {
		for _, m := range p.re.FindAllStringSubmatchIndex(s, -1) {
			fn(m)
		}
		return
	}
	for _, i := range at {
		if p.boundary && !wordBoundary(s, i) {
			continue
		}
		if p.gate != nil && !p.gate.passes(s[i:]) {
			continue
		}
		m := p.at.FindStringSubmatchIndex(s[i:])
		if m == nil {
			continue
		}
		for k := range m {
			if m[k] >= 0 {
				m[k] += i
			}
		}
		fn(m)
	}
}

// wordBoundary says whether \b holds at s[i], as regexp sees it.
func wordBoundary(s string, i int) bool {
	before := i > 0 && isWordByte(s[i-1])
	after := i < len(s) && isWordByte(s[i])
	return before != after
}

// anchorable says whether every match of expr, once a leading optional
// part holding no group is set aside, begins with one of keywords (in
// any ASCII letter case), and returns that rest, without a \b it begins
// with (boundary).
func anchorable(expr string, keywords []string) (rest string, boundary, ok bool) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return "", false, false
	}
	subs := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		subs = re.Sub
	}
	for len(subs) > 0 && optional(subs[0]) && !captures(subs[0]) {
		subs = subs[1:]
	}
	if len(subs) > 0 && subs[0].Op == syntax.OpWordBoundary {
		boundary, subs = true, subs[1:]
	}
	if len(subs) == 0 {
		return "", false, false
	}
	starts, _ := prefixesOfSeq(subs)
	if len(starts) == 0 {
		return "", false, false
	}
	for _, st := range starts {
		if !beginsWithKeyword(st, keywords) {
			return "", false, false
		}
	}
	rest = subs[0].String()
	if len(subs) > 1 {
		rest = (&syntax.Regexp{Op: syntax.OpConcat, Flags: re.Flags, Sub: subs}).String()
	}
	return rest, boundary, true
}

// A byteSet is a set of bytes, bit c%64 of word c/64 for byte c.
type byteSet [4]uint64

func (b *byteSet) add(c byte)      { b[c>>6] |= 1 << (c & 63) }
func (b *byteSet) has(c byte) bool { return b[c>>6]&(1<<(c&63)) != 0 }
func (b *byteSet) addRune(r rune)  { b.addUTF8(r); b.foldsOf(r) }
func (b *byteSet) addUTF8(r rune) {
	var buf [utf8.UTFMax]byte
	for _, c := range buf[:utf8.EncodeRune(buf[:], r)] {
		b.add(c)
	}
}
func (b *byteSet) foldsOf(r rune) {
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		b.addUTF8(f)
	}
}

// A gate is a test a place must pass before a pattern is tried there:
// every match begins with a run of through bytes that reaches a need
// byte within its first within bytes. gitleaks' generic rules need an
// assignment (= : > , | ?) a few words after their keyword, which most
// prose naming a token or a key lacks, and scanning a few bytes says so
// faster than a try.
type gate struct {
	need, through byteSet
	within        int
}

func (g *gate) passes(s string) bool {
	for j := 0; j < len(s) && j < g.within; j++ {
		switch c := s[j]; {
		case g.need.has(c):
			return true
		case !g.through.has(c):
			return false
		}
	}
	return false
}

// gateOf finds the gate of the sequence a pattern is: the first part
// after the start that must match (is not optional) and begins with one
// of a few bytes other than letters; the parts before it, of bounded
// length, give the run. It returns nil when there is none.
func gateOf(expr string) *gate {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	subs := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		subs = re.Sub
	}
	g := &gate{}
	for i, sub := range subs {
		if i > 0 && !optional(sub) {
			if first, ok := firstBytes(sub); ok && len(first) <= 8 && !strings.ContainsAny(first, lowerLetters+strings.ToUpper(lowerLetters)) {
				for j := 0; j < len(first); j++ {
					g.need.add(first[j])
				}
				g.within++ // the need byte itself
				return g
			}
		}
		n, ok := maxLen(sub)
		if !ok || !bytesOf(sub, &g.through) {
			return nil
		}
		g.within += n
	}
	return nil
}

const lowerLetters = "abcdefghijklmnopqrstuvwxyz"

// bytesOf adds to set every byte a match of re can hold; false when that
// is any byte.
func bytesOf(re *syntax.Regexp, set *byteSet) bool {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpWordBoundary, syntax.OpNoWordBoundary,
		syntax.OpBeginLine, syntax.OpBeginText, syntax.OpEndLine, syntax.OpEndText:
		return true
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 {
				set.addRune(r)
			} else {
				set.addUTF8(r)
			}
		}
		return true
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			for r := lo; r <= min(hi, utf8.RuneSelf-1); r++ {
				set.add(byte(r))
			}
			if hi >= utf8.RuneSelf {
				for c := 0x80; c < 0x100; c++ {
					set.add(byte(c)) // any byte of a multi-byte rune
				}
			}
		}
		return true
	}
	for _, sub := range re.Sub {
		if !bytesOf(sub, set) {
			return false
		}
	}
	return re.Op == syntax.OpCapture || re.Op == syntax.OpConcat || re.Op == syntax.OpAlternate ||
		re.Op == syntax.OpQuest || re.Op == syntax.OpRepeat || re.Op == syntax.OpStar || re.Op == syntax.OpPlus
}

// maxLen is the most bytes a match of re takes, if that is bounded.
func maxLen(re *syntax.Regexp) (int, bool) {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpWordBoundary, syntax.OpNoWordBoundary,
		syntax.OpBeginLine, syntax.OpBeginText, syntax.OpEndLine, syntax.OpEndText:
		return 0, true
	case syntax.OpLiteral:
		n := 0
		for _, r := range re.Rune {
			n += runeMaxLen(r, re.Flags&syntax.FoldCase != 0)
		}
		return n, true
	case syntax.OpCharClass:
		if len(re.Rune) == 0 {
			return 0, true
		}
		return utf8.RuneLen(min(re.Rune[len(re.Rune)-1], unicode.MaxRune)), true
	case syntax.OpCapture, syntax.OpQuest:
		return maxLen(re.Sub[0])
	case syntax.OpRepeat:
		if re.Max < 0 {
			return 0, false
		}
		n, ok := maxLen(re.Sub[0])
		return n * re.Max, ok
	case syntax.OpConcat, syntax.OpAlternate:
		total := 0
		for _, sub := range re.Sub {
			n, ok := maxLen(sub)
			if !ok {
				return 0, false
			}
			if re.Op == syntax.OpConcat {
				total += n
			} else {
				total = max(total, n)
			}
		}
		return total, true
	}
	return 0, false
}

// runeMaxLen is the most bytes r takes in UTF-8, or, with fold, any rune
// it folds to (k matches the Kelvin sign, s the long s).
func runeMaxLen(r rune, fold bool) int {
	n := utf8.RuneLen(r)
	if fold {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			n = max(n, utf8.RuneLen(f))
		}
	}
	return n
}

// firstBytes is every byte a match of re can begin with, if re cannot
// match the empty text and those bytes are ASCII.
func firstBytes(re *syntax.Regexp) (string, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if len(re.Rune) == 0 {
			return "", false
		}
		first := []rune{re.Rune[0]}
		if re.Flags&syntax.FoldCase != 0 {
			for f := unicode.SimpleFold(first[0]); f != first[0]; f = unicode.SimpleFold(f) {
				first = append(first, f)
			}
		}
		var b []byte
		for _, r := range first {
			if r >= utf8.RuneSelf {
				return "", false
			}
			b = append(b, byte(r))
		}
		return string(b), true
	case syntax.OpCharClass:
		var b []byte
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i+1] >= utf8.RuneSelf || re.Rune[i+1]-re.Rune[i] > 8 {
				return "", false
			}
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				b = append(b, byte(r))
			}
		}
		return string(b), len(b) > 0
	case syntax.OpCapture, syntax.OpPlus:
		return firstBytes(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min < 1 {
			return "", false
		}
		return firstBytes(re.Sub[0])
	case syntax.OpConcat:
		if len(re.Sub) == 0 || optional(re.Sub[0]) {
			return "", false
		}
		return firstBytes(re.Sub[0])
	case syntax.OpAlternate:
		var all string
		for _, sub := range re.Sub {
			f, ok := firstBytes(sub)
			if !ok {
				return "", false
			}
			for i := 0; i < len(f); i++ {
				if strings.IndexByte(all, f[i]) < 0 {
					all += f[i : i+1]
				}
			}
		}
		return all, all != ""
	}
	return "", false
}

func beginsWithKeyword(s string, keywords []string) bool {
	for _, k := range keywords {
		if strings.HasPrefix(s, k) {
			return true
		}
	}
	return false
}

// optional says whether re may match the empty text at the start of a
// match: x*, x?, x{0,n}.
func optional(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpStar, syntax.OpQuest:
		return true
	case syntax.OpRepeat:
		return re.Min == 0
	}
	return false
}

func captures(re *syntax.Regexp) bool {
	if re.Op == syntax.OpCapture {
		return true
	}
	for _, sub := range re.Sub {
		if captures(sub) {
			return true
		}
	}
	return false
}

// maxPrefixes bounds the set prefixesOf works with: a rule whose starts
// are more varied is run whole.
const maxPrefixes = 256

// prefixesOfSeq is a set of texts, lower case, one of which every match
// of the sequence subs begins with (nil when there is none to say), and
// whether they are the whole match.
func prefixesOfSeq(subs []*syntax.Regexp) (set []string, complete bool) {
	set = []string{""}
	for _, sub := range subs {
		if assertion(sub) {
			if len(set) == 1 && set[0] == "" {
				return nil, false // an assertion at the start needs the byte before
			}
			return set, false
		}
		next, whole, ok := prefixesOf(sub)
		if !ok {
			return nonEmpty(set), false
		}
		var cross []string
		for _, a := range set {
			for _, b := range next {
				cross = append(cross, a+b)
			}
		}
		if len(cross) > maxPrefixes {
			return nonEmpty(set), false
		}
		set = cross
		if !whole {
			return nonEmpty(set), false
		}
	}
	return nonEmpty(set), true
}

func nonEmpty(set []string) []string {
	if len(set) == 1 && set[0] == "" {
		return nil
	}
	return set
}

func assertion(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpBeginLine, syntax.OpBeginText, syntax.OpEndLine, syntax.OpEndText:
		return true
	}
	return false
}

// prefixesOf is the texts, lower case, that a match of re begins with,
// and whether they are its whole match (complete); ok is false when no
// such set can be said.
func prefixesOf(re *syntax.Regexp) (set []string, complete, ok bool) {
	switch re.Op {
	case syntax.OpEmptyMatch:
		return []string{""}, true, true
	case syntax.OpLiteral:
		return []string{strings.ToLower(string(re.Rune))}, true, true
	case syntax.OpCharClass:
		var runes []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if len(runes) == 8 {
					return nil, false, false
				}
				l := strings.ToLower(string(r))
				if !containsString(runes, l) {
					runes = append(runes, l)
				}
			}
		}
		return runes, true, len(runes) > 0
	case syntax.OpCapture:
		return prefixesOf(re.Sub[0])
	case syntax.OpConcat:
		set, complete := prefixesOfSeq(re.Sub)
		return set, complete, set != nil
	case syntax.OpAlternate:
		complete := true
		for _, sub := range re.Sub {
			s, c, ok := prefixesOf(sub)
			if !ok {
				return nil, false, false
			}
			set, complete = append(set, s...), complete && c
		}
		return set, complete, len(set) <= maxPrefixes
	case syntax.OpQuest:
		s, c, ok := prefixesOf(re.Sub[0])
		if !ok || !c {
			return nil, false, false
		}
		return append(s, ""), true, true
	case syntax.OpPlus:
		s, _, ok := prefixesOf(re.Sub[0])
		return s, false, ok
	case syntax.OpRepeat:
		if re.Min < 1 {
			return nil, false, false
		}
		s, c, ok := prefixesOf(re.Sub[0])
		return s, c && re.Min == 1 && re.Max == 1, ok
	}
	return nil, false, false
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
