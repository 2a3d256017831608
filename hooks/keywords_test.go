package hooks

import (
	"slices"
	"strings"
	"testing"

	"github.com/bimri/bimri-hook/internal/recall"
	"github.com/bimri/bimri-hook/internal/record"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/transcript"
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

// In MCP mode nothing the hooks say puts "run:" before a tool call:
// every call is one to make, not a command to run.
func TestToolModeNeverSaysRun(t *testing.T) {
	env, _ := recordEnv(t)
	env.Tools = Tools{On: true, Prefix: "mcp__plugin_bimri-hook_bimri__"}
	archived := recall.Hit{Item: recall.Item{ID: "77e0d4a1", Date: env.Today, Importance: 3, Text: "x", ArchivedOn: env.Today, Reason: "faded"}}
	f := memfile.New(env.Config)
	for _, text := range []string{
		instructions(env), intake(env), unreadInstructions(env), nudgeReason(env),
		searchCommand(env),
		recallContext(env, []recall.Hit{archived}, nil, func(recall.Item) bool { return false }),
		failedMessage(env, transcript.Summary{RememberDenied: true, RememberError: "denied"}),
		judgmentBrief(env, 10, &memfile.DeepReport{ReviewTier1: []string{"3f9a1c2b"}}, adviceText(env, f, memfile.Advice{Promote: "x"}, "")),
	} {
		if strings.Contains(text, "run:") || strings.Contains(strings.ToLower(text), "run `") {
			t.Errorf("says run before a tool call:\n%s", text)
		}
	}
}

// Through record, as the CLI and MCP do it: a supersession takes the
// old entries' keywords beside its own, a consolidation its entries'
// and those given.
func TestRecordKeepsKeywords(t *testing.T) {
	env, old := redisDecision(t)
	cfg := env.Config
	if _, err := record.Remember(env.Store, truthDay, cfg, record.Request{Text: "Chose Redis for the rate limiter too.", Importance: 4, Tags: "limits", Keywords: []string{"throttle"}}, record.CLINames); err != nil {
		t.Fatal(err)
	}
	d, err := record.Remember(env.Store, truthDay, cfg, record.Request{Supersedes: []string{old.ID}, Keywords: []string{"postgres"}, Text: "Removed Redis: sessions now live in a Postgres table."}, record.CLINames)
	if err != nil {
		t.Fatal(err)
	}
	// The old entry had none; recorded again with some, it passes them on.
	if !slices.Equal(d.Entry.Keywords, []string{"postgres"}) {
		t.Errorf("superseding entry's keywords: %v", d.Entry.Keywords)
	}
	e2, err := record.Remember(env.Store, truthDay, cfg, record.Request{Supersedes: []string{d.Entry.ID}, Keywords: []string{"sql"}, Text: "Sessions moved to a Postgres table with a TTL index."}, record.CLINames)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(e2.Entry.Keywords, []string{"postgres", "sql"}) {
		t.Errorf("a supersession does not take the old keywords: %v", e2.Entry.Keywords)
	}
	read, err := env.Store.Read()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range read.File.Entries(2) {
		ids = append(ids, e.ID)
	}
	c, err := record.Remember(env.Store, truthDay, cfg, record.Request{Replaces: ids, Keywords: []string{"cache"}, Text: "Redis for limits, Postgres for sessions."}, record.CLINames)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Entry.Keywords, []string{"cache", "postgres", "sql", "throttle"}) {
		t.Errorf("a consolidation's keywords: %v", c.Entry.Keywords)
	}
}
