package recall

import (
	"slices"
	"strings"
	"testing"
)

func TestStem(t *testing.T) {
	cases := []struct{ in, want string }{
		{"migrations", "migrat"},
		{"migrated", "migrat"},
		{"migrate", "migrat"},
		{"migrating", "migrat"},
		{"caches", "cach"},
		{"cache", "cach"},
		{"caching", "cach"},
		{"cached", "cach"},
		{"policies", "polici"},
		{"policy", "polici"},
		{"pets", "pet"}, // short words too
		{"pet", "pet"},
		{"dogs", "dog"},
		{"stopped", "stop"},
		{"classes", "class"},
		{"status", "status"},
		{"analysis", "analysi"},
		{"quickly", "quick"},
		{"redis", "redi"},
		{"auth", "auth"},
		{"go1.26", "go1.26"},
		{"v2", "v2"},
		{"tests", "test"},
		{"testing", "test"},
		{"tested", "test"},
		{"sqlite", "sqlite"},
	}
	for _, c := range cases {
		if got := stem(c.in); got != c.want {
			t.Errorf("Stem(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestTokens(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"Which DATABASE did we pick?", []string{"which", "databas", "pick"}[1:]},
		{"Redis for the session-cache, not memcached.", []string{"redi", "session", "cach", "memcach"}},
		{"ok", nil},
		{"", nil},
		{"Ünïcode Wörter straße", []string{"ünïcode", "wörter", "straße"}},
		{"a b c", nil},
	}
	for _, c := range cases {
		if got := tokens(c.in); !slices.Equal(got, c.want) {
			t.Errorf("Tokens(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// The stop words are the list they were kept as, with the Snowball
// English list's ("his", "during", "don" of "don't"), and nothing else.
func TestStopWords(t *testing.T) {
	list := strings.Fields(`his her during don whom a an and are as at be been but by can could did do does done for from had has have how i if in into is it its just me my no not of on or our please so that the their them then there these they this those to too up us was we were what when where which who why will with would you your yes ok okay also about again all any let lets now should some than thanks thank want need tell know`)
	for _, w := range list {
		if !isStopWord(w) {
			t.Errorf("%q is no longer a stop word", w)
		}
	}
	for _, w := range []string{"", "cache", "redis", "an ", "The", "yesterday", "knows", "thankful", "a1", "cannot"} {
		if isStopWord(w) {
			t.Errorf("%q is a stop word", w)
		}
	}
}
