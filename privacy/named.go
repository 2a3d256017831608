package privacy

import "strings"

// bimri-hook's own rules: secrets only their context gives away, and
// token formats gitleaks misses or wants to end as in code.
var namedRules = []rule{{
	// The whole block, or everything after BEGIN when END never comes: a
	// truncated key is still a key (gitleaks' rule needs the END line).
	id:       "private key block",
	keywords: []string{"-----begin"},
	regex:    `(?s)-----BEGIN[ A-Z0-9_-]*PRIVATE KEY[ A-Z0-9_-]*-----.*?(?:-----END[ A-Z0-9_-]*PRIVATE KEY[ A-Z0-9_-]*-----|\z)`,
	lines:    -1, // to the end of the text
}, {
	// scheme://user:password@host: the last '@' before the path ends it.
	id:       "password in URL",
	keywords: []string{"://"},
	regex:    `://[^\s:/?#@]*:([^\s/?#]+)@`,
}, {
	// With a scheme word the header value is certainly a credential.
	id:       "Authorization header",
	keywords: []string{"authorization"},
	regex:    `\b(?i)authorization["']?[ \t]*[:=][ \t]*["']?(?:bearer|basic|token|digest)[ \t]+([^\s"']+)`,
}, {
	// Without the header, "Bearer authentication" is prose: a token has
	// a digit or is longer than ordinary words.
	id:       "bearer token",
	keywords: []string{"bearer"},
	regex:    `\b(?i)bearer[ \t]+([A-Za-z0-9._~+/-]{8,}=*)`,
	pick: func(s string, m []int) (span, bool) {
		tok := s[m[2]:m[3]]
		return span{m[2], m[3]}, len(tok) >= 20 || strings.ContainsAny(tok, "0123456789")
	},
}, {
	// Tokens whose gitleaks rule wants them to end as in code and at their
	// canonical length: in prose a comma follows a key as often, and a
	// newer format or a paste cut short is a few characters off.
	id:       "Stripe key",
	keywords: []string{"sk_live", "sk_test", "sk_prod", "rk_live", "rk_test", "rk_prod"},
	regex:    `\b[rs]k_(?:live|test|prod)_[A-Za-z0-9]{10,}`,
}, {
	id:       "Google API key",
	keywords: []string{"aiza"},
	regex:    `\bAIza[\w-]{30,}`,
}, {
	id:       "OpenAI project key",
	keywords: []string{"sk-proj-", "sk-svcacct-", "sk-admin-"},
	regex:    `\bsk-(?:proj|svcacct|admin)-[\w-]{40,}`,
}, {
	id:       "Anthropic key",
	keywords: []string{"sk-ant-"},
	regex:    `\bsk-ant-[a-z]+[0-9]{2}-[\w-]{60,}`,
}, {
	// A JWT (base64url, RFC 7519): its header and payload are JSON
	// objects, so both begin eyJ.
	id:       "JWT",
	keywords: []string{"eyj"},
	regex:    `\beyJ[\w-]{10,}\.eyJ[\w-]{10,}\.[\w-]*`,
}, {
	// A Google OAuth client secret: GOCSPX- and 28 characters.
	id:       "Google OAuth client secret",
	keywords: []string{"gocspx-"},
	regex:    `\bGOCSPX-[\w-]{20,}`,
}, {
	// A Discord bot token: the bot's ID in base64 (one of nine pairs
	// first), a time and an HMAC, joined with dots.
	id:       "Discord bot token",
	keywords: []string{"mt", "mj", "mz", "nd", "nt", "nj", "nz", "od", "ot"},
	regex:    `\b(?:M[Tjz]|N[DTjz]|O[DT])[\w-]{21,30}\.[\w-]{6}\.[\w-]{27,40}`,
}, {
	// mysql -pPASSWORD (no space: -p alone asks for it; -P is the port).
	id:       "mysql -p",
	keywords: []string{"mysql", "mariadb"},
	regex:    `\b(?i:mysql(?:dump|admin|import|check)?|mariadb(?:-dump|-admin)?)\b[^\n|;&]*?[ \t]-p(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"]+))`,
	pick: func(s string, m []int) (span, bool) {
		g := firstGroup(m, 1)
		return valueSpan(s, span{m[2*g], m[2*g+1]})
	},
}, {
	id:         "secret assignment",
	keywords:   []string{"pass", "pwd", "secret", "token", "key", "cred"},
	regex:      assignmentExpr,
	lines:      2,
	assignment: 64,
	pick:       pickAssigned,
}, {
	id:       "secret in a sentence",
	keywords: sentenceWords,
	regex:    sentenceExpr,
	gate:     verbNear,
	pick:     pickSentence,
}}
