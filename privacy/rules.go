package privacy

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// A rule is one kind of secret, as data: where the text holds one of its
// keywords (in any letter case), each match of its regex is a secret (its
// group secretGroup; 0: the first group that matched, or the whole match)
// unless its Shannon entropy is at most entropy, an allowlist lets it go,
// or pick refuses it. gitleaks' rules (gitleaks_rules.go) are generated in
// this form; bimri-hook's own follow them (named.go).
type rule struct {
	id          string
	regex       string
	secretGroup int
	entropy     float64
	keywords    []string // lower case, two bytes or more
	allow       []gitleaksAllowlist

	// fromKeyword says that every match begins at one of keywords, once
	// the left part splitStart sets aside is: the regexp is then tried
	// only there instead of over the whole text. assignment, when not 0,
	// says that an assignment follows the keyword within that many
	// characters (see assignmentNear): where none does, the rule is not
	// tried. The generator works both out for
	// gitleaks' rules (TestGitleaksRulesFile), a test checks ours.
	fromKeyword bool
	assignment  int
	// lines, for our rules, is the most lines a match spans: a try at a
	// keyword reads no further (0: to the end). Go's backtracker clears
	// a bitmap as long as the text it is given, on every try.
	lines int
	// pick, for our rules, takes the secret from a match (indices as
	// regexp gives them), or refuses it; gate, when set, is a quick test
	// of the text from a keyword on that every match passes.
	pick func(s string, m []int) (span, bool)
	gate func(rest string) bool
}

// semiGenericLeft is the optional left part gitleaks puts before the
// names of its "semi-generic" rules (a key named after a service). It
// only widens a match leftwards and holds no group, so the secret found
// is the same without it; and a regexp that starts with it is tried at
// every byte of a text, slowly.
const semiGenericLeft = `(?i)[\w.-]{0,50}?`

// splitStart sets aside what a match may begin with before its keyword:
// gitleaks' semi-generic left part, and a \b, which a try at a keyword
// checks by hand (it cannot see the byte before).
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

// compiledRule is a rule's regexps, compiled on first use.
type compiledRule struct {
	once       sync.Once
	re         *regexp.Regexp // the regex, or ^ and its rest when anchored
	anchored   bool           // tried at the keywords only (fromKeyword)
	boundary   bool           // the rest must begin at a word boundary
	lines      int            // see rule.lines
	gate       func(string) bool
	assignment int // an assignment follows within this many characters
	allow      []compiledAllowlist
}

var (
	compiledRules  = sync.OnceValue(func() []compiledRule { return make([]compiledRule, len(allRules())) })
	compiledGlobal = sync.OnceValue(func() []compiledAllowlist { return compileAllowlists(gitleaksAllow) })
)

func (c *compiledRule) get(r *rule) *compiledRule {
	c.once.Do(func() {
		c.allow = compileAllowlists(r.allow)
		if !r.fromKeyword {
			c.re = regexp.MustCompile(r.regex)
			return
		}
		rest, boundary := splitStart(r.regex)
		c.re, c.anchored, c.boundary = regexp.MustCompile(`^(?:`+rest+`)`), true, boundary
		c.assignment, c.lines, c.gate = r.assignment, r.lines, r.gate
	})
	return c
}

// matches calls fn with every match of r in s (indices as
// FindAllStringSubmatchIndex gives them), where r's keywords stand at the
// offsets at. Tries at two keywords may give overlapping matches; the
// spans are merged later.
func (c *compiledRule) matches(s string, at []int, fn func(m []int)) {
	if !c.anchored {
		for _, m := range c.re.FindAllStringSubmatchIndex(s, -1) {
			fn(m)
		}
		return
	}
	for _, i := range at {
		if (c.boundary && !wordBoundary(s, i)) || (c.assignment > 0 && !assignmentNear(s[i:], c.assignment)) {
			continue
		}
		if c.gate != nil && !c.gate(s[i:]) {
			continue
		}
		m := c.re.FindStringSubmatchIndex(firstLines(s[i:], c.lines))
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

// assignmentNear says whether an assignment (= : > | ? ,) is among the
// first within characters of s, past only letters, digits, _ . - spaces,
// quotes and backslashes: what gitleaks' semi-generic rules allow between
// a service's name and the value (the generator works within out), and
// our assignment rule between a secret word and its value (\" in JSON
// held in a string). It is many times faster than trying the
// regexp, which most prose naming a token or a key fails. Characters
// past ASCII count as letters: with (?i), \w matches the Kelvin sign and
// the long s.
func assignmentNear(s string, within int) bool {
	n := 0 // characters passed
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

// firstLines is s up to the end of its n-th line, its newline included;
// all of s for n = 0.
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
	before := i > 0 && isWordByte(s[i-1])
	after := i < len(s) && isWordByte(s[i])
	return before != after
}

// allRules are gitleaks' rules, then bimri-hook's own.
var allRules = sync.OnceValue(func() []rule { return slices.Concat(gitleaksRules, namedRules) })

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
		at = at[:0]
		for ; j < len(hits) && int(hits[j].rule) == i; j++ {
			at = append(at, int(hits[j].at))
		}
		r, c := &rules[i], compiled[i].get(&rules[i])
		// gitleaks' rules want a token to end as in code; they look at
		// the text with its sentences' ends made spaces too (proseEnds).
		// Its global allowlist is for them alone.
		ruleTexts, global := texts[:1], []compiledAllowlist(nil)
		if i < len(gitleaksRules) {
			ruleTexts, global = texts, compiledGlobal()
		}
		for _, text := range ruleTexts {
			c.matches(text, at, func(m []int) {
				if sec, ok := r.secret(s, m); ok && !allowed(s, m, sec, c.allow) && !allowed(s, m, sec, global) {
					out = append(out, sec)
				}
			})
		}
	}
	return out
}

// A hit is a keyword of a rule (its index in allRules) at an offset of a
// text.
type hit struct{ rule, at int32 }

// keywordHits finds every keyword of every rule in s, in any ASCII letter
// case, ordered by rule, then offset. A rule is tried only where its
// keywords are, as gitleaks' detector does; most text has none.
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
	if len(hits) > 1 {
		slices.SortFunc(hits, func(a, b hit) int {
			if a.rule != b.rule {
				return int(a.rule - b.rule)
			}
			return int(a.at - b.at)
		})
		hits = slices.Compact(hits)
	}
	return hits
}

// keywordIndex finds keywords by their first two bytes: byPair[a][b] is 1
// + the index in words of those that begin with a, b, or 0 for none, so
// most places in a text cost one load.
type keywordIndex struct {
	byPair [256][256]uint8
	words  [][]indexedWord
}

type indexedWord struct {
	text  string // lower case, at least two bytes
	rules []int  // indices in allRules
}

var keywords = sync.OnceValue(func() *keywordIndex {
	x := &keywordIndex{}
	for i, r := range allRules() {
		for _, w := range r.keywords {
			x.add(w, i)
		}
	}
	return x
})

func (x *keywordIndex) add(word string, rule int) {
	k := &x.byPair[word[0]][word[1]]
	if *k == 0 {
		x.words = append(x.words, nil)
		if len(x.words) > 255 {
			panic("privacy: more than 255 keyword beginnings")
		}
		*k = uint8(len(x.words))
	}
	list := x.words[*k-1]
	for i := range list {
		if list[i].text == word {
			list[i].rules = append(list[i].rules, rule)
			return
		}
	}
	x.words[*k-1] = append(list, indexedWord{word, []int{rule}})
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// hasPrefixFold is strings.HasPrefix ignoring ASCII case; prefix is lower
// case.
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
