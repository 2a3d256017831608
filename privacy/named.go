package privacy

import (
	"strings"
	"sync"
)

// bimri-hook's own rules: secrets that no token format gives away, only
// what is around them. gitleaks' rules look for tokens that are secrets
// wherever they stand; these look for what a person pastes into a prompt
// or a note: a value after a name that says it is a secret, whatever the
// value looks like.

// namedRule is one of them, tried only when a text holds one of its
// keywords (lower case, two bytes or more): either a regexp, expr, of
// whose matches pick takes the secret, or a scanner of its own, scan,
// given the offsets where the keywords stand.
type namedRule struct {
	name     string
	keywords []string
	expr     string
	pick     func(s string, m []int) (span, bool)
	scan     func(s string, at []int) []span

	pat func() *pattern // expr compiled, on first use
}

var namedRules = compileNamed([]namedRule{{
	// The whole block, or everything after BEGIN when END never comes: a
	// truncated key is still a key (gitleaks' rule needs the END line).
	name:     "private key block",
	keywords: []string{"-----begin"},
	expr:     `(?s)-----BEGIN[ A-Z0-9_-]*PRIVATE KEY[ A-Z0-9_-]*-----.*?(?:-----END[ A-Z0-9_-]*PRIVATE KEY[ A-Z0-9_-]*-----|\z)`,
	pick:     func(_ string, m []int) (span, bool) { return span{m[0], m[1]}, true },
}, {
	// scheme://user:password@host keeps the user and the host. The
	// password may hold '@' but not '/', so the last '@' before the path
	// ends it.
	name:     "password in URL",
	keywords: []string{"://"},
	expr:     `://[^\s:/?#@]*:([^\s/?#]+)@`,
	pick:     group(1),
}, {
	// With a scheme word the header value is certainly a credential.
	name:     "Authorization header",
	keywords: []string{"authorization"},
	expr:     `(?i)\bauthorization["']?[ \t]*[:=][ \t]*["']?(?:bearer|basic|token|digest)[ \t]+([^\s"']+)`,
	pick:     group(1),
}, {
	// Without the header, "Bearer authentication" is prose: a token has
	// a digit or is longer than ordinary words.
	name:     "bearer token",
	keywords: []string{"bearer"},
	expr:     `(?i)\bbearer[ \t]+([A-Za-z0-9._~+/-]{8,}=*)`,
	pick: func(s string, m []int) (span, bool) {
		tok := s[m[2]:m[3]]
		return span{m[2], m[3]}, len(tok) >= 20 || strings.ContainsAny(tok, "0123456789")
	},
}, {
	name:     "secret assignment",
	keywords: []string{"pass", "pwd", "secret", "token", "key", "cred"},
	scan:     func(s string, _ []int) []span { return assignments(s) },
}, {
	name:     "secret in a sentence",
	keywords: sentenceWords,
	scan:     sentences,
}})

func compileNamed(rules []namedRule) []namedRule {
	for i := range rules {
		r := &rules[i]
		if r.expr != "" {
			expr, keywords := r.expr, r.keywords
			r.pat = sync.OnceValue(func() *pattern { return compilePattern(expr, keywords) })
		}
	}
	return rules
}

// find returns the secrets r finds in s, where its keywords stand at the
// offsets at.
func (r *namedRule) find(s string, at []int) []span {
	if r.scan != nil {
		return r.scan(s, at)
	}
	var out []span
	r.pat().each(s, at, func(m []int) {
		if sp, ok := r.pick(s, m); ok {
			out = append(out, sp)
		}
	})
	return out
}

// group picks group n of a match.
func group(n int) func(string, []int) (span, bool) {
	return func(_ string, m []int) (span, bool) { return span{m[2*n], m[2*n+1]}, m[2*n] >= 0 }
}
