package hooks

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/internal/slowtest"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
)

// replayed is one entry the replay recorded, to find again at the end.
type replayed struct {
	id         string
	tier       int
	importance int
	date       time.Time
	text       string
}

// replayImportance draws an importance the way a real memory is recorded:
// mostly 3 and 4, some 2, few 1 and 5.
func replayImportance(r *rand.Rand) int {
	switch n := r.IntN(100); {
	case n < 5:
		return 1
	case n < 20:
		return 2
	case n < 55:
		return 3
	case n < 97:
		return 4
	default:
		return 5
	}
}

var replayTags = []string{"testing", "auth", "api", "db", "ui", "deploy", "docs", "perf", "billing", "ci"}

// replaySessions lives days of sessions (one or two a day, about three
// entries each) through the real hook handlers on a real store: each
// session opens with SessionStart, records with the same Add the remember
// command uses, ends a turn with Stop and closes with SessionEnd. It
// returns what was recorded and the last day's SessionStart context.
func replaySessions(t *testing.T, root string, seed uint64, days int, start time.Time) ([]replayed, string, Env) {
	t.Helper()
	cfg := memfile.DefaultConfig()
	// A store per day: the day dates what it archives.
	open := func(day time.Time) *store.Store {
		store, err := store.OpenStore(root, cfg, store.StoreOptions{LockTimeout: 2 * time.Second, Today: day, NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		return store
	}
	env := Env{Config: cfg, Settings: DefaultSettings(), Binary: "/usr/local/bin/bimri-hook"}
	r := rand.New(rand.NewPCG(seed, 150))
	var recorded []replayed
	session := 0
	run := func(in Input) Output {
		t.Helper()
		out, err := Handle(env, in)
		if err != nil {
			t.Fatalf("%s on %s: %v", in.Event, env.Today.Format("2006-01-02"), err)
		}
		return out
	}
	tier1 := map[int]string{0: "This project is a CLI that generates invoice PDFs for small shops.",
		3: "The user wants a regression test with every bug fix.", 40: "Never touch the legacy billing schema by hand.", 90: "Releases go out on Tuesdays only."}
	for day := 0; day < days; day++ {
		env.Today = start.AddDate(0, 0, day)
		env.Store = open(env.Today)
		for range 1 + r.IntN(2) {
			session++
			id := fmt.Sprintf("replay-%04d", session)
			run(Input{Event: "SessionStart", SessionID: id, Source: "startup"})
			var adds []memfile.NewEntry
			if text, ok := tier1[day]; ok {
				adds = append(adds, memfile.NewEntry{Tier: 1, Importance: 5, Tags: []string{"core"}, Text: text})
				delete(tier1, day)
			}
			for i := range 2 + r.IntN(3) {
				imp := replayImportance(r)
				tags := []string{replayTags[r.IntN(len(replayTags))]}
				if r.IntN(3) == 0 {
					tags = append(tags, replayTags[r.IntN(len(replayTags))])
				}
				text := fmt.Sprintf("Session %d item %d: worked on %s, outcome recorded at importance %d.", session, i, strings.Join(tags, " and "), imp)
				if imp == 5 {
					text = fmt.Sprintf("Decision in session %d: all money amounts in %s are integer cents.", session, tags[0])
				}
				adds = append(adds, memfile.NewEntry{Tier: 2, Importance: imp, Tags: tags, Text: text})
			}
			_, err := env.Store.Update(func(tx *store.Tx) error {
				for _, n := range adds {
					n.Date = env.Today
					e, _, err := tx.File.Add(n)
					if err != nil {
						return err
					}
					recorded = append(recorded, replayed{e.ID, n.Tier, n.Importance, env.Today, e.Text})
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			run(Input{Event: "Stop", SessionID: id})
			run(Input{Event: "SessionEnd", SessionID: id, Reason: "exit"})
		}
	}
	// The next morning's session: what it is told is what must serve.
	env.Today = start.AddDate(0, 0, days-1)
	out := run(Input{Event: "SessionStart", SessionID: "replay-last", Source: "startup"})
	ctx, _ := out.JSON["hookSpecificOutput"].(map[string]any)["additionalContext"].(string)
	return recorded, ctx, env
}

// TestReplay150Days: after 150 days of sessions, the memory still serves
// the next session (issue #10).
func TestReplay150Days(t *testing.T) {
	slowtest.Gate(t) // 150 days of sessions
	root := t.TempDir()
	start := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	const days = 150
	recorded, view, env := replaySessions(t, root, 1, days, start)
	last := start.AddDate(0, 0, days-1)

	read, err := env.Store.Read()
	if err != nil {
		t.Fatal(err)
	}
	f := read.File
	archive, err := env.Store.ReadArchive()
	if err != nil {
		t.Fatal(err)
	}
	archived := map[string]string{}
	for _, rec := range archive {
		if rec.Entry != nil {
			archived[rec.Entry.ID] = rec.Reason
		}
	}

	var budgetGone, imp5, recent, tier2Full int
	for _, rec := range archive {
		if rec.Entry != nil && strings.Contains(rec.Reason, "budget") {
			budgetGone++
		}
	}
	for _, e := range recorded {
		inFile, _ := f.Find(e.id)
		inView := strings.Contains(view, "(id "+e.id+")")
		if inFile == nil && archived[e.id] == "" {
			t.Errorf("lost: %s %q is neither in %s nor in the archive", e.id, e.text, memfile.MemoryName)
		}
		age := memfile.DaysBetween(e.date, last)
		// Importance 1 weighs 1.0 on the day it is recorded, under the
		// protocol's threshold of 1.5: the same day's pass archives it, as
		// the protocol says. Every other recent entry must serve.
		mustServe := e.importance == 5 || (age <= 1 && e.importance >= 2)
		if !mustServe {
			continue
		}
		if e.importance == 5 {
			imp5++
		} else {
			recent++
		}
		if inFile == nil {
			t.Errorf("importance %d, %d days old: %s %q left %s (%s)", e.importance, age, e.id, e.text, memfile.MemoryName, archived[e.id])
		}
		if !inView {
			t.Errorf("importance %d, %d days old: %s %q is not in the SessionStart view", e.importance, age, e.id, e.text)
		}
	}
	est := memfile.Estimate(f)
	cfg := env.Config
	if est.Total > cfg.TotalBudget || est.Tiers[1] > cfg.Budgets[1] || est.Tiers[2] > cfg.Budgets[2] || est.Tiers[0] > cfg.Budgets[0] {
		t.Errorf("%s over its budget: tiers %v of %v, total %d of %d", memfile.MemoryName, est.Tiers, cfg.Budgets, est.Total, cfg.TotalBudget)
	}
	if testing.Verbose() {
		t.Log(view)
	}
	if n := memfile.Length(view); n > 10000 || n == 0 {
		t.Errorf("the SessionStart context is %d characters; the cap is 10,000", n)
	}
	if est.Tiers[1]*10 >= cfg.Budgets[1]*9 {
		tier2Full = 1
	}
	// The run must reach what it speaks of: Tier 2 full and evicting for
	// budget, several decisions at importance 5, and recent work.
	if budgetGone == 0 || tier2Full == 0 || imp5 < 5 || recent < 4 {
		t.Fatalf("the replay did not reach a full memory: %d evicted for budget, Tier 2 ~%d of %d tokens, %d importance-5, %d recent entries",
			budgetGone, est.Tiers[1], cfg.Budgets[1], imp5, recent)
	}
	t.Logf("%d entries recorded, %d evicted for budget, Tier 2 ~%d/%d tokens, total ~%d/%d; %d importance-5 and %d recent entries all served; context %d characters",
		len(recorded), budgetGone, est.Tiers[1], cfg.Budgets[1], est.Total, cfg.TotalBudget, imp5, recent, memfile.Length(view))
	if data, err := os.ReadFile(filepath.Join(root, memfile.MemoryName)); err != nil || len(data) == 0 {
		t.Fatalf("no %s on disk: %v", memfile.MemoryName, err)
	}
}
