package privacy

import "strings"

// bimri-hook's own rules: secrets that no gitleaks rule gives away, only
// what is around them, and token formats gitleaks misses or wants to end
// as in code. gitleaks' rules look for tokens that are secrets wherever
// they stand; the first of these look for what a person pastes into a
// prompt or a note: a value after a name that says it is a secret,
// whatever the value looks like.
var namedRules = []rule{{
	// The whole block, or everything after BEGIN when END never comes: a
	// truncated key is still a key (gitleaks' rule needs the END line).
	id:          "private key block",
	keywords:    []string{"-----begin"},
	regex:       `(?s)-----BEGIN[ A-Z0-9_-]*PRIVATE KEY[ A-Z0-9_-]*-----.*?(?:-----END[ A-Z0-9_-]*PRIVATE KEY[ A-Z0-9_-]*-----|\z)`,
	fromKeyword: true,
}, {
	// scheme://user:password@host keeps the user and the host. The
	// password may hold '@' but not '/', so the last '@' before the path
	// ends it.
	id:          "password in URL",
	keywords:    []string{"://"},
	regex:       `://[^\s:/?#@]*:([^\s/?#]+)@`,
	fromKeyword: true,
}, {
	// With a scheme word the header value is certainly a credential.
	id:          "Authorization header",
	keywords:    []string{"authorization"},
	regex:       `\b(?i)authorization["']?[ \t]*[:=][ \t]*["']?(?:bearer|basic|token|digest)[ \t]+([^\s"']+)`,
	fromKeyword: true,
}, {
	// Without the header, "Bearer authentication" is prose: a token has
	// a digit or is longer than ordinary words.
	id:          "bearer token",
	keywords:    []string{"bearer"},
	regex:       `\b(?i)bearer[ \t]+([A-Za-z0-9._~+/-]{8,}=*)`,
	fromKeyword: true,
	check:       func(tok string) bool { return len(tok) >= 20 || strings.ContainsAny(tok, "0123456789") },
}, {
	id:       "secret assignment",
	keywords: []string{"pass", "pwd", "secret", "token", "key", "cred"},
	scan:     func(s string, _ []int) []span { return assignments(s) },
}, {
	id:       "secret in a sentence",
	keywords: sentenceWords,
	scan:     sentences,
}}
