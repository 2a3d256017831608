package privacy

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// ownChecks are the Go checks of own_rules.tsv's rules: a gate before
// the regexp runs, a pick of its match's secret.
func ownChecks(id string) (gate func(string) bool, pick func(string, []int) (span, bool)) {
	switch id {
	case "bearer token":
		return nil, func(s string, m []int) (span, bool) {
			tok := s[m[2]:m[3]]
			return span{m[2], m[3]}, len(tok) >= 20 || strings.ContainsAny(tok, "0123456789")
		}
	case "mysql -p":
		return nil, func(s string, m []int) (span, bool) {
			g := firstGroup(m, 1)
			return valueSpan(s, span{m[2*g], m[2*g+1]})
		}
	case "secret assignment":
		return nil, pickAssigned
	case "secret in a sentence":
		return verbNear, pickSentence
	}
	return nil, nil
}

// pickAssigned is the value of an assignment match whose name says it is
// a secret, unless the value is a placeholder.
func pickAssigned(s string, m []int) (span, bool) {
	// Not ==, =~, :: or ://.
	if op, next := s[m[6]:m[7]], s[m[7]:]; (op == "=" && (strings.HasPrefix(next, "=") || strings.HasPrefix(next, "~"))) ||
		(op == ":" && (strings.HasPrefix(next, ":") || strings.HasPrefix(next, "//"))) {
		return span{}, false
	}
	start := m[0]
	for start > 0 && m[3]-start < 100 && (isWordByte(s[start-1]) || s[start-1] == '.' || s[start-1] == '-') {
		start--
	}
	if !secretName(strings.TrimLeft(s[start:m[3]], ".-")) {
		return span{}, false
	}
	v := firstGroup(m, 4)
	if v == 8 { // a bare value
		return valueSpan(s, span{m[2*v], trimValueEnd(s, m[2*v], m[2*v+1])})
	}
	return valueSpan(s, span{m[2*v], m[2*v+1]})
}

func valueSpan(s string, v span) (span, bool) {
	return v, v.end > v.start && !placeholder(s[v.start:v.end])
}

func firstGroup(m []int, from int) int {
	for g := from; 2*g < len(m); g++ {
		if m[2*g] >= 0 {
			return g
		}
	}
	return 0
}

// trimValueEnd drops what ends a bare value in its context: a comma, a
// semicolon, a quote, a bracket it did not open ({password: x}, not ${X}).
func trimValueEnd(s string, start, end int) int {
	for end > start {
		c := s[end-1]
		switch {
		case strings.IndexByte(",;\"'`", c) >= 0:
		case c == ')' && !strings.Contains(s[start:end-1], "("),
			c == ']' && !strings.Contains(s[start:end-1], "["),
			c == '}' && !strings.Contains(s[start:end-1], "{"):
		default:
			return end
		}
		end--
	}
	return end
}

// verbNear says whether one of the sentence rule's verbs comes in the first
// six words of s, with a word that may be a secret in the four after it:
// most sentences naming a token have neither, and the regexp costs more.
func verbNear(s string) bool {
	words := strings.Fields(firstLines(s, 1))
	for i, w := range words[:min(len(words), 6)] {
		switch strings.ToLower(strings.TrimSuffix(w, ":")) {
		case "is", "was", "are", "were", "set", "changed", "=", "":
			return slices.ContainsFunc(words[i+1:min(len(words), i+5)], func(v string) bool {
				return strings.IndexByte("\"'`", v[0]) >= 0 || looksSecret(strings.TrimRight(v, ".,;:!?)\"'`"))
			})
		}
		if w[0] == '=' || w[0] == ':' {
			return true // =VALUE, glued
		}
		if strings.ContainsAny(w, ".,;!?") {
			return false
		}
	}
	return false
}

// pickSentence is a sentence match's value: quoted, or a word that
// looksSecret, less the sentence's end.
func pickSentence(s string, m []int) (span, bool) {
	g := firstGroup(m, 1)
	if g < 4 {
		return valueSpan(s, span{m[2*g], m[2*g+1]})
	}
	v := span{m[2*g], m[2*g+1]}
	for v.end > v.start && strings.IndexByte(".,;:!?)\"'`", s[v.end-1]) >= 0 {
		v.end--
	}
	if v, ok := valueSpan(s, v); ok && looksSecret(s[v.start:v.end]) {
		return v, true
	}
	return span{}, false
}

// isWordByte is a word character as regexp's \b sees it.
func isWordByte(c byte) bool {
	return c == '_' || ('0' <= c && c <= '9') || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

// placeholder says whether v stands for a value rather than being one.
func placeholder(v string) bool {
	switch strings.ToLower(v) {
	case "true", "false", "null", "nil", "none", "yes", "no", "on", "off", "undefined", redacted:
		return true
	}
	if strings.Trim(v, "*.x") == "" || strings.Trim(v, v[:1]) == "" {
		return true // *****, ..., xxxx: a value shown masked
	}
	return placeholderForm().MatchString(v)
}

// placeholderForm is a variable or template reference: $VAR, ${VAR},
// ${{ secrets.X }}, {{ .Values.x }}, %VAR%, <your-password>, process.env.X.
var placeholderForm = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:\$[A-Za-z_][A-Za-z0-9_]*|\$\{[^}]*\}|\$\{\{.*\}\}|\{\{.*\}\}|%[A-Za-z_][A-Za-z0-9_]*%|<[^<>]*>|(?:process\.env|os\.environ|ENV)[.\[][\w"'\]\[.]*)$`)
})

// secretWords end a name that holds a secret, before any secretSuffixes:
// one word, or two written together or apart (api_key, apiKey, APIKEY).
var (
	secretWords = []string{
		"password", "passwd", "pass", "pwd", "passphrase", "passcode", "secret", "token",
		"apikey", "accesskey", "secretkey", "privatekey", "masterkey", "encryptionkey", "signingkey",
		"accountkey", "authkey", "sessionkey", "sharedkey", "licensekey", "clientkey", "appkey",
		"credential", "credentials", "creds",
	}
	secretSuffixes = []string{
		"id", "base", "value", "val", "b64", "base64", "hex", "raw", "str", "string", "enc", "encrypted",
		"plain", "plaintext", "text", "data", "env", "prod", "production", "dev", "development",
		"test", "staging", "live", "old", "new", "current", "primary", "secondary", "key", "hash", "salt",
	}
	// notSecretBefore make a name about a secret, not one: max_tokens.
	notSecretBefore = []string{"max", "min", "num", "count", "total", "limit", "no", "has", "is", "use", "enable", "enabled", "disable", "require", "required", "show", "with"}
)

// secretName says whether a name holds a secret: a secret word, then only
// suffixes (SECRET_KEY_BASE, DB_PASS, apiKey; not token_count or
// password_rules), or an upper-case name ending in _KEY (STRIPE_KEY).
func secretName(name string) bool {
	words := nameWords(name)
	if len(words) == 0 {
		return false
	}
	if len(words) >= 2 && words[len(words)-1] == "key" && strings.ToUpper(name) == name {
		return true
	}
	for i := range words {
		if i > 0 && slices.Contains(notSecretBefore, words[i-1]) {
			continue
		}
		// One or two of the name's words, or the end of one when long
		// enough not to end ordinary words (PGPASSWORD, not bypass).
		for n := 1; n <= 2 && i+n <= len(words); n++ {
			if slices.Contains(secretWords, strings.Join(words[i:i+n], "")) && onlySuffixes(words[i+n:]) {
				return true
			}
		}
		if onlySuffixes(words[i+1:]) && endsInSecretWord(words[i]) {
			return true
		}
	}
	return false
}

func endsInSecretWord(w string) bool {
	return slices.ContainsFunc(secretWords, func(sw string) bool { return len(sw) >= 6 && len(w) > len(sw) && strings.HasSuffix(w, sw) })
}

func onlySuffixes(words []string) bool {
	return !slices.ContainsFunc(words, func(w string) bool { return !slices.Contains(secretSuffixes, w) && strings.Trim(w, "0123456789") != "" })
}

// nameWords splits a name into lower-case words at '_', '.', '-' and
// where case changes: at a capital after a small letter or a digit
// (apiKey), or before one (APIKey).
func nameWords(name string) []string {
	upper := func(i int) bool { return i < len(name) && 'A' <= name[i] && name[i] <= 'Z' }
	lower := func(i int) bool { return i < len(name) && 'a' <= name[i] && name[i] <= 'z' }
	var b strings.Builder
	for i := range len(name) {
		if i > 0 && upper(i) && (lower(i-1) || ('0' <= name[i-1] && name[i-1] <= '9') || (upper(i-1) && lower(i+1))) {
			b.WriteByte('_')
		}
		b.WriteByte(name[i])
	}
	return strings.FieldsFunc(strings.ToLower(b.String()), func(r rune) bool { return r == '_' || r == '.' || r == '-' })
}

// looksSecret says whether a word of prose is more likely a secret: four
// characters or more, not a number, with a digit, a symbol or an inner
// capital.
func looksSecret(w string) bool {
	if utf8.RuneCountInString(w) < 4 || strings.Trim(w, "0123456789,._:%+-") == "" {
		return false
	}
	for i, r := range w {
		switch {
		case unicode.IsDigit(r), !unicode.IsLetter(r) && r != '\'':
			return true
		case i > 0 && unicode.IsUpper(r):
			return true
		}
	}
	return false
}
