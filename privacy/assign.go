package privacy

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// assignments finds the values given to names that say they hold a
// secret, in the forms of config files, code and shells: DB_PASS=x,
// password: x, "api_key": "x", 'password' => 'x', $secret = "x",
// SECRET := "x", --password=x, and a YAML value on the next line
// (password:\n  x). The value may be anything: the name is what tells.
// Comparisons (==, !=, <=, =~) are not assignments.
func assignments(s string) []span {
	var out []span
	for i := 0; i < len(s); i++ {
		if s[i] != '=' && s[i] != ':' {
			continue
		}
		n := operatorAt(s, i)
		if n == 0 {
			continue
		}
		if name := nameBefore(s, i); name != "" && secretName(name) {
			if v, ok := valueAfter(s, i+n); ok {
				out = append(out, v)
				i = v.end - 1
				continue
			}
		}
		i += n - 1
	}
	return out
}

// operatorAt is the length of the assignment operator at s[i] (= : :=
// =>), or 0 when the '=' or ':' there is something else: a comparison, a
// scope (::) or a URL (://).
func operatorAt(s string, i int) int {
	next := byte(0)
	if i+1 < len(s) {
		next = s[i+1]
	}
	if s[i] == ':' {
		switch {
		case next == '=':
			return 2
		case next == ':' || strings.HasPrefix(s[i+1:], "//") || i > 0 && s[i-1] == ':':
			return 0
		}
		return 1
	}
	if i > 0 && strings.IndexByte("=!<>~", s[i-1]) >= 0 || next == '=' || next == '~' {
		return 0
	}
	if next == '>' {
		return 2
	}
	return 1
}

// nameBefore is the name assigned to at s[i]: the letters, digits and
// ._- before it, past spaces and one closing quote (escaped or not).
func nameBefore(s string, i int) string {
	j := i
	for j > 0 && (s[j-1] == ' ' || s[j-1] == '\t') {
		j--
	}
	if j > 0 && (s[j-1] == '"' || s[j-1] == '\'' || s[j-1] == '`') {
		j--
		if j > 0 && s[j-1] == '\\' {
			j--
		}
	}
	end := j
	for j > 0 && end-j < 100 && (isWordByte(s[j-1]) || s[j-1] == '.' || s[j-1] == '-') {
		j--
	}
	return strings.TrimLeft(s[j:end], ".-")
}

// valueAfter is the value that starts at s[k], after spaces: the inside
// of a quoted string, or a bare word up to white space. A YAML value may
// start on the next, indented, line, after a block indicator (| or >).
// Placeholders ($VAR, ${VAR}, {{ .x }}, <your-key>, true, null) are not
// values.
func valueAfter(s string, k int) (span, bool) {
	k = skipBlanks(s, k)
	if k < len(s) && (s[k] == '|' || s[k] == '>') { // a YAML block
		j := k + 1
		if j < len(s) && (s[j] == '-' || s[j] == '+') {
			j++
		}
		if j2 := skipBlanks(s, j); j2 < len(s) && (s[j2] == '\n' || s[j2] == '\r') {
			k = j2
		}
	}
	if k < len(s) && (s[k] == '\n' || s[k] == '\r') {
		j := k + 1
		if s[k] == '\r' && j < len(s) && s[j] == '\n' {
			j++
		}
		if j >= len(s) || (s[j] != ' ' && s[j] != '\t') {
			return span{}, false // nothing indented under the name
		}
		k = skipBlanks(s, j)
	}
	if k >= len(s) {
		return span{}, false
	}
	var v span
	switch q := s[k]; {
	case q == '"' || q == '\'' || q == '`':
		v = quoted(s, k+1, string(q))
	case q == '\\' && k+1 < len(s) && (s[k+1] == '"' || s[k+1] == '\''): // inside a JSON string
		v = quoted(s, k+2, s[k:k+2])
	default:
		end := k
		for end < len(s) && !isSpaceByte(s[end]) && s[end] != '&' {
			end++
		}
		v = span{k, trimValueEnd(s, k, end)}
	}
	if v.end <= v.start || placeholder(s[v.start:v.end]) {
		return span{}, false
	}
	return v, true
}

// trimValueEnd drops what ends a bare value in its context rather than
// belonging to it: a comma, a semicolon or a quote after it, and a
// bracket it did not open ({password: x}, but not ${X}).
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

// quoted is the inside of a string that began before from and ends at
// the next unescaped close on the line, or at the line's end.
func quoted(s string, from int, close string) span {
	end := from
	for end < len(s) && s[end] != '\n' {
		if strings.HasPrefix(s[end:], close) {
			return span{from, end}
		}
		if s[end] == '\\' && len(close) == 1 {
			end++ // an escaped character
		}
		end++
	}
	return span{from, min(end, len(s))}
}

func skipBlanks(s string, k int) int {
	for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
		k++
	}
	return k
}

func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// isWordByte reports whether c is a word character as regexp's \b sees it.
func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
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

// secretWords are what a name ends in when it holds a secret (after any
// of secretSuffixes): one word, or two written together or apart
// (api_key, apiKey, APIKEY). afterWords may follow one of them.
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
	// notSecretBefore are words that make a name about a secret, not
	// one: max_tokens, has_password, token_count is caught by its suffix.
	notSecretBefore = []string{"max", "min", "num", "count", "total", "limit", "no", "has", "is", "use", "enable", "enabled", "disable", "require", "required", "show", "with"}
)

// secretName says whether a name holds a secret: one of its words, or
// two together, is a secret word, and only suffix words follow it
// (SECRET_KEY_BASE, private_key_id, DB_PASS, apiKey, PassWord; not
// token_count, max_tokens, password_rules, client_id). An upper-case name
// of two words or more ending in KEY is one too (STRIPE_KEY).
func secretName(name string) bool {
	words := nameWords(name)
	if len(words) == 0 {
		return false
	}
	if len(words) >= 2 && words[len(words)-1] == "key" && strings.ToUpper(name) == name {
		return true
	}
	for i := range words {
		if i > 0 && contains(notSecretBefore, words[i-1]) {
			continue
		}
		// The secret word may take one or two of the name's words, or
		// end one written without a break (PGPASSWORD, usertoken) when
		// it is long enough not to end ordinary words too (bypass).
		for n := 1; n <= 2 && i+n <= len(words); n++ {
			if contains(secretWords, strings.Join(words[i:i+n], "")) && onlySuffixes(words[i+n:]) {
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
	for _, sw := range secretWords {
		if len(sw) >= 6 && len(w) > len(sw) && strings.HasSuffix(w, sw) {
			return true
		}
	}
	return false
}

func onlySuffixes(words []string) bool {
	for _, w := range words {
		if !contains(secretSuffixes, w) && strings.Trim(w, "0123456789") != "" {
			return false
		}
	}
	return true
}

func contains(list []string, w string) bool {
	for _, x := range list {
		if x == w {
			return true
		}
	}
	return false
}

// nameWords splits a name into its words, lower case: at '_', '.', '-'
// and where a lower-case letter meets an upper-case one (apiKey), or an
// upper-case run meets a word (APIKey: api, key).
func nameWords(name string) []string {
	var words []string
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			words = append(words, strings.ToLower(name[start:end]))
		}
		start = -1
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c == '_' || c == '.' || c == '-' {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		upper := 'A' <= c && c <= 'Z'
		prevLower := 'a' <= name[i-1] && name[i-1] <= 'z' || '0' <= name[i-1] && name[i-1] <= '9'
		nextLower := i+1 < len(name) && 'a' <= name[i+1] && name[i+1] <= 'z'
		prevUpper := 'A' <= name[i-1] && name[i-1] <= 'Z'
		if upper && (prevLower || prevUpper && nextLower) {
			flush(i)
			start = i
		}
	}
	flush(len(name))
	return words
}

// sentences finds a secret given in prose, after a word that names one
// (its keywords stand at the offsets at): "the password is
// Blue-Elephant-42", "my API key for staging is: 'x'", "the token was set
// to x". Up to three words may come between the name and the verb. Prose
// uses these words for much besides ("the password is hashed", "the
// token is valid"), so the value must look like a secret: quoted, or with
// a digit, a symbol or a capital after its first letter.
func sentences(s string, at []int) []span {
	var out []span
	for _, i := range at {
		end := secretNounAt(s, i)
		if end < 0 {
			continue
		}
		if v, ok := sentenceValue(s, end); ok {
			out = append(out, v)
		}
	}
	return out
}

// secretNouns are the words that name a secret in prose; the second
// word of a pair may follow after a space, '_' or '-' (api key, API-key).
var secretNouns = []string{"password", "passphrase", "passcode", "passwd", "pwd", "secret", "token", "credentials", "credential",
	"api key", "access key", "secret key", "private key", "master key"}

// sentenceWords begin every one of secretNouns.
var sentenceWords = []string{"password", "passphrase", "passcode", "passwd", "pwd", "secret", "token", "credential", "api", "access", "private", "master"}

// secretNounAt is the end of the secret noun that starts at s[i] as a
// whole word, or -1.
func secretNounAt(s string, i int) int {
	if i > 0 && isWordByte(s[i-1]) {
		return -1
	}
	for _, n := range secretNouns {
		first, second, pair := strings.Cut(n, " ")
		if !hasPrefixFold(s[i:], first) {
			continue
		}
		end := i + len(first)
		if pair {
			if end < len(s) && (s[end] == ' ' || s[end] == '_' || s[end] == '-') {
				end++
			}
			if !hasPrefixFold(s[end:], second) {
				continue
			}
			end += len(second)
		}
		if end < len(s) && isWordByte(s[end]) {
			continue
		}
		return end
	}
	return -1
}

// sentenceValue is the secret in "<noun> [up to three words] is [now]
// VALUE", the noun ending at s[from].
func sentenceValue(s string, from int) (span, bool) {
	j := from
	for words := 0; words <= 3; words++ {
		k := skipBlanks(s, j)
		if k == j || k >= len(s) {
			return span{}, false
		}
		w, end := wordAt(s, k)
		verb, colon := strings.CutSuffix(strings.ToLower(w), ":")
		switch {
		case verb == "is" || verb == "was" || verb == "are" || verb == "were" || w == "=" || w == ":":
			return valueInSentence(s, end, colon || w == ":")
		case verb == "set" || verb == "changed":
			if k2 := skipBlanks(s, end); k2 > end {
				if w2, end2 := wordAt(s, k2); strings.EqualFold(strings.TrimSuffix(w2, ":"), "to") {
					return valueInSentence(s, end2, strings.HasSuffix(w2, ":"))
				}
			}
		}
		if strings.ContainsAny(w, ".,;!?") {
			return span{}, false // the sentence or clause ended
		}
		j = end
	}
	return span{}, false
}

// valueInSentence is the value after a verb ending at s[j]: past "now"
// or "still", "set to" or "changed to", and a colon, a quoted string or a
// word.
func valueInSentence(s string, j int, colonSeen bool) (span, bool) {
	k := skipBlanks(s, j)
	if w, end := wordAt(s, k); strings.EqualFold(w, "now") || strings.EqualFold(w, "still") {
		k = skipBlanks(s, end)
	}
	if w, end := wordAt(s, k); strings.EqualFold(w, "set") || strings.EqualFold(w, "changed") {
		if w2, end2 := wordAt(s, skipBlanks(s, end)); strings.EqualFold(strings.TrimSuffix(w2, ":"), "to") {
			k = skipBlanks(s, end2)
		}
	}
	if !colonSeen && k < len(s) && s[k] == ':' {
		k = skipBlanks(s, k+1)
	}
	if k >= len(s) {
		return span{}, false
	}
	if q := s[k]; q == '"' || q == '\'' || q == '`' {
		v := quoted(s, k+1, string(q))
		if v.end < len(s) && s[v.end] == q && v.end > v.start && !placeholder(s[v.start:v.end]) {
			return v, true
		}
		return span{}, false
	}
	_, end := wordAt(s, k)
	v := span{k, end}
	for v.end > v.start && strings.IndexByte(".,;:!?)\"'`", s[v.end-1]) >= 0 {
		v.end--
	}
	val := s[v.start:v.end]
	return v, v.end > v.start && !placeholder(val) && looksSecret(val)
}

// wordAt is the run of non-blank bytes at s[k] and its end.
func wordAt(s string, k int) (string, int) {
	end := k
	for end < len(s) && !isSpaceByte(s[end]) {
		end++
	}
	return s[k:end], end
}

// looksSecret says whether a word of prose is more likely a secret than
// a word: at least four characters, with a digit, a symbol, or a capital
// after the first letter, and not a number (10,000, 2.5, 30%).
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
