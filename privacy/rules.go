package privacy

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// A rule is one kind of secret, as data: where the text holds one of its
// keywords, each match of its regex is a secret (group secretGroup; 0: the
// first that matched, or the whole match) unless its entropy is at most
// entropy, an allowlist lets it go, or pick refuses it.
type rule struct {
	id          string
	regex       string
	secretGroup int
	entropy     float64
	keywords    []string // lower case, two bytes or more
	allow       []gitleaksAllowlist

	// fromKeyword: every match begins at a keyword (past splitStart), so
	// the regexp is tried only there. Then assignment (assignmentNear),
	// lines and gate each skip a regexp run where none can match.
	fromKeyword bool
	assignment  int
	lines       int
	gate        func(rest string) bool
	pick        func(s string, m []int) (span, bool)
}

// semiGenericLeft is the left part of gitleaks' "semi-generic" rules: it
// holds no group, so the secret is the same without it.
const semiGenericLeft = `(?i)[\w.-]{0,50}?`

// splitStart sets aside what a match may begin with before its keyword:
// semiGenericLeft, and a \b, checked by hand at a keyword.
func splitStart(expr string) (rest string, boundary bool) {
	if r, ok := strings.CutPrefix(expr, semiGenericLeft); ok {
		expr = "(?i)" + r
	}
	if r, ok := strings.CutPrefix(expr, `\b`); ok {
		return r, true
	}
	return expr, false
}

// span is a part of a text, s[start:end].
type span struct{ start, end int }

// compiled is a rule's regexps, compiled on first use: most keywords met
// fail the rule's cheaper checks.
type compiled struct {
	re       func() *regexp.Regexp // anchored with ^ when the rule is tried at its keywords
	boundary bool
	allow    func() []compiledAllowlist // compiled at the rule's first match: most keywords match nothing
}

var (
	allRules      = sync.OnceValue(func() []rule { return slices.Concat(gitleaksRules, ownRules()) })
	compiledRules = sync.OnceValue(func() []func() *compiled {
		out := make([]func() *compiled, len(allRules()))
		for i := range out {
			r := &allRules()[i]
			out[i] = sync.OnceValue(func() *compiled {
				c := &compiled{allow: sync.OnceValue(func() []compiledAllowlist { return compileAllowlists(r.allow) })}
				expr := r.regex
				if r.fromKeyword {
					var rest string
					rest, c.boundary = splitStart(r.regex)
					expr = `^(?:` + rest + `)`
				}
				c.re = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
				return c
			})
		}
		return out
	})
	globalAllow = sync.OnceValue(func() []compiledAllowlist { return compileAllowlists(gitleaksAllow) })
)

// ownRules are namedRules as they run: from their keywords, one line
// unless they say otherwise.
func ownRules() []rule {
	rules := slices.Clone(namedRules)
	for i := range rules {
		rules[i].fromKeyword, rules[i].lines = true, cmp.Or(rules[i].lines, 1)
	}
	return rules
}

// matches calls fn with every match of r in s, where r's keywords stand
// at the offsets at.
func (r *rule) matches(c *compiled, s string, at []int, fn func(m []int)) {
	if !r.fromKeyword {
		for _, m := range c.re().FindAllStringSubmatchIndex(s, -1) {
			fn(m)
		}
		return
	}
	for _, i := range at {
		if (c.boundary && !wordBoundary(s, i)) || (r.assignment > 0 && !assignmentNear(s[i:], r.assignment)) ||
			(r.gate != nil && !r.gate(s[i:])) {
			continue
		}
		m := c.re().FindStringSubmatchIndex(firstLines(s[i:], r.lines))
		for k := range m {
			if m[k] >= 0 {
				m[k] += i
			}
		}
		if m != nil {
			fn(m)
		}
	}
}

// assignmentNear says whether an assignment (= : > | ? ,) comes within
// characters of s past only what the rules allow between a name and its
// value. Most prose naming a token has none, and the regexp failing costs
// more. Non-ASCII counts as letters: with (?i), \w matches the Kelvin sign.
func assignmentNear(s string, within int) bool {
	n := 0
	for j := 0; j < len(s) && n < within; j++ {
		switch c := s[j]; {
		case strings.IndexByte("=>:|?,", c) >= 0:
			return true
		case c >= 0x80:
			if c >= 0xc0 {
				n++ // a character's first byte
			}
		case !isWordByte(c) && strings.IndexByte(" \t\r\n\f\v.-'\"`\\", c) < 0:
			return false
		default:
			n++
		}
	}
	return false
}

// firstLines is s up to the end of its n-th line, all of s for n <= 0: Go's
// backtracker clears a bitmap as long as its text on every try.
func firstLines(s string, n int) string {
	end := 0
	for ; n > 0; n-- {
		j := strings.IndexByte(s[end:], '\n')
		if j < 0 {
			return s
		}
		end += j + 1
	}
	if end == 0 {
		return s
	}
	return s[:end]
}

// wordBoundary says whether \b holds at s[i], as regexp sees it.
func wordBoundary(s string, i int) bool {
	return (i > 0 && isWordByte(s[i-1])) != (i < len(s) && isWordByte(s[i]))
}

// secrets returns the secrets every rule finds in s, where hits (see
// keywordHits) says which rules' keywords stand where.
func secrets(s string, hits []hit) []span {
	rules, compiled := allRules(), compiledRules()
	texts := []string{s}
	if prose := proseEnds(s); prose != s {
		texts = append(texts, prose)
	}
	var out []span
	var at []int
	for j := 0; j < len(hits); {
		i := int(hits[j].rule)
		for at = at[:0]; j < len(hits) && int(hits[j].rule) == i; j++ {
			at = append(at, int(hits[j].at))
		}
		r, c := &rules[i], compiled[i]()
		// gitleaks' rules also read the text with its sentences' ends made
		// spaces (proseEnds); its global allowlist is theirs alone.
		ruleTexts, global := texts[:1], func() []compiledAllowlist { return nil }
		if i < len(gitleaksRules) {
			ruleTexts, global = texts, globalAllow
		}
		for _, text := range ruleTexts {
			r.matches(c, text, at, func(m []int) {
				if sec, ok := r.secret(s, m); ok && !allowed(s, m, sec, c.allow()) && !allowed(s, m, sec, global()) {
					out = append(out, sec)
				}
			})
		}
	}
	return out
}

// A hit is a keyword of a rule (its index in allRules) at an offset.
type hit struct{ rule, at int32 }

// keywordHits finds every rule's keywords in s, in any ASCII letter case,
// ordered by rule, then offset.
func keywordHits(s string) []hit {
	x := keywords()
	var hits []hit
	for i := 0; i+1 < len(s); i++ {
		k := x.byPair[lowerASCII(s[i])][lowerASCII(s[i+1])]
		if k == 0 {
			continue
		}
		for _, w := range x.words[k-1] {
			if hasPrefixFold(s[i:], w.text) {
				for _, r := range w.rules {
					hits = append(hits, hit{int32(r), int32(i)})
				}
			}
		}
	}
	slices.SortFunc(hits, func(a, b hit) int { return cmp.Or(cmp.Compare(a.rule, b.rule), cmp.Compare(a.at, b.at)) })
	return slices.Compact(hits)
}

// keywordIndex finds keywords by their first two bytes: byPair[a][b] is 1
// + the index in words of those that begin a, b; 0 for none.
type keywordIndex struct {
	byPair [256][256]uint8
	words  [][]indexedWord
}

type indexedWord struct {
	text  string
	rules []int // indices in allRules
}

var keywords = sync.OnceValue(func() *keywordIndex {
	x := &keywordIndex{}
	for i, r := range allRules() {
		for _, w := range r.keywords {
			k := &x.byPair[w[0]][w[1]]
			if *k == 0 {
				x.words = append(x.words, nil)
				if len(x.words) > 255 {
					panic("privacy: more than 255 keyword beginnings")
				}
				*k = uint8(len(x.words))
			}
			list := x.words[*k-1]
			if j := slices.IndexFunc(list, func(iw indexedWord) bool { return iw.text == w }); j >= 0 {
				list[j].rules = append(list[j].rules, i)
			} else {
				x.words[*k-1] = append(list, indexedWord{w, []int{i}})
			}
		}
	}
	return x
})

// hasPrefixFold is strings.HasPrefix ignoring ASCII case (prefix lower).
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if lowerASCII(s[i]) != prefix[i] {
			return false
		}
	}
	return true
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
