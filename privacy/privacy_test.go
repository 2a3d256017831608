package privacy

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// Fake secrets in the real formats. They are assembled from pieces so that
// secret scanners do not flag this repository, and say FAKE so that no one
// mistakes them for real ones.
var (
	fakeAnthropic  = "sk-" + "ant-" + "api03-" + "FAKEfake0123456789FAKEfake0123456789FAKEfake0123456789-FAKE_fake01AA"
	fakeOpenAIProj = "sk-" + "proj-" + "FAKEfake0123456789FAKEfake0123456789_FAKE-fake01"
	fakeOpenAI     = "sk-" + "FAKEfake0123456789FAKEfake0123456789FAKEfake01"
	fakeGHP        = "ghp" + "_" + "FAKEfake0123456789FAKEfake0123456789"
	fakeGHO        = "gho" + "_" + "FAKEfake0123456789FAKEfake0123456789"
	fakeGHU        = "ghu" + "_" + "FAKEfake0123456789FAKEfake0123456789"
	fakeGHS        = "ghs" + "_" + "FAKEfake0123456789FAKEfake0123456789"
	fakeGHR        = "ghr" + "_" + "FAKEfake0123456789FAKEfake0123456789"
	fakeGitHubPAT  = "github" + "_pat_" + "11FAKEFAKE0123456789_FAKEfake0123456789FAKEfake0123456789FAKEfake0123456789FAKE"
	fakeGitLab     = "glpat" + "-" + "FAKEfake0123456789xy"
	fakeAWSID      = "AKIA" + "FAKE0123456789AB"
	fakeAWSTempID  = "ASIA" + "FAKE0123456789CD"
	fakeAWSSecret  = "FAKEfake0123456789/FAKEfake0123456789+AB"
	fakeSlackBot   = "xoxb" + "-" + "0000000000-0000000000000-FAKEfake0123"
	fakeSlackUser  = "xoxp" + "-" + "0000000000-0000000000-0000000000000-FAKEfake0123"
	fakeGoogle     = "AIza" + "SyFAKEfake0123456789FAKEfake01234567"
	fakeStripeLive = "sk_" + "live_" + "FAKEfake0123456789FAKEfake"
	fakeStripeRest = "rk_" + "live_" + "FAKEfake0123456789FAKEfake"
	fakeStripeTest = "sk_" + "test_" + "FAKEfake0123456789FAKEfake"
	fakeNPM        = "npm" + "_" + "FAKEfake0123456789FAKEfake0123456789"
	fakeHF         = "hf" + "_" + "FAKEfake0123456789FAKEfake0123456789"
	fakeJWT        = "eyJ" + "hbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9" + ".eyJ" + "zdWIiOiJGQUtFIiwibmFtZSI6IkZha2UifQ" + "." + "FAKEsignature0123456789_FAKE-sig"
	fakeBearer     = "FAKEbearer0123456789.FAKE-token_xyz"
	fakePassword   = "hunter2FAKE"
	fakeKeyBody    = "MIIEFAKEFAKEFAKEkeybody0123456789FAKE"
	fakePEM        = "-----BEGIN " + "RSA PRIVATE KEY-----\n" + fakeKeyBody + "\nFAKEFAKEFAKE==\n-----END RSA PRIVATE KEY-----"
)

// distinctiveSecrets are recognised wherever they appear.
var distinctiveSecrets = []string{
	fakeAnthropic, fakeOpenAIProj, fakeGHP, fakeGHO, fakeGHU, fakeGHS, fakeGHR,
	fakeGitHubPAT, fakeGitLab, fakeAWSID, fakeAWSTempID, fakeSlackBot,
	fakeSlackUser, fakeGoogle, fakeNPM, fakeHF, fakeJWT,
}

// boundarySecrets are recognised only at the start of a word.
var boundarySecrets = []string{fakeOpenAI, fakeStripeLive, fakeStripeRest, fakeStripeTest}

func TestRedact(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"anthropic", "key is " + fakeAnthropic + ".", "key is [redacted]."},
		{"openai project", "OPENAI_KEY " + fakeOpenAIProj, "OPENAI_KEY [redacted]"},
		{"openai legacy", "use " + fakeOpenAI + " here", "use [redacted] here"},
		{"github ghp", "token " + fakeGHP, "token [redacted]"},
		{"github gho", fakeGHO, "[redacted]"},
		{"github ghu", "(" + fakeGHU + ")", "([redacted])"},
		{"github ghs", fakeGHS + "\n", "[redacted]\n"},
		{"github ghr", "'" + fakeGHR + "'", "'[redacted]'"},
		{"github fine-grained", "pat " + fakeGitHubPAT, "pat [redacted]"},
		{"gitlab", "glab auth " + fakeGitLab, "glab auth [redacted]"},
		{"aws key id", "id " + fakeAWSID + " ok", "id [redacted] ok"},
		{"aws temporary key id", fakeAWSTempID, "[redacted]"},
		{"aws secret", "aws_secret_access_key = " + fakeAWSSecret, "aws_secret_access_key = [redacted]"},
		{"aws secret env", "export AWS_SECRET_ACCESS_KEY=" + fakeAWSSecret, "export AWS_SECRET_ACCESS_KEY=[redacted]"},
		{"slack bot", "SLACK " + fakeSlackBot, "SLACK [redacted]"},
		{"slack user", fakeSlackUser, "[redacted]"},
		{"google", "key=" + fakeGoogle, "key=[redacted]"},
		{"stripe live", "charge with " + fakeStripeLive, "charge with [redacted]"},
		{"stripe restricted", fakeStripeRest, "[redacted]"},
		{"stripe test", "STRIPE " + fakeStripeTest, "STRIPE [redacted]"},
		{"npm", "//registry.npmjs.org/:_authToken=" + fakeNPM, "//registry.npmjs.org/:_authToken=[redacted]"},
		{"hugging face", "HF " + fakeHF, "HF [redacted]"},
		{"jwt", "session " + fakeJWT + " expired", "session [redacted] expired"},
		{"pem block", "key:\n" + fakePEM + "\nend", "key:\n[redacted]\nend"},
		{"pem openssh", "-----BEGIN " + "OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXkt\n-----END OPENSSH PRIVATE KEY-----", "[redacted]"},
		{"pem unterminated", "here:\n-----BEGIN " + "PRIVATE KEY-----\n" + fakeKeyBody + "\nmore", "here:\n[redacted]"},
		{"authorization bearer", "curl -H 'Authorization: Bearer " + fakeBearer + "' x", "curl -H 'Authorization: Bearer [redacted]' x"},
		{"authorization basic", "Authorization: Basic ZmFrZTpGQUtF", "Authorization: Basic [redacted]"},
		{"authorization json", `{"Authorization": "token ` + fakeBearer + `"}`, `{"Authorization": "token [redacted]"}`},
		{"bearer alone", "send Bearer " + fakeBearer, "send Bearer [redacted]"},
		{"url password", "postgres://bob:" + fakePassword + "@db.example.com:5432/app", "postgres://bob:[redacted]@db.example.com:5432/app"},
		{"url password without user", "redis://:" + fakePassword + "@cache:6379", "redis://:[redacted]@cache:6379"},
		{"url password with at", "https://bob:p@ss" + fakePassword + "@host/x", "https://bob:[redacted]@host/x"},
		{"password=", "password=" + fakePassword + " then", "password=[redacted] then"},
		{"passwd:", "passwd: " + fakePassword, "passwd: [redacted]"},
		{"secret=", "secret=" + fakePassword, "secret=[redacted]"},
		{"token=", "token=" + fakePassword, "token=[redacted]"},
		{"api_key=", "api_key=" + fakePassword, "api_key=[redacted]"},
		{"apikey:", "apikey: " + fakePassword, "apikey: [redacted]"},
		{"env name", "DB_PASSWORD=" + fakePassword, "DB_PASSWORD=[redacted]"},
		{"json value", `{"password":"` + fakePassword + `","user":"bob"}`, `{"password":"[redacted]","user":"bob"}`},
		{"json escaped quote", `{"client_secret": "a\"` + fakePassword + `"}`, `{"client_secret": "[redacted]"}`},
		{"yaml single quoted", "api-key: '" + fakePassword + "'", "api-key: '[redacted]'"},
		{"escaped json", `{\"api_key\":\"` + fakePassword + `\"}`, `{\"api_key\":[redacted]`},
		{"go short assignment", `password := "` + fakePassword + `"`, `password := "[redacted]"`},
		{"query string", "https://api.example.com/v1?access_token=" + fakePassword + "&page=2", "https://api.example.com/v1?access_token=[redacted]&page=2"},
		{"cli flag", "mysql --password=" + fakePassword + " db", "mysql --password=[redacted] db"},
		{"case insensitive", "PassWord = " + fakePassword, "PassWord = [redacted]"},
		{"two secrets", fakeGHP + " and " + fakeAWSID, "[redacted] and [redacted]"},
		{"secret glued to a word", "x" + fakeAnthropic, "x[redacted]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			got := Redact(tt.in)
			is.Equal(got, tt.want)
			is.Equal(Redact(got), got) // idempotent
		})
	}
}

func TestRedactLeavesOrdinaryText(t *testing.T) {
	for _, s := range []string{
		"We chose SQLite because the data fits on one machine.",
		"commit 3f786850e387550fdab836ed7e6dc881de23001b fixed it",
		"short sha 3f78685 and full 0123456789abcdef0123456789abcdef01234567",
		"session e2013774-0689-438b-b450-7575f589bcde started",
		"/home/dev/proj/internal/tokenizer/token.go:42",
		`C:\Users\dev\secrets\notes.txt`,
		"max_tokens=1024 and token_count: 7",
		"The tokenizer splits text; each token is a word piece.",
		"Bearer authentication is used for the API.",
		"the password field is hashed with bcrypt",
		"if token == nil { return }",
		"sk-learn-style-component-names are fine",
		"desk_test_configuration and task-ant-colony",
		"publishable " + "pk_" + "live_" + "FAKEfake0123456789",
		"https://example.com:8080/path?q=1",
		"git@github.com:org/repo.git and ssh://git@github.com/org/repo",
		"Password rules: at least 12 characters.",
		"UPPERCASE HEADINGS IN ASIA PACIFIC",
		"",
	} {
		is := is.New(t)
		is.Equal(Redact(s), s)
	}
}

// The matcher relies on these properties of the rules.
func TestRules(t *testing.T) {
	for _, r := range rules {
		is := is.New(t)
		is.True(r.name != "")
		is.True(len(r.starts) > 0) // every rule needs a start to be tried at all
		for _, s := range r.starts {
			is.True(len(s) >= 2) // findStarts checks the second byte
			if r.fold {
				is.Equal(s, strings.ToLower(s)) // caseless starts are lower case
			}
			is.True(!strings.Contains(s, "\n"))
		}
	}
}

func TestStripPrivate(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"none", "plain text", "plain text"},
		{"span", "a <private>b</private> c", "a  c"},
		{"case", "a <PRIVATE>b</Private> c", "a  c"},
		{"multiline", "a<private>\nline1\nline2\n</private>b", "ab"},
		{"several", "<private>x</private>a<private>y</private>b", "ab"},
		{"unclosed", "keep <private>drop\nall of this", "keep "},
		{"stray close", "a</private>b", "ab"},
		{"nested", "a<private>b<private>c</private>d</private>e", "ae"},
		{"space before >", "a<private >b</private >c", "ac"},
		{"tag formed by removal", "<priv<private></private>ate>hidden", ""},
		{"empty", "", ""},
		{"not a tag", "<privateer>ahoy</privateer>", "<privateer>ahoy</privateer>"},
		{"spaces inside the brackets", "a< private >b</ private >c< / PRIVATE>d", "acd"},
		{"attributes", `a<private reason="customer data">b</private>c`, "ac"},
		{"attribute across lines", "a<private\n  why=x>b</private>c", "ac"},
		{"a longer word is not the tag", "<private-notes>kept</private-notes>", "<private-notes>kept</private-notes>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(StripPrivate(tt.in), tt.want)
		})
	}
}

func TestClean(t *testing.T) {
	is := is.New(t)
	// Removing the private span joins the key back together: it must be
	// redacted after joining.
	in := "use sk-" + "ant-<private>note</private>api03-FAKEfake0123456789FAKE now"
	is.Equal(Clean(in), "use [redacted] now")
	is.Equal(Clean("a <private>"+fakeGHP+"</private> b "+fakeJWT), "a  b [redacted]")
}

func TestCleanInvisible(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"zero-width space inside a GitHub token", "token ghp_\u200b" + fakeGHP[4:] + " here", "token [redacted] here"},
		{"word joiner after the prefix letter", "g\u2060hp_" + fakeGHP[4:], "[redacted]"},
		{"soft hyphen in a private tag", "a<pri\u00advate>b</private>c", "ac"},
		{"emoji joined with U+200D stays", "team \U0001F468\u200d\U0001F469\u200d\U0001F467 done", "team \U0001F468\u200d\U0001F469\u200d\U0001F467 done"},
		{"a run between letters goes whole", "ab\u200b\u200d\ufeffcd", "abcd"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			got := Clean(tt.in)
			is.Equal(got, tt.want)
			is.Equal(Clean(got), got) // idempotent
		})
	}
}

func TestCleanInvalidUTF8(t *testing.T) {
	is := is.New(t)
	in := "\xff\xfe password=\xffabc \xc3 " + fakeGHP + " \xe2\x82"
	got := Clean(in)
	is.Equal(got, "\xff\xfe password=[redacted] \xc3 [redacted] \xe2\x82")
	is.Equal(Clean(got), got)
}

func FuzzClean(f *testing.F) {
	for _, s := range append(append([]string{}, distinctiveSecrets...), boundarySecrets...) {
		f.Add(s)
		f.Add("x <private>" + s + "</private> y " + s)
	}
	for _, s := range []string{
		fakePEM, "Authorization: Bearer " + fakeBearer, "postgres://bob:" + fakePassword + "@db/x",
		`{"password":"` + fakePassword + `"}`, "<priv<private></private>ate>x", "a</private>b<PRIVATE>c",
		"\xff\xfe\xfd", "password=password=x", "token: token: x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := Clean(in)
		if again := Clean(out); again != out {
			t.Fatalf("not idempotent:\nin:    %q\nonce:  %q\ntwice: %q", in, out, again)
		}
		for _, s := range distinctiveSecrets {
			if strings.Contains(out, s) {
				t.Fatalf("secret %q survived in %q", s, out)
			}
		}
		for _, s := range boundarySecrets {
			if strings.Contains(out, " "+s) {
				t.Fatalf("secret %q survived in %q", s, out)
			}
		}
		if privateTag().MatchString(out) {
			t.Fatalf("private tag survived in %q", out)
		}
	})
}

func BenchmarkClean(b *testing.B) {
	text := strings.Repeat("We chose SQLite; see /home/dev/proj/db.go and commit 3f786850e38. ", 150) +
		"password=" + fakePassword + " " + fakeGHP
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Clean(text)
	}
}

func BenchmarkCleanProse(b *testing.B) {
	text := strings.Repeat("- Decided to keep sessions in SQLite; the token budget is 10,000 characters.\n"+
		"- See https://example.com/docs and /home/dev/proj/internal/store/db.go (commit 3f786850e38).\n", 60)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Clean(text)
	}
}

// A rule's quick test (maybe) only ever saves work: with it or without,
// the rule replaces the same text.
func FuzzQuickTestsChangeNothing(f *testing.F) {
	for _, s := range append(append([]string{}, distinctiveSecrets...), boundarySecrets...) {
		f.Add(s)
	}
	for _, s := range []string{
		`{"password":"` + fakePassword + `"}`, `\"api_key\": \"abc\"`, "DB_PASSWORD := 'x'", "token\t=\tx", "auth header",
		"the api is fine", "secret_access_key=abc", "secret_acce\u017f\u017f_\u212aey: v", "Token: x", "client-secret :abc",
		"private_key\\\"=\"v\"", "access token", "pass word = x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		at := findStarts(s)
		for i, r := range rules {
			if r.maybe == nil {
				continue
			}
			got, gotChanged := r.apply(s, at[i])
			r.maybe = nil
			want, wantChanged := r.apply(s, at[i])
			if got != want || gotChanged != wantChanged {
				t.Fatalf("rule %s on %q: %q with its quick test, %q without", r.name, s, got, want)
			}
		}
	})
}

// Text whose starts all fail a rule's quick test never compiles the
// rule's regexp, which costs a hook more than the rest of its redaction.
func TestQuickTestSkipsTheRegexp(t *testing.T) {
	is := is.New(t)
	compiled := false
	var r rule
	for _, x := range rules {
		if x.maybe != nil {
			r = x
		}
	}
	is.True(r.maybe != nil) // some rule has a quick test
	re := r.re
	r.re = func() *regexp.Regexp { compiled = true; return re() }
	s := "Reviewed the auth flow and the API access tokens; pass on the client's private notes."
	_, changed := r.apply(s, findStarts(s)[slices.IndexFunc(rules, func(x rule) bool { return x.name == r.name })])
	is.True(!changed)
	is.True(!compiled)
}

// The quick test before DropInvisible's search knows every invisible
// character's first byte.
func TestInvisibleLeads(t *testing.T) {
	for _, r := range invisible {
		s := string(r)
		if !strings.Contains(invisibleLeads, s[:1]) {
			t.Errorf("%U begins with %#x, not in invisibleLeads", r, s[0])
		}
		if !hasInvisibleLead("ghp_" + s + "x") {
			t.Errorf("hasInvisibleLead misses %U", r)
		}
	}
	if hasInvisibleLead("plain ASCII text, and caf\u00e9") {
		t.Error("hasInvisibleLead finds a lead in text without one")
	}
}
