package hooks

import (
	"strings"
	"testing"

	"github.com/bimri/bimri-hook/memfile"
)

// The hooks ask for keywords wherever they teach remember, with the
// reason, in both routes.
func TestHooksAskForKeywords(t *testing.T) {
	env, _ := recordEnv(t)
	const why = "two or three words a later question would use that the text does not"
	for _, tools := range []Tools{{}, {On: true, Prefix: "mcp__plugin_bimri-hook_bimri__"}} {
		env.Tools = tools
		field := "--keywords word1,word2 -- "
		if tools.On {
			field = `"keywords": ["word1", "word2"]`
		}
		ins := instructions(env)
		if !strings.Contains(ins, field) || !strings.Contains(ins, why) {
			t.Errorf("tools %v: the instructions do not ask for keywords (%q, %q):\n%s", tools.On, field, why, ins)
		}
		if n := nudgeReason(env); !strings.Contains(n, field) {
			t.Errorf("tools %v: the nudge's command has no keywords: %s", tools.On, n)
		}
	}
}

// The view shows no keyword, in either tier.
func TestViewNeverShowsKeywords(t *testing.T) {
	cfg := memfile.DefaultConfig()
	f := memfile.New(cfg)
	for tier, kw := range map[int]string{1: "quokka", 2: "zebrafish"} {
		if _, _, err := f.Add(memfile.NewEntry{Tier: tier, Importance: 5, Date: truthDay, Tags: []string{"db"}, Keywords: []string{kw}, Text: "Entry of tier " + string(rune('0'+tier)) + "."}); err != nil {
			t.Fatal(err)
		}
	}
	env := truthWorkspace(t, f, cfg)
	ctx := startText(t, env, "s1")
	if !strings.Contains(ctx, "Entry of tier 1.") || !strings.Contains(ctx, "Entry of tier 2.") {
		t.Fatalf("the entries are not in the view:\n%s", ctx)
	}
	for _, kw := range []string{"quokka", "zebrafish", "KEYWORDS"} {
		if strings.Contains(ctx, kw) {
			t.Errorf("the view shows %q:\n%s", kw, ctx)
		}
	}
}
