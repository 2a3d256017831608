package privacy

import (
	"math"
	"regexp"
	"slices"
	"strings"
)

// The token formats are gitleaks' default rules and allowlists, generated
// into gitleaks_rules.tsv from the module go.mod pins and used as its
// detector uses them, less what needs a path or a commit. gitleaks is not
// linked: its config package's dependencies would initialise every hook.

// An allowlist lets a finding go when one of its checks holds (all, with
// and): its regexps match the target, or the secret holds a stop word.
type allowlist struct {
	and       bool
	target    string                // "", "match" or "line"
	re        func() *regexp.Regexp // the regexps as one alternation; nil for none
	stopwords []string              // lower case
}

// proseEnds is s with the punctuation that ends a sentence or a clause
// made a space: gitleaks' rules want a token to end as in code, and in
// prose a key often ends a sentence.
func proseEnds(s string) string {
	var b []byte
	end := true // s[i+1:] begins with white space or is empty
	for i := len(s) - 1; i >= 0; i-- {
		c := s[i]
		if end && strings.IndexByte(".,!?)]}", c) >= 0 {
			if b == nil {
				b = []byte(s)
			}
			b[i] = ' '
			continue
		}
		end = strings.IndexByte(" \t\n\r\f\v", c) >= 0
	}
	if b == nil {
		return s
	}
	return string(b)
}

// secret is the secret in match m of r, if it has r's entropy, or as r's
// pick says.
func (r *rule) secret(s string, m []int) (span, bool) {
	if r.pick != nil {
		return r.pick(s, m)
	}
	// gitleaks trims newlines off a match.
	rest := strings.TrimLeft(s[m[0]:m[1]], "\n")
	whole := span{m[1] - len(rest), m[1] - len(rest) + len(strings.TrimRight(rest, "\n"))}
	sec := whole
	switch g := r.secretGroup; {
	case g > 0 && 2*g+1 < len(m) && m[2*g] >= 0:
		sec = span{m[2*g], m[2*g+1]}
	case g == 0:
		for i := 2; i+1 < len(m); i += 2 {
			if m[i] >= 0 && m[i+1] > m[i] {
				sec = span{m[i], m[i+1]}
				break
			}
		}
	}
	if sec.start < whole.start || sec.end > whole.end || sec.start >= sec.end ||
		r.entropy != 0 && shannonEntropy(s[sec.start:sec.end]) <= r.entropy {
		return span{}, false
	}
	return sec, true
}

// allowed is gitleaks' checkFindingAllowed.
func allowed(s string, m []int, sec span, lists []allowlist) bool {
	secret := s[sec.start:sec.end]
	lower := strings.ToLower(secret)
	for _, a := range lists {
		target := secret
		switch a.target {
		case "match":
			target = s[m[0]:m[1]]
		case "line": // the line or lines that hold the match
			from, to := strings.LastIndexByte(s[:m[0]], '\n')+1, len(s)
			if n := strings.IndexByte(s[m[1]:], '\n'); n >= 0 {
				to = m[1] + n
			}
			target = s[from:to]
		}
		regexOK := a.re != nil && a.re().MatchString(target)
		stopOK := slices.ContainsFunc(a.stopwords, func(w string) bool { return strings.Contains(lower, w) })
		if (a.and && (a.re == nil || regexOK) && (len(a.stopwords) == 0 || stopOK)) || (!a.and && (regexOK || stopOK)) {
			return true
		}
	}
	return false
}

// shannonEntropy is gitleaks': bits per rune, over the length in bytes.
func shannonEntropy(data string) float64 {
	counts := make(map[rune]int, len(data))
	for _, r := range data {
		counts[r]++
	}
	entropy := 0.0
	inv := 1 / float64(len(data))
	for _, n := range counts {
		f := float64(n) * inv
		entropy -= f * math.Log2(f)
	}
	return entropy
}
