package hooks

import (
	"github.com/bimri/bimri-hook/internal/approve"
	"os"
	"strings"
	"testing"

	"github.com/bimri/bimri-hook/internal/recall"
	"github.com/bimri/bimri-hook/internal/record"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/wiring"
)

// promptContext is what UserPromptSubmit adds for prompt in session.
func promptContext(t *testing.T, env Env, session, prompt string) string {
	t.Helper()
	out, err := Handle(env, Input{Event: "UserPromptSubmit", SessionID: session, Prompt: prompt})
	if err != nil {
		t.Fatal(err)
	}
	got := ""
	if h, ok := out.JSON["hookSpecificOutput"].(map[string]any); ok {
		got, _ = h["additionalContext"].(string)
	}
	return got
}

// viewLineOf is the line of view that shows the entry id, "" for none.
func viewLineOf(view, id string) string {
	for _, l := range strings.Split(view, "\n") {
		if strings.Contains(l, "(id "+id+")") {
			return l
		}
	}
	return ""
}

// TestSupersession: a decision reversed, and a Tier 1 deadline moved.
// Until the agent answers, the view marks each older entry as possibly
// superseded by the newer one; once it records the newer one with
// --supersedes, the older ones leave for the archive, Tier 1 included,
// as superseded by it, and recall never brings one back without saying
// so and what holds now.
func TestSupersession(t *testing.T) {
	cfg := memfile.DefaultConfig()
	f := memfile.New(cfg)
	add := func(tier, ago int, tags []string, text string) *memfile.Entry {
		e, _, err := f.Add(memfile.NewEntry{Tier: tier, Importance: 5, Date: truthDay.AddDate(0, 0, -ago), Tags: tags, Text: text})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	redis := add(2, 70, []string{"sessions", "decision"}, "Chose Redis for sessions and rate limits.")
	deadline := add(1, 90, []string{"deadline"}, "The launch deadline is March 3.")
	// A decision about another aspect of the same subject still holds.
	other := add(2, 40, []string{"sessions", "decision"}, "Session cookies are HttpOnly and SameSite=Lax.")
	f, _ = memfile.Maintain(f, truthDay, cfg, memfile.Options{})
	env := truthWorkspace(t, f, cfg)
	// Today the agent records what holds now, without --supersedes.
	newer := func(tags, text string) *memfile.Entry {
		d, err := record.Remember(env.Store, truthDay, cfg, record.Request{Text: text, Importance: 5, Tags: tags}, record.CLINames)
		if err != nil {
			t.Fatal(err)
		}
		return d.Entry
	}
	postgres := newer("sessions,decision", "Removed Redis: sessions now live in a Postgres table.")
	moved := newer("deadline", "The launch deadline moved to April 10.")

	view := memoryPart(startText(t, env, "before"))
	for old, newer := range map[*memfile.Entry]*memfile.Entry{redis: postgres, deadline: moved} {
		if l := viewLineOf(view, old.ID); !strings.Contains(l, "(possibly superseded by "+newer.ID+")") {
			t.Errorf("the older entry is not marked as possibly superseded by %s: %q", newer.ID, l)
		}
	}
	for _, e := range []*memfile.Entry{postgres, moved, other} {
		if l := viewLineOf(view, e.ID); l == "" || strings.Contains(l, "possibly superseded") {
			t.Errorf("entry %s: want it shown unmarked, got %q", e.ID, l)
		}
	}
	if t.Failed() {
		t.Log(view)
	}

	// The agent answers: the same entries again, with --supersedes, as
	// remember's question tells it.
	for old, newer := range map[*memfile.Entry]*memfile.Entry{redis: postgres, deadline: moved} {
		if _, err := record.Remember(env.Store, truthDay, cfg, record.Request{Text: newer.Text, Supersedes: []string{old.ID}}, record.CLINames); err != nil {
			t.Fatal(err)
		}
	}
	read, err := env.Store.Read()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []*memfile.Entry{redis, deadline} {
		if got, _ := read.File.Find(e.ID); got != nil {
			t.Errorf("superseded entry %s is still in bimri.md", e.ID)
		}
	}
	recs, err := env.Store.ReadArchive()
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[string]string{}
	for _, r := range recs {
		if r.Entry != nil {
			reasons[r.Entry.ID] = r.Reason
		}
	}
	for old, newer := range map[*memfile.Entry]*memfile.Entry{redis: postgres, deadline: moved} {
		if got, want := reasons[old.ID], memfile.SupersededPrefix+newer.ID; got != want {
			t.Errorf("archive reason of %s = %q, want %q", old.ID, got, want)
		}
	}
	if e, tier := read.File.Find(moved.ID); e == nil || tier != 1 {
		t.Errorf("the new deadline: %v in Tier %d, want it in Tier 1, where the one it replaced was", e, tier)
	}

	view = memoryPart(startText(t, env, "after"))
	if strings.Contains(view, "possibly superseded") || strings.Contains(view, redis.Text) || strings.Contains(view, deadline.Text) {
		t.Errorf("the view still shows what was superseded:\n%s", view)
	}
	for _, c := range []struct{ prompt, old, now string }{
		{"Chose Redis for sessions and rate limits", redis.ID, postgres.Text},
		{"What was the launch deadline again, March?", deadline.ID, moved.Text},
	} {
		got := promptContext(t, env, "after-"+c.old, c.prompt)
		found := false
		for _, l := range strings.Split(got, "\n") {
			if !strings.Contains(l, "(id "+c.old+";") {
				continue
			}
			found = true
			if !strings.Contains(l, "superseded by ") || !strings.Contains(l, "what holds now: ") || !strings.Contains(l, c.now) {
				t.Errorf("recall returns superseded %s without what holds now: %q", c.old, l)
			}
		}
		if !found {
			t.Errorf("%q: the superseded entry %s, in its own words, is not recalled:\n%s", c.prompt, c.old, got)
		}
	}
}

// TestRememberAsksAboutLikelyPredecessors: a new decision that looks like
// it overrides an older one is recorded, and the agent asked once with
// the exact command; an unrelated one, or the same one again, asks
// nothing.
func TestRememberAsksAboutLikelyPredecessors(t *testing.T) {
	env, old := redisDecision(t)
	cfg := env.Config
	names := record.Names{Remember: wiring.Command{Binary: env.Binary}.Remember() + " --dir " + wiring.ShellWord(env.Store.Root())}
	remember := func(text string, tags string) string {
		d, err := record.Remember(env.Store, truthDay, cfg, record.Request{Text: text, Importance: 5, Tags: tags}, names)
		if err != nil {
			t.Fatal(err)
		}
		return d.Text()
	}
	text := "Removed Redis: sessions now live in a Postgres table."
	got := remember(text, "sessions,decision")
	want := "/usr/local/bin/bimri-hook remember --dir " + env.Store.Root() + " --supersedes " + old.ID + " -- '" + text + "'"
	if !strings.Contains(got, "may supersede") || !strings.Contains(got, want) {
		t.Errorf("remember did not ask with the exact command %q:\n%s", want, got)
	}
	// The plugin's approval lets that command run without asking.
	if out := PreToolUse(approve.Session{Binary: env.Binary, Workspace: env.Store.Root()}, Input{Event: "PreToolUse", ToolName: "Bash", Command: want}); decision(out) != "allow" {
		t.Errorf("the command remember asks for is not approved: %s", want)
	}
	if got := remember(text, "sessions,decision"); strings.Contains(got, "may supersede") {
		t.Errorf("asked twice:\n%s", got)
	}
	if got := remember("Chose protobuf over gRPC for the mobile sync API.", "sync,decision"); strings.Contains(got, "may supersede") {
		t.Errorf("asked about an unrelated decision:\n%s", got)
	}
}

// TestRecallMarksPossiblySuperseded: an entry of the file that a newer
// one looks like it supersedes, which the agent has not answered, is
// marked in recall as the view marks it, with the newer entry; the newer
// entry and an unrelated one are not.
func TestRecallMarksPossiblySuperseded(t *testing.T) {
	cfg := memfile.DefaultConfig()
	f := memfile.New(cfg)
	add := func(ago int, tags []string, text string) *memfile.Entry {
		e, _, err := f.Add(memfile.NewEntry{Tier: 2, Importance: 5, Date: truthDay.AddDate(0, 0, -ago), Tags: tags, Text: text})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	redis := add(70, []string{"sessions", "decision"}, "Chose Redis for sessions and rate limits.")
	postgres := add(0, []string{"sessions", "decision"}, "Removed Redis: sessions and rate limits now live in Postgres.")
	other := add(40, []string{"billing", "decision"}, "Invoices are rendered as PDFs on the server.")
	// An older entry the budget archived, before the agent answered.
	archived := recall.Item{ID: "0a1b2c3d", Importance: 4, Date: truthDay.AddDate(0, 0, -90), Tags: []string{"sessions"},
		Text: "Sessions and rate limits are kept in Redis.", ArchivedOn: truthDay.AddDate(0, 0, -3), Reason: "Tier 2 over its budget of 3000 tokens"}
	hits := []recall.Hit{{Item: recall.FromEntry(redis)}, {Item: archived}, {Item: recall.FromEntry(postgres)}, {Item: recall.FromEntry(other)}}
	describeHits(f, hits)
	for _, h := range hits[:2] {
		line := recalledLine(h.Item, recall.Strength{Sessions: 5, Prompts: 5}, false)
		if !strings.Contains(line, "possibly superseded by a newer entry, which may hold now: ") || !strings.Contains(line, postgres.Text) || !strings.Contains(line, "id "+postgres.ID) {
			t.Errorf("the older entry's recall line does not name what may hold now:\n%s", line)
		}
		if strings.Contains(line, "worth reviving") {
			t.Errorf("a possibly superseded entry is called worth reviving:\n%s", line)
		}
	}
	for _, h := range hits[2:] {
		if l := recalledLine(h.Item, recall.Strength{}, false); strings.Contains(l, "superseded") {
			t.Errorf("entry %s is marked:\n%s", h.Item.ID, l)
		}
	}
}

// redisDecision is a workspace with one lasting decision, recorded a
// month before truthDay.
func redisDecision(t *testing.T) (Env, *memfile.Entry) {
	t.Helper()
	cfg := memfile.DefaultConfig()
	f := memfile.New(cfg)
	old, _, err := f.Add(memfile.NewEntry{Tier: 2, Importance: 5, Date: truthDay.AddDate(0, 0, -30), Tags: []string{"sessions", "decision"}, Text: "Chose Redis for sessions and rate limits."})
	if err != nil {
		t.Fatal(err)
	}
	return truthWorkspace(t, f, cfg), old
}

// TestBothHoldAnswer: the question remember asks offers the answer
// "both still hold" as an exact command the plugin approves; once it is
// run, the view no longer marks the older entry, and remember does not
// ask about the pair again. An unknown ID is refused and changes nothing.
func TestBothHoldAnswer(t *testing.T) {
	env, old := redisDecision(t)
	cfg := env.Config
	prefix := wiring.Command{Binary: env.Binary}.Remember() + " --dir " + wiring.ShellWord(env.Store.Root())
	names := record.Names{Remember: prefix}
	text := "Kept Redis for rate limits; sessions now live in a Postgres table."
	d, err := record.Remember(env.Store, truthDay, cfg, record.Request{Text: text, Importance: 5, Tags: "sessions,decision"}, names)
	if err != nil {
		t.Fatal(err)
	}
	asked := d.Text()
	hold := prefix + " --both-hold " + d.Entry.ID + "," + old.ID
	if !strings.Contains(asked, "If both still hold, run: "+hold+"\n") || !strings.Contains(asked, "If it replaces that entry, run: ") {
		t.Fatalf("remember does not offer both answers (want %q):\n%s", hold, asked)
	}
	if out := PreToolUse(approve.Session{Binary: env.Binary, Workspace: env.Store.Root()}, Input{Event: "PreToolUse", ToolName: "Bash", Command: hold}); decision(out) != "allow" {
		t.Errorf("the answer remember offers is not approved: %s", hold)
	}
	mark := "(possibly superseded by " + d.Entry.ID + ")"
	view := memoryPart(startText(t, env, "s1"))
	if l := viewLineOf(view, old.ID); !strings.Contains(l, mark) {
		t.Fatalf("not marked before the answer: %q", l)
	}

	// An unknown ID: refused, naming it, and nothing changes.
	before, err := os.ReadFile(env.Store.Path(memfile.MemoryName))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := record.Remember(env.Store, truthDay, cfg, record.Request{BothHold: []string{d.Entry.ID + ",deadbeef"}}, names); err == nil || !strings.Contains(err.Error(), "no entry deadbeef") {
		t.Errorf("an unknown ID: %v", err)
	}
	if after, _ := os.ReadFile(env.Store.Path(memfile.MemoryName)); string(after) != string(before) {
		t.Errorf("a refused answer changed bimri.md")
	}

	done, err := record.Remember(env.Store, truthDay, cfg, record.Request{BothHold: []string{d.Entry.ID + "," + old.ID}}, names)
	if err != nil {
		t.Fatal(err)
	}
	if got := done.Text(); !strings.Contains(got, d.Entry.ID+" and "+old.ID+" both still hold") {
		t.Errorf("the answer's report: %s", got)
	}
	view = memoryPart(startText(t, env, "s2"))
	if l := viewLineOf(view, old.ID); l == "" || strings.Contains(l, "possibly superseded") {
		t.Errorf("still marked after the answer (or gone): %q", l)
	}
	again, err := record.Remember(env.Store, truthDay, cfg, record.Request{Text: text, Importance: 5, Tags: "sessions,decision"}, names)
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Predecessors) != 0 {
		t.Errorf("asked again about a pair answered as both holding: %v", again.Predecessors)
	}
}

// In MCP mode the question says "call" before each tool call, never
// "run:".
func TestSupersedeQuestionCallsTools(t *testing.T) {
	env, _ := redisDecision(t)
	cfg := env.Config
	d, err := record.Remember(env.Store, truthDay, cfg, record.Request{Text: "Removed Redis: sessions now live in a Postgres table.", Importance: 5, Tags: "sessions,decision"}, record.MCPNames)
	if err != nil {
		t.Fatal(err)
	}
	got := d.Text()
	if strings.Contains(got, "run:") || !strings.Contains(got, "If it replaces that entry, call: `remember` with {\"supersedes\"") || !strings.Contains(got, "If both still hold, call: `remember` with {\"both_hold\"") {
		t.Errorf("the question in MCP mode:\n%s", got)
	}
}

// TestRememberAsksAboutAReversalOfAKind: a decision that puts one thing
// of a kind in another's place ("GitLab CI" for "GitHub Actions") is
// asked about, though the two share few words; unrelated decisions on
// one tag are not.
func TestRememberAsksAboutAReversalOfAKind(t *testing.T) {
	cfg := memfile.DefaultConfig()
	env := truthWorkspace(t, memfile.New(cfg), cfg)
	names := record.Names{Remember: wiring.Command{Binary: env.Binary}.Remember() + " --dir " + wiring.ShellWord(env.Store.Root())}
	remember := func(text, tags string) (string, record.Done) {
		d, err := record.Remember(env.Store, truthDay, cfg, record.Request{Text: text, Importance: 4, Tags: tags}, names)
		if err != nil {
			t.Fatal(err)
		}
		return d.Text(), d
	}
	_, old := remember("Chose GitHub Actions for CI.", "ci,decision")
	if got, _ := remember("Chose GitLab CI for CI after the migration.", "ci,decision"); !strings.Contains(got, "may supersede") || !strings.Contains(got, "--supersedes "+old.Entry.ID) {
		t.Errorf("remember did not ask about %s:\n%s", old.Entry.ID, got)
	}
	remember("Chose Tailwind for the web styling.", "web,decision")
	if got, _ := remember("Chose Stripe for card payments on the web checkout.", "web,decision"); strings.Contains(got, "may supersede") {
		t.Errorf("asked about an unrelated decision:\n%s", got)
	}
	remember("Chose Jenkins for CI.", "ops,decision")
	if got, _ := remember("The deploy pipeline runs migrations before the web pods roll.", "ops,decision"); strings.Contains(got, "may supersede") {
		t.Errorf("asked about an unrelated decision:\n%s", got)
	}
}
