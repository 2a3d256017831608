package recall

import (
	"slices"
	"testing"
)

func TestStem(t *testing.T) {
	cases := []struct{ in, want string }{
		{"migrations", "migration"},
		{"migrated", "migrat"},
		{"migrate", "migrat"},
		{"migrating", "migrat"},
		{"caches", "cach"},
		{"cache", "cach"},
		{"caching", "cach"},
		{"cached", "cach"},
		{"policies", "policy"},
		{"policy", "policy"},
		{"stopped", "stop"},
		{"classes", "class"},
		{"status", "status"},
		{"analysis", "analysis"},
		{"quickly", "quick"},
		{"redis", "redis"},
		{"auth", "auth"},
		{"go1.26", "go1.26"},
		{"v2", "v2"},
		{"tests", "test"},
		{"testing", "test"},
		{"tested", "test"},
		{"sqlite", "sqlit"},
	}
	for _, c := range cases {
		if got := Stem(c.in); got != c.want {
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
		{"Redis for the session-cache, not memcached.", []string{"redis", "session", "cach", "memcach"}},
		{"ok", nil},
		{"", nil},
		{"Ünïcode Wörter straße", []string{"ünïcod", "wörter", "straß"}},
		{"a b c", nil},
	}
	for _, c := range cases {
		if got := Tokens(c.in); !slices.Equal(got, c.want) {
			t.Errorf("Tokens(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
