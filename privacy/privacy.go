// Package privacy keeps secrets and private text out of memory files.
//
// Everything bimri-hook writes to bimri.md may end up committed, shared or
// fed back to a model, so text taken from prompts, transcripts or the agent
// is passed through [Clean] first. [StripPrivate] honours the user's explicit
// <private>...</private> markers; [Redact] catches credentials pasted by
// accident.
//
// Redaction is deliberately simple and consistent: a secret that stands on
// its own (an API key, a token, a JWT, a private key block) is replaced by
// the single word [redacted]; a secret that is the value of something named
// (password=..., Bearer ..., the password in a URL) keeps the name and loses
// only the value, so the text still says what was there. Matching leans
// towards redacting too much rather than too little, but leaves ordinary
// prose, hex hashes, UUIDs and paths alone.
//
// All functions are safe on any input, including invalid UTF-8, and are
// idempotent: cleaning already clean text changes nothing.
package privacy

import (
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// Redacted replaces every secret that Redact finds.
const Redacted = "[redacted]"

// Clean returns s with private spans removed and secrets redacted. Private
// spans go first so that text joined by their removal is still checked.
func Clean(s string) string {
	return Redact(StripPrivate(DropInvisible(s)))
}

// privateTag matches an opening or closing <private> tag in any letter
// case, with spaces inside the brackets ("< private >", "</ private>") and
// with attributes (<private reason="...">), which people write too.
var privateTag = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)<\s*(/?)\s*private(?:\s[^<>]*)?>`) })

// invisible are characters that show as nothing: zero-width space,
// non-joiner and joiner, word joiner, byte-order mark, soft hyphen and the
// Mongolian vowel separator. One inside a token ("ghp_\u200b...") hides it
// from every rule.
const invisible = "\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e"

// invisibleLeads are the first bytes of the invisible characters' UTF-8.
const invisibleLeads = "\xc2\xe1\xe2\xef"

// hasInvisibleLead says whether s holds a byte an invisible character
// begins with. Most text holds none, and IndexByte finds that many times
// faster than ContainsAny, which decodes every rune of s: recall cleans
// every item it may bring back, on every prompt.
func hasInvisibleLead(s string) bool {
	for i := 0; i < len(invisibleLeads); i++ {
		if strings.IndexByte(s, invisibleLeads[i]) >= 0 {
			return true
		}
	}
	return false
}

// DropInvisible removes each run of invisible characters that touches an
// ASCII character, where it can only be hiding something: a token split
// by a zero-width space reads whole again. A run between other characters
// is kept, since emoji sequences (a family, a flag) are joined with U+200D.
// Runs are removed whole, so the result has none left to remove.
func DropInvisible(s string) string {
	if !hasInvisibleLead(s) || !strings.ContainsAny(s, invisible) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	prevASCII := false // the rune before the current run is ASCII
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !strings.ContainsRune(invisible, r) {
			b.WriteString(s[i : i+n])
			prevASCII = r < utf8.RuneSelf
			i += n
			continue
		}
		end := i + n
		for end < len(s) {
			r, n := utf8.DecodeRuneInString(s[end:])
			if !strings.ContainsRune(invisible, r) {
				break
			}
			end += n
		}
		nextASCII := end < len(s) && s[end] < utf8.RuneSelf
		if !prevASCII && !nextASCII {
			b.WriteString(s[i:end])
		}
		i = end
	}
	return b.String()
}

// StripPrivate removes every <private>...</private> span, tags included.
// Tags match in any letter case and spans may cross lines and nest. An
// opening tag that is never closed hides everything after it, because the
// end of the private text is unknown; a closing tag without an opening one
// is dropped.
func StripPrivate(s string) string {
	// Removing a tag can join its neighbours into a new tag
	// ("<priv<private></private>ate>"), so repeat until none is left. Every
	// round removes at least one tag, so this ends.
	for {
		// Every tag holds a '<': text without one (most) skips the
		// regexp, and a process whose texts have none never compiles it.
		if strings.IndexByte(s, '<') < 0 {
			return s
		}
		locs := privateTag().FindAllStringSubmatchIndex(s, -1)
		if locs == nil {
			return s
		}
		s = stripTags(s, locs)
	}
}

func stripTags(s string, locs [][]int) string {
	var b strings.Builder
	b.Grow(len(s))
	depth, prev := 0, 0
	for _, loc := range locs {
		closing := loc[3] > loc[2]
		if depth == 0 {
			b.WriteString(s[prev:loc[0]])
		}
		switch {
		case !closing:
			depth++
		case depth > 0:
			depth--
		}
		prev = loc[1]
	}
	if depth == 0 {
		b.WriteString(s[prev:])
	}
	return b.String()
}

// rule is one kind of secret.
//
// Go's regexp has no fast path for a pattern without a literal prefix, and
// many of these have none (case-insensitive names, word boundaries), so
// scanning text with them costs about a microsecond per five bytes. Instead,
// a rule lists the literal texts its matches begin with; only where one of
// those occurs is re, anchored there, tried. That finds the same matches as
// an unanchored search, since every match begins with one of the starts.
type rule struct {
	name      string
	starts    []string // what a match begins with, 2+ bytes; lower case when fold
	fold      bool     // starts match in any ASCII letter case
	wordStart bool     // a match cannot begin inside a word (like \b)
	multiline bool     // a match can span lines; all others stop at '\n'
	// oneRun, when set, holds the bytes that the first part of a match is
	// made of, a part that runs from the start to the last such byte. A
	// match that fails at one start then fails at every later start in the
	// same run of those bytes, so they are not tried: "eyJeyJeyJ..." would
	// otherwise cost time quadratic in its length.
	oneRun func(c byte) bool
	// maybe, when set, is a quick test that the text at a start must pass
	// for re to match there; where it fails re is not tried, and a text
	// where every start fails never compiles re.
	maybe func(rest string) bool
	// re is compiled on first use: most hook runs redact nothing, and
	// compiling every rule at start-up cost more than a millisecond of
	// each run.
	re      func() *regexp.Regexp
	replace func(m []string) string // m holds the match and its groups
}

func newRule(name string, starts []string, pattern string, replace func([]string) string) rule {
	re := sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:` + pattern + `)`) })
	return rule{name: name, starts: starts, re: re, replace: replace}
}

// caseless makes r's starts match in any letter case; the pattern must
// say (?i) itself.
func (r rule) caseless() rule { r.fold = true; return r }

// atWordStart makes r ignore starts preceded by a letter, digit or '_'.
func (r rule) atWordStart() rule { r.wordStart = true; return r }

// acrossLines lets r's matches span lines. Only a rule whose pattern can
// match '\n' needs it.
func (r rule) acrossLines() rule { r.multiline = true; return r }

// firstPartOf sets r.oneRun.
func (r rule) firstPartOf(in func(c byte) bool) rule { r.oneRun = in; return r }

// onlyIf sets r.maybe.
func (r rule) onlyIf(maybe func(rest string) bool) rule { r.maybe = maybe; return r }

// assignsAfterName is what a secret assignment needs after its start:
// the rest of a name, then `\`, a quote, spaces or tabs, each optional,
// then ':' or '='. Prose is full of the starts ("auth", "api", "access",
// "token") and seldom of that, and the rule's regexp is the costliest to
// compile. A name is letters, '_' and '-'; under (?i) a letter may be
// non-ASCII (U+212A for k, U+017F for s), so any such byte counts too.
func assignsAfterName(rest string) bool {
	i := 0
	for i < len(rest) && (rest[i] == '_' || rest[i] == '-' || rest[i] >= utf8.RuneSelf || 'a' <= rest[i]|0x20 && rest[i]|0x20 <= 'z') {
		i++
	}
	if i < len(rest) && rest[i] == '\\' {
		i++
	}
	if i < len(rest) && (rest[i] == '"' || rest[i] == '\'') {
		i++
	}
	for i < len(rest) && (rest[i] == ' ' || rest[i] == '\t') {
		i++
	}
	return i < len(rest) && (rest[i] == ':' || rest[i] == '=')
}

// isBase64URLByte reports whether c is in the base64url alphabet.
func isBase64URLByte(c byte) bool { return c == '-' || isWordByte(c) }

// whole replaces the entire match.
func whole([]string) string { return Redacted }

// keepFirst keeps group 1 (what names the secret) and redacts the rest.
func keepFirst(m []string) string { return m[1] + Redacted }

const (
	// Quoted values keep their quotes so that JSON and code stay readable.
	secretValue = `(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|[^\s&=][^\s&]*)`
	// Longer names first: at one position the first alternative that
	// leads to a match wins.
	secretName = `(?:secret[_-]?access[_-]?key|client[_-]?secret|secret[_-]?key|private[_-]?key|` +
		`api[_-]?key|api[_-]?token|access[_-]?token|refresh[_-]?token|auth[_-]?token|` +
		`passphrase|password|passwd|secret|token)`
)

// rules run in order: token formats come before the generic name=value
// rule so that a known token is recognised whatever it is called.
var rules = []rule{
	// The whole block, or everything after BEGIN when END never comes: a
	// truncated key is still a key.
	newRule("private key block", []string{"-----BEGIN"},
		`(?s)-----BEGIN[ A-Z0-9]*PRIVATE KEY[ A-Z0-9]*-----.*?(?:-----END[ A-Z0-9]*PRIVATE KEY[ A-Z0-9]*-----|\z)`,
		whole).acrossLines(),
	// Three base64url parts, the first two JSON objects ("eyJ" is `{"`).
	newRule("JWT", []string{"eyJ"},
		`eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*`, whole).firstPartOf(isBase64URLByte),
	// Anthropic (sk-ant-) and OpenAI project, service account and admin
	// keys carry a prefix that ordinary text never does.
	newRule("sk- API key", []string{"sk-ant-", "sk-proj-", "sk-svcacct-", "sk-admin-"},
		`sk-[a-z]+-[A-Za-z0-9_-]{16,}`, whole),
	// Older OpenAI keys and others that copied the format. A bare "sk-"
	// occurs inside words, so this needs a word start and a digit:
	// kebab-case names such as sk-learn-style-component have none.
	newRule("legacy sk- API key", []string{"sk-"}, `sk-[A-Za-z0-9_-]{20,}`,
		func(m []string) string {
			if !strings.ContainsAny(m[0], "0123456789") {
				return m[0]
			}
			return Redacted
		}).atWordStart(),
	newRule("GitHub token", []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"},
		`gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}`, whole),
	newRule("GitLab token", []string{"glpat-"}, `glpat-[A-Za-z0-9_-]{20,}(?:\.[A-Za-z0-9_-]+)*`, whole),
	newRule("AWS access key ID", []string{"AKIA", "ASIA"}, `(?:AKIA|ASIA)[0-9A-Z]{16,}`, whole),
	newRule("Slack token", []string{"xox", "xapp-"}, `xox[abprse]-[A-Za-z0-9-]{10,}|xapp-[A-Za-z0-9-]{10,}`, whole),
	newRule("Google API key", []string{"AIza"}, `AIza[0-9A-Za-z_-]{30,}`, whole),
	// Publishable keys (pk_) are meant to be public and stay. The word
	// start keeps identifiers such as disk_test_configuration.
	newRule("Stripe secret key", []string{"sk_live_", "sk_test_", "rk_live_", "rk_test_"},
		`[rs]k_(?:live|test)_[0-9A-Za-z]{10,}`, whole).atWordStart(),
	newRule("npm token", []string{"npm_"}, `npm_[A-Za-z0-9]{30,}`, whole),
	newRule("Hugging Face token", []string{"hf_"}, `hf_[A-Za-z0-9]{30,}`, whole),
	// scheme://user:password@host keeps the user and the host. The
	// password may hold '@' but not '/', so the last '@' before the path
	// ends it.
	newRule("password in URL", []string{"://"}, `(://[^\s:/?#@]*:)[^\s/?#]+@`,
		func(m []string) string { return m[1] + Redacted + "@" }),
	// With a scheme word the header value is certainly a credential.
	newRule("Authorization header", []string{"authorization"},
		`(?i)(authorization["']?[ \t]*[:=][ \t]*["']?(?:bearer|basic|token|digest)[ \t]+)[^\s"']+`,
		keepFirst).caseless().atWordStart(),
	// Without the header, "Bearer authentication" is prose: a token has
	// a digit or is longer than ordinary words.
	newRule("Bearer token", []string{"bearer"}, `(?i)(bearer[ \t]+)([A-Za-z0-9._~+/-]{8,}=*)`,
		func(m []string) string {
			if len(m[2]) < 20 && !strings.ContainsAny(m[2], "0123456789") {
				return m[0]
			}
			return m[1] + Redacted
		}).caseless().atWordStart(),
	// NAME=value, name: value, "name": "value", NAME := "value" where the
	// name ends in a secret word (DB_PASSWORD, github_token,
	// aws_secret_access_key), also inside JSON that is itself quoted
	// (\"password\":). Only the value goes; "==" is a comparison.
	newRule("secret assignment",
		[]string{"secret", "client", "private", "api", "access", "refresh", "auth", "pass", "token"},
		`(?i)(`+secretName+`\\?["']?[ \t]*(?::=|[:=])[ \t]*)`+secretValue,
		func(m []string) string {
			v := m[0][len(m[1]):]
			if q := v[0]; (q == '"' || q == '\'') && len(v) >= 2 && v[len(v)-1] == q {
				return m[1] + string(q) + Redacted + string(q)
			}
			return m[1] + Redacted
		}).caseless().onlyIf(assignsAfterName),
}

// Redact replaces everything in s that looks like a secret: API keys and
// tokens in the formats of Anthropic, OpenAI, GitHub, GitLab, AWS, Slack,
// Google, Stripe, npm and Hugging Face; JWTs; PEM private key blocks; bearer
// and other Authorization header credentials; passwords in URLs; and the
// values of password=, secret:, token=, api_key: style assignments.
func Redact(s string) string {
	// One rule's replacement can complete another rule's match, so run
	// until nothing changes. Real text settles in one or two rounds; the
	// bound only guards against a pathological input looping.
	for range 8 {
		next, changed := redactOnce(s)
		if !changed {
			break
		}
		s = next
	}
	return s
}

func redactOnce(s string) (string, bool) {
	at := findStarts(s)
	changedAny := false
	for i := range rules {
		if next, changed := rules[i].apply(s, at[i]); changed {
			s, changedAny = next, true
			at = findStarts(s) // offsets moved
		}
	}
	return s, changedAny
}

// A start is one literal text that matches of rules[rule] begin with.
type start struct {
	rule   int
	text   string
	second byte // text[1], checked first because most candidates fail there
	fold   bool
}

// startsByByte lists the starts by their first byte (both cases for a
// caseless start), so that one pass over the text finds them all.
var startsByByte = sync.OnceValue(func() *[256][]start {
	var t [256][]start
	for i, r := range rules {
		for _, text := range r.starts {
			st := start{rule: i, text: text, second: text[1], fold: r.fold}
			c := text[0]
			t[c] = append(t[c], st)
			if r.fold && 'a' <= c && c <= 'z' {
				t[c-'a'+'A'] = append(t[c-'a'+'A'], st)
			}
		}
	}
	return &t
})

// findStarts returns, for each rule, the ascending offsets in s where one
// of its starts occurs.
func findStarts(s string) [][]int {
	at := make([][]int, len(rules))
	table := startsByByte()
	for i := 0; i+1 < len(s); i++ {
		for _, st := range table[s[i]] {
			c := s[i+1]
			if st.fold && 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != st.second {
				continue
			}
			if st.fold && hasPrefixFold(s[i:], st.text) || !st.fold && strings.HasPrefix(s[i:], st.text) {
				if n := len(at[st.rule]); n == 0 || at[st.rule][n-1] != i {
					at[st.rule] = append(at[st.rule], i)
				}
			}
		}
	}
	return at
}

// hasPrefixFold is strings.HasPrefix ignoring ASCII case; prefix is lower
// case.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}

// apply replaces r's matches in s, trying only the offsets in at.
func (r *rule) apply(s string, at []int) (string, bool) {
	if at == nil {
		return s, false
	}
	var b strings.Builder
	done := 0 // s[:done] is in b
	skip := 0 // starts before skip need no try
	changed := false
	lineEnd := -1  // end of the line that the last start tried is in
	var m []string // the match and its groups; made once re is needed
	for _, p := range at {
		if p < skip || (r.wordStart && p > 0 && isWordByte(s[p-1])) {
			continue
		}
		rest := s[p:]
		if !r.multiline {
			// Matching only the rest of the line finds the same match
			// faster: regexp's quick backtracker works on short input.
			if p > lineEnd {
				lineEnd = len(s)
				if n := strings.IndexByte(rest, '\n'); n >= 0 {
					lineEnd = p + n
				}
			}
			rest = s[p:lineEnd]
		}
		if r.maybe != nil && !r.maybe(rest) {
			continue
		}
		if m == nil {
			m = make([]string, r.re().NumSubexp()+1)
		}
		loc := r.re().FindStringSubmatchIndex(rest)
		if loc == nil {
			if r.oneRun != nil {
				skip = p + 1
				for skip < len(s) && r.oneRun(s[skip]) {
					skip++
				}
			}
			continue
		}
		for i := range m {
			m[i] = ""
			if loc[2*i] >= 0 {
				m[i] = s[p+loc[2*i] : p+loc[2*i+1]]
			}
		}
		repl := r.replace(m)
		if repl != m[0] && !changed {
			changed = true
			b.Grow(len(s))
		}
		b.WriteString(s[done:p])
		b.WriteString(repl)
		done = p + loc[1]
		skip = done
	}
	if !changed {
		return s, false
	}
	b.WriteString(s[done:])
	return b.String(), true
}

// isWordByte reports whether c is a word character as regexp's \b sees it.
func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
