package hooks

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
	"github.com/matryer/is"
)

// adviceWorkspace is a store whose Tier 2 is past 90% of its budget, with
// old related billing entries, a lasting importance-5 decision and an
// unnamed DEVELOPING pattern.
func adviceWorkspace(t *testing.T) Env {
	t.Helper()
	day := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	cfg := memfile.DefaultConfig()
	f := memfile.New(cfg)
	add := func(imp, ago int, tag, text string) {
		if _, _, err := f.Add(memfile.NewEntry{Tier: 2, Importance: imp, Date: day.AddDate(0, 0, -ago), Tags: []string{tag}, Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 4 {
		add(4, 40+i, "billing", fmt.Sprintf("Old billing work %d.", i))
	}
	for i := range 5 {
		add(3, 0, "ui", fmt.Sprintf("Recent ui work %d.", i))
	}
	add(5, 30, "money", "All money amounts are integer cents.")
	f, _ = memfile.Maintain(f, day, cfg, memfile.Options{})
	cfg.Budgets[1] = memfile.Estimate(f).Tiers[1] + 10 // past 90%
	root := t.TempDir()
	if err := os.WriteFile(root+"/"+memfile.MemoryName, memfile.Render(f), 0o644); err != nil {
		t.Fatal(err)
	}
	store, err := store.OpenStore(root, cfg, store.StoreOptions{LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return Env{Store: store, Config: cfg, Settings: DefaultSettings(), Today: day, Binary: "/opt/bin/bimri-hook"}
}

func startText(t *testing.T, env Env, session string) string {
	t.Helper()
	out, err := Handle(env, Input{Event: "SessionStart", SessionID: session, Source: "startup"})
	if err != nil {
		t.Fatal(err)
	}
	return out.JSON["hookSpecificOutput"].(map[string]any)["additionalContext"].(string)
}

func TestSessionStartAsksOnce(t *testing.T) {
	is := is.New(t)
	env := adviceWorkspace(t)
	read, err := env.Store.Read()
	is.NoErr(err)
	f := read.File
	a := memfile.Advise(f, env.Today, env.Config)
	is.Equal(len(a.Consolidate), 4)
	is.True(a.Promote != "")
	is.True(len(a.Unnamed) >= 2)

	first := startText(t, env, "s1")
	root := env.Store.Root()
	is.True(strings.Contains(first, "## Memory upkeep"))
	is.True(strings.Contains(first, "/opt/bin/bimri-hook remember --dir "+root+" --replaces "+strings.Join(a.Consolidate, ",")+` -- "`))
	is.True(strings.Contains(first, "/opt/bin/bimri-hook remember --dir "+root+" --promote "+a.Promote+"\n"))
	p := f.FindPattern(a.Unnamed[0])
	is.True(strings.Contains(first, "/opt/bin/bimri-hook remember --dir "+root+" --tier 3 --tags "+p.Tags[0]+` -- "`))

	// The same session (a resume, a compaction) is not asked again; the
	// next unnamed pattern is.
	again := startText(t, env, "s1")
	is.True(!strings.Contains(again, "--replaces "+strings.Join(a.Consolidate, ",")))
	is.True(!strings.Contains(again, "--promote"))
	is.True(!strings.Contains(again, "--tags "+p.Tags[0]+` -- "The habit`))
	is.True(strings.Contains(again, "Pattern "+a.Unnamed[1]))

	// A new session is asked to consolidate again (the entries are still
	// there), but not about the patterns it was already asked about.
	next := startText(t, env, "s2")
	is.True(strings.Contains(next, "--replaces "+strings.Join(a.Consolidate, ",")))
	is.True(!strings.Contains(next, "Pattern "+a.Unnamed[0]))
	is.True(memfile.Length(next) <= 10000)
}

// TestSessionStartAsksToConsolidateDecisions: when Tier 1 and the
// decisions near their room in the view, SessionStart asks once a session
// to fold the oldest related decisions into one compact summary, with the
// exact command, though Tier 2 is far from its budget.
func TestSessionStartAsksToConsolidateDecisions(t *testing.T) {
	is := is.New(t)
	day := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	cfg := memfile.DefaultConfig()
	cfg.Budgets[1], cfg.TotalBudget = 20000, 30000 // the file has room: only the view is short of it
	f := memfile.New(cfg)
	for i := range 40 {
		if _, _, err := f.Add(memfile.NewEntry{Tier: 2, Importance: 5, Date: day.AddDate(0, 0, -100+i), Tags: []string{"money", fmt.Sprintf("m%d", i%3)},
			Text: fmt.Sprintf("Decision %d: every amount in module %d is kept in integer cents, never floats.", i, i)}); err != nil {
			t.Fatal(err)
		}
	}
	f, _ = memfile.Maintain(f, day, cfg, memfile.Options{})
	root := t.TempDir()
	is.NoErr(os.WriteFile(root+"/"+memfile.MemoryName, memfile.Render(f), 0o644))
	store, err := store.OpenStore(root, cfg, store.StoreOptions{LockTimeout: time.Second})
	is.NoErr(err)
	env := Env{Store: store, Config: cfg, Settings: DefaultSettings(), Today: day, Binary: "/opt/bin/bimri-hook"}

	a := memfile.Advise(f, day, cfg)
	is.True(a.Lasting*100 >= a.Room*90) // past 90% of its room
	is.Equal(len(a.Consolidate), 0)     // Tier 2 is far from its budget
	is.True(len(a.Decisions) >= 2)

	first := startText(t, env, "s1")
	is.True(strings.Contains(first, fmt.Sprintf("What lasts (Tier 1 and the importance-5 decisions) takes %d of the %d characters", a.Lasting, a.Room)))
	is.True(strings.Contains(first, "/opt/bin/bimri-hook remember --dir "+root+" --replaces "+strings.Join(a.Decisions, ",")+` -- "`))
	is.True(memfile.Length(first) <= cfg.ContextLimit)
	again := startText(t, env, "s1") // a resume: asked once a session
	is.True(!strings.Contains(again, "--replaces "+strings.Join(a.Decisions, ",")))
}

// TestJudgmentBriefIsBounded: however many Tier 1 entries and
// near-duplicates deep maintenance finds, the brief names a bounded number
// and says how many more, so it leaves the view its room and the upkeep
// advice after it stays in the context.
func TestJudgmentBriefIsBounded(t *testing.T) {
	is := is.New(t)
	deep := &memfile.DeepReport{}
	for i := range 20 {
		deep.ReviewTier1 = append(deep.ReviewTier1, fmt.Sprintf("%08x", i))
	}
	for i := range 8 {
		deep.NearDuplicates = append(deep.NearDuplicates, []string{fmt.Sprintf("a%07x", i), fmt.Sprintf("b%07x", i)})
	}
	store, err := store.OpenStore(t.TempDir(), memfile.DefaultConfig(), store.StoreOptions{})
	is.NoErr(err)
	env := Env{Store: store, Binary: "bimri-hook"}
	brief := judgmentBrief(env, 30, deep, "## Memory upkeep: your judgment, once, briefly\n- advice")
	is.True(strings.Contains(brief, "(00000000, 00000001, "))
	is.True(strings.Contains(brief, "0000000b and 8 more)")) // twelve named, oldest first
	is.True(!strings.Contains(brief, "0000000c"))
	is.Equal(strings.Count(brief, "say nearly the same thing"), 5)
	is.True(strings.Contains(brief, "- 3 more groups of near-duplicates are left for a later deep maintenance."))
	is.True(strings.HasSuffix(brief, "- advice"))
}

// The global memory is read for SessionStart's view and for a prompt
// that may recall (which works that view out again), and for nothing else.
func TestNeedsGlobal(t *testing.T) {
	is := is.New(t)
	env := Env{Settings: DefaultSettings()}
	is.True(NeedsGlobal(env, Input{Event: "SessionStart"}))
	is.True(NeedsGlobal(env, Input{Event: "UserPromptSubmit", Prompt: "How does the exporter handle rows now?"}))
	is.True(!NeedsGlobal(env, Input{Event: "UserPromptSubmit", Prompt: "ok"}))       // too short to recall
	is.True(!NeedsGlobal(env, Input{Event: "UserPromptSubmit", Prompt: "/compact"})) // a command
	is.True(!NeedsGlobal(env, Input{Event: "Stop"}))
	env.Settings.Recall.On = false
	is.True(!NeedsGlobal(env, Input{Event: "UserPromptSubmit", Prompt: "How does the exporter handle rows now?"}))
}
