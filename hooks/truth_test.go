package hooks

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/internal/slowtest"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
)

// truthDay is the day the tests of what the session is told happen on.
var truthDay = time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)

// truthWorkspace writes f as a workspace's bimri.md and opens its store.
func truthWorkspace(t *testing.T, f *memfile.File, cfg memfile.Config) Env {
	t.Helper()
	root := t.TempDir()
	if err := os.WriteFile(root+"/"+memfile.MemoryName, memfile.Render(f), 0o644); err != nil {
		t.Fatal(err)
	}
	store, err := store.OpenStore(root, cfg, store.StoreOptions{LockTimeout: time.Second, Today: truthDay, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	return Env{Store: store, Config: cfg, Settings: DefaultSettings(), Today: truthDay, Binary: "/usr/local/bin/bimri-hook"}
}

// memoryPart is the view of a SessionStart context, without the
// instructions after it.
func memoryPart(ctx string) string {
	view, _, _ := strings.Cut(ctx, "\n\n## How to use this memory")
	return view
}

// lastingFile is a project's lasting memory: six Tier 1 facts and four
// importance-5 decisions, recorded months before truthDay.
func lastingFile(t *testing.T, cfg memfile.Config) (*memfile.File, []string) {
	t.Helper()
	f := memfile.New(cfg)
	var ids []string
	add := func(tier int, ago int, tag, text string) {
		e, _, err := f.Add(memfile.NewEntry{Tier: tier, Importance: 5, Date: truthDay.AddDate(0, 0, -ago), Tags: []string{tag}, Text: text})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, e.ID)
	}
	add(1, 200, "purpose", "This project is a booking system for physiotherapy clinics.")
	add(1, 200, "stack", "The backend is Go 1.26 with PostgreSQL 16; the web client is TypeScript.")
	add(1, 190, "users", "The users are clinic receptionists, who work on shared desktop PCs.")
	add(1, 180, "constraint", "Patient data never leaves the EU region.")
	add(1, 150, "workflow", "The user wants small pull requests with tests, reviewed before merge.")
	add(1, 120, "release", "Releases go out on Tuesdays, never on a Friday.")
	add(2, 90, "sessions", "Sessions live in a Postgres table, not in Redis.")
	add(2, 80, "api", "Every API error is an RFC 7807 problem document.")
	add(2, 60, "money", "All money amounts are integer cents.")
	add(2, 40, "search", "Patient search uses trigram indexes, not a search engine.")
	return f, ids
}

// TestBusyDayKeepsWhatLasts: a day of many entries does not push the
// lasting facts and decisions out of the next SessionStart: the latest
// work has a cap.
func TestBusyDayKeepsWhatLasts(t *testing.T) {
	for _, day := range []struct {
		name    string
		entries int
		size    int // characters of each entry's text
	}{
		{"40 long entries", 40, 550},
		{"300 short entries", 300, 60},
	} {
		t.Run(day.name, func(t *testing.T) {
			cfg := memfile.DefaultConfig()
			f, lasting := lastingFile(t, cfg)
			r := rand.New(rand.NewPCG(uint64(day.entries), 7))
			for i := range day.entries {
				text := fmt.Sprintf("Busy day item %d: ", i)
				for len(text) < day.size {
					text += truthWord(r) + " "
				}
				if _, _, err := f.Add(memfile.NewEntry{Tier: 2, Importance: 3, Date: truthDay, Tags: []string{"busy"}, Text: strings.TrimSpace(text)}); err != nil {
					t.Fatal(err)
				}
			}
			env := truthWorkspace(t, f, cfg)
			view := memoryPart(startText(t, env, "after-the-busy-day"))
			for _, id := range lasting {
				if !strings.Contains(view, "(id "+id+")") {
					t.Errorf("after a day of %d entries, lasting entry %s is not in the view", day.entries, id)
				}
			}
			if !strings.Contains(view, "Busy day item") {
				t.Errorf("the day's work is not in the view at all")
			}
			if t.Failed() || testing.Verbose() {
				t.Log(view)
			}
		})
	}
}

// truthWord is a made-up word: texts built of them share no word with
// each other by chance, so each is found by its own words.
func truthWord(r *rand.Rand) string {
	const cons, vow = "bcdfghjklmnprstvz", "aeiou"
	var b strings.Builder
	for range 3 + r.IntN(2) {
		b.WriteByte(cons[r.IntN(len(cons))])
		b.WriteByte(vow[r.IntN(len(vow))])
	}
	return b.String()
}

// TestNothingFallsBetweenViewAndRecall: every entry in the file is either
// in the SessionStart view or recalled by a prompt of its own text: also
// when SessionStart gave the view less room for its upkeep request or
// the deep maintenance brief, when Tier 1 outgrows its share, on a busy
// day, and whatever the session was told before.
func TestNothingFallsBetweenViewAndRecall(t *testing.T) {
	slowtest.Gate(t) // hundreds of random workspaces, each viewed and searched
	r := rand.New(rand.NewPCG(25, 2))
	words := func(n int) string {
		var w []string
		for range n {
			w = append(w, truthWord(r))
		}
		return strings.Join(w, " ") + "."
	}
	for _, c := range []struct {
		name                string
		tier1, tier2, today int
		deep, advised       bool
	}{
		{name: "upkeep asked", tier2: 160, advised: true},
		{name: "deep maintenance", tier2: 160, deep: true},
		{name: "a large Tier 1", tier1: 70, tier2: 40},
		{name: "a busy day", tier1: 6, tier2: 30, today: 120},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := memfile.DefaultConfig()
			f := memfile.New(cfg)
			add := func(tier, imp, ago int) {
				tags := []string{[]string{"ui", "api", "db"}[r.IntN(3)]}
				if _, _, err := f.Add(memfile.NewEntry{Tier: tier, Importance: imp, Date: truthDay.AddDate(0, 0, -ago), Tags: tags, Text: words(6 + r.IntN(20))}); err != nil {
					t.Fatal(err)
				}
			}
			for range c.tier1 {
				add(1, 4+r.IntN(2), 30+r.IntN(200))
			}
			for i := range c.tier2 {
				add(2, []int{2, 3, 3, 4, 5}[i%5], i%9)
			}
			for range c.today {
				add(2, 3, 0)
			}
			f, _ = memfile.Maintain(f, truthDay, cfg, memfile.Options{})
			if c.deep {
				f.Header.Sessions = cfg.DeepEvery * 3
			}
			if c.advised {
				// Tier 2 just under its budget: SessionStart asks to
				// consolidate.
				cfg.Budgets[1] = memfile.Estimate(f).Tiers[1] + 10
			}
			cfg.Budgets[0], cfg.TotalBudget = 100000, 100000
			env := truthWorkspace(t, f, cfg)
			read, err := env.Store.Read()
			if err != nil {
				t.Fatal(err)
			}
			entries := append(read.File.Entries(1), read.File.Entries(2)...)
			missing, told := 0, false
			for i, e := range entries {
				session := fmt.Sprintf("s-%03d", i)
				ctx := startText(t, env, session)
				told = told || strings.Contains(ctx, "## Memory upkeep") || strings.Contains(ctx, "## Deep maintenance")
				if memfile.Length(ctx) > cfg.ContextLimit {
					t.Fatalf("the SessionStart context is %d characters, over %d", memfile.Length(ctx), cfg.ContextLimit)
				}
				if wholeIn(memoryPart(ctx), e) {
					continue
				}
				out, err := Handle(env, Input{Event: "UserPromptSubmit", SessionID: session, Prompt: e.Text})
				if err != nil {
					t.Fatal(err)
				}
				got := ""
				if h, ok := out.JSON["hookSpecificOutput"].(map[string]any); ok {
					got, _ = h["additionalContext"].(string)
				}
				if !strings.Contains(got, "(id "+e.ID+";") {
					missing++
					t.Errorf("entry %s is neither whole in the view nor recalled by its own text", e.ID)
				}
			}
			if (c.advised || c.deep) && !told {
				t.Fatal("SessionStart never asked for upkeep: the test does not reach the case it is about")
			}
			if missing > 0 {
				t.Logf("%d of %d entries fell between the view and recall", missing, len(entries))
			}
		})
	}
}

// A prompt of a session whose SessionStart left no record (one begun
// before bimri-hook was installed) recalls every entry a new session's
// view would not show whole: recall works out the room the view always
// has, never more.
func TestRecallWithoutARecordOfTheView(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 3))
	cfg := memfile.DefaultConfig()
	f := memfile.New(cfg)
	for i := range 120 {
		text := strings.Join([]string{truthWord(r), truthWord(r), truthWord(r), truthWord(r), truthWord(r), truthWord(r)}, " ") + "."
		if _, _, err := f.Add(memfile.NewEntry{Tier: 2, Importance: []int{2, 3, 4}[i%3], Date: truthDay.AddDate(0, 0, -i%9), Tags: []string{"api"}, Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	f, _ = memfile.Maintain(f, truthDay, cfg, memfile.Options{})
	env := truthWorkspace(t, f, cfg)
	view, left := memoryPart(startText(t, env, "started")), 0
	for i, e := range f.Entries(2) {
		if wholeIn(view, e) {
			continue
		}
		left++
		if got := promptContext(t, env, fmt.Sprintf("unrecorded-%d", i), e.Text); !strings.Contains(got, "(id "+e.ID+";") {
			t.Errorf("entry %s is not whole in a new session's view, and not recalled", e.ID)
		}
	}
	if left == 0 {
		t.Fatal("the view showed every entry: the test does not reach the case it is about")
	}
}

// wholeIn says whether the view shows e's whole text with its ID.
func wholeIn(view string, e *memfile.Entry) bool {
	for _, l := range strings.Split(view, "\n") {
		if strings.HasSuffix(l, ": "+e.Text+" (id "+e.ID+")") {
			return true
		}
	}
	return false
}

// fitLines keeps whole lines, and never a request without its command.
func TestFitLinesKeepsRequestsWhole(t *testing.T) {
	s := "## Memory upkeep\n- Consolidate these.\n  bimri-hook remember --replaces a,b -- \"x\"\n- Name this pattern.\n  bimri-hook remember --tier 3 -- \"y\""
	for limit := 0; limit <= memfile.Length(s)+1; limit++ {
		got := fitLines(s, limit)
		if memfile.Length(got) > limit {
			t.Fatalf("limit %d: %d characters", limit, memfile.Length(got))
		}
		if !strings.HasPrefix(s, got) {
			t.Fatalf("limit %d: %q is not a start of the text", limit, got)
		}
		if lines := strings.Split(got, "\n"); strings.HasPrefix(lines[len(lines)-1], "- ") {
			t.Fatalf("limit %d: a request without its command: %q", limit, got)
		}
	}
}
