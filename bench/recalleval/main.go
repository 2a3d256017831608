//go:build bench

// Command recalleval is `make eval`: it lives months of a workspace
// through the real code, then asks questions, each in a fresh session
// through the hooks package, and reports what the context held.
//
//	go run -tags bench ./bench/recalleval -seed 1
//
// Two scenarios (docs/recall.md, "How well it works"):
//
//   - Clinicflow (clinicflow.go, story.go, figures.go): nine months of a
//     project, every entry recorded through internal/record and every
//     session closed by the real session-end pass, lived by an agent that
//     only records, by one that answers the supersession question, and by
//     one that answers it but writes no keywords; then questions in the
//     entries' own words, in other words written blind
//     (testdata/other-words.tsv), about last week, and with no answer,
//     with and without the lexicon, and beside them a plain BM25
//     (bench/bm25) over the same entries at recall's number of items.
//
//   - Topics (this file): topics recur for months, now and then a
//     decision about one aspect of a topic; probes ask what was decided,
//     in words that share the topic and aspect with the answer but not the
//     choice itself, against the view, the view with recall, and a
//     baseline of the k most recent entries.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/hooks"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "recalleval:", err)
		os.Exit(1)
	}
}

type topic struct{ name, slug string }

var topics = []topic{
	{"payment gateway", "payments"}, {"search indexer", "search"}, {"upload service", "uploads"},
	{"billing webhook", "billing"}, {"session store", "sessions"}, {"email sender", "email"},
	{"report exporter", "reports"}, {"admin dashboard", "admin"}, {"mobile sync", "sync"},
	{"audit logger", "audit"}, {"feature flags", "flags"}, {"image resizer", "images"},
	{"rate limiter", "ratelimit"}, {"job scheduler", "jobs"}, {"invoice renderer", "invoices"},
	{"onboarding wizard", "onboarding"}, {"metrics pipeline", "metrics"}, {"tenant router", "tenants"},
	{"backup agent", "backups"}, {"notification hub", "notifications"},
}

var aspects = []string{"retry policy", "storage backend", "timeout budget", "auth scheme", "deploy strategy", "caching layer", "error format", "queue choice"}

var choices = []string{"exponential backoff with jitter", "PostgreSQL with row locks", "Redis with a 15 minute TTL", "signed JWTs rotated daily",
	"blue-green deploys behind the load balancer", "SQS with a dead-letter queue", "RFC 7807 problem documents", "a 2 second hard deadline",
	"SQLite in WAL mode", "mutual TLS between services", "canary releases at 5 percent", "an LRU cache of 10,000 keys", "Kafka with 12 partitions",
	"S3 with lifecycle rules", "protobuf over gRPC", "NATS JetStream"}

var reasons = []string{"the team knows it well", "it halves the p95 latency", "the vendor SLA requires it", "it keeps the migration reversible",
	"it was the cheapest option that passed load tests", "security review asked for it"}

var routine = []string{"Fixed a flaky test in the %s %s", "Refactored the %s %s for readability", "Added logging around the %s %s",
	"Reviewed a pull request touching the %s %s", "Benchmarked the %s %s under load", "Documented how the %s %s behaves on errors",
	"Paired on a bug in the %s %s", "Cleaned up dead code in the %s %s"}

type decision struct {
	id     string
	topic  topic
	aspect string
	day    time.Time
}

func run() error {
	seed := flag.Uint64("seed", 1, "random seed")
	days := flag.Int("days", 240, "days of sessions to live (topics)")
	perDay := flag.Int("per-day", 6, "routine entries per day (topics)")
	k := flag.Int("k", 5, "items the baseline adds, and the most recall may add (topics)")
	showView := flag.Bool("view", false, "print the view at the end of the Clinicflow scenario")
	scenario := flag.String("scenario", "all", "clinicflow, topics or all")
	flag.Parse()
	switch *scenario {
	case "all", "clinicflow", "topics":
	default:
		return fmt.Errorf("-scenario %q: want clinicflow, topics or all", *scenario)
	}
	if *scenario != "topics" {
		if err := runClinicflow(os.Stdout, *seed, *showView); err != nil {
			return err
		}
	}
	if *scenario != "clinicflow" {
		fmt.Println("## Topics: decisions about recurring topics, asked in the topics' words")
		fmt.Println()
		return runTopics(*seed, *days, *perDay, *k)
	}
	return nil
}

func runTopics(seed uint64, days, perDay, k int) error {
	rng := rand.New(rand.NewPCG(seed, 11))

	dir, err := evalDir()
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	cfg := memfile.DefaultConfig()
	// A store per simulated day: the day dates what it archives.
	open := func(day time.Time) (*store.Store, error) {
		return store.OpenStore(dir, cfg, store.StoreOptions{LockTimeout: 2 * time.Second, Today: day, NoSync: true})
	}
	first := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	today := first.AddDate(0, 0, days)

	var decisions []decision
	decided := map[string]bool{}
	for d := range days {
		day := first.AddDate(0, 0, d)
		st, err := open(day)
		if err != nil {
			return err
		}
		_, err = st.Update(func(tx *store.Tx) error {
			for range perDay {
				t := topics[rng.IntN(len(topics))]
				text := fmt.Sprintf(routine[rng.IntN(len(routine))], t.name, aspects[rng.IntN(len(aspects))]) + fmt.Sprintf(", ticket %d.", rng.IntN(90000)+1000)
				if _, _, err := tx.File.Add(memfile.NewEntry{Tier: 2, Importance: 1 + rng.IntN(3), Date: day, Tags: []string{t.slug}, Text: text}); err != nil {
					return err
				}
			}
			// A decision on about every other day, each topic and aspect once.
			if rng.IntN(2) == 0 {
				t, a := topics[rng.IntN(len(topics))], aspects[rng.IntN(len(aspects))]
				if !decided[t.slug+a] {
					decided[t.slug+a] = true
					text := fmt.Sprintf("Decided the %s %s: %s, because %s.", t.name, a, choices[rng.IntN(len(choices))], reasons[rng.IntN(len(reasons))])
					e, _, err := tx.File.Add(memfile.NewEntry{Tier: 2, Importance: 3 + rng.IntN(2), Date: day, Tags: []string{t.slug, "decision"}, Text: text})
					if err != nil {
						return err
					}
					decisions = append(decisions, decision{id: e.ID, topic: t, aspect: a, day: day})
				}
			}
			tx.Maintain(day, cfg, memfile.Options{CountSession: true})
			return nil
		})
		if err != nil {
			return err
		}
	}
	st, err := open(today)
	if err != nil {
		return err
	}

	env := hooks.Env{Store: st, Config: cfg, Settings: hooks.DefaultSettings(), Today: today, Binary: "bimri-hook"}
	env.Settings.Recall.Items = k
	out, err := hooks.SessionStart(env, hooks.Input{Event: "SessionStart", SessionID: "eval-start", Source: "startup", Cwd: dir})
	if err != nil {
		return err
	}
	view := strings.ReplaceAll(contextOf(out), dir, workspaceStandIn)
	inView := idsIn(view)

	// The baseline's k newest entries, file and archive together.
	read, err := st.Read()
	if err != nil {
		return err
	}
	f := read.File
	type dated struct {
		id   string
		date time.Time
		line string
	}
	var all []dated
	for t := 1; t <= 2; t++ {
		for _, e := range f.Entries(t) {
			all = append(all, dated{e.ID, e.Date, e.Text})
		}
	}
	recs, err := st.ReadArchive()
	if err != nil {
		return err
	}
	archived := 0
	for _, r := range recs {
		if r.Entry != nil {
			all = append(all, dated{r.Entry.ID, r.Entry.Date, r.Entry.Text})
			archived++
		}
	}
	slices.SortStableFunc(all, func(a, b dated) int { return b.date.Compare(a.date) })
	recent := map[string]bool{}
	recentChars := 0
	for _, d := range all[:min(k, len(all))] {
		recent[d.id] = true
		recentChars += len(d.line) + 30 // the text and a line's worth of ID and date
	}

	type probe struct {
		prompt string
		answer string // "" for a prompt with no answer in memory
	}
	var probes []probe
	for _, d := range decisions {
		probes = append(probes, probe{fmt.Sprintf("What did we decide about the %s %s?", d.topic.name, d.aspect), d.id})
	}
	for _, p := range []string{"Let's continue with the refactor we started", "Can you write a haiku about autumn leaves?",
		"Please explain what a monad is in simple terms", "Rename the variable x to count everywhere", "How many lines does this repository have?",
		"Summarise the last commit message for me", "Translate the README into French please", "What is the capital city of Australia?"} {
		probes = append(probes, probe{p, ""})
	}

	type score struct {
		found, injected, relevant, chars int
	}
	var sView, sRecall, sRecent score
	var times []time.Duration
	archivedAnswers, noiseRecalls := 0, 0
	archivedIDs := map[string]bool{}
	for _, r := range recs {
		if r.Entry != nil {
			archivedIDs[r.Entry.ID] = true
		}
	}
	withAnswer := 0
	for i, p := range probes {
		start := time.Now()
		out, err := hooks.UserPromptSubmit(env, hooks.Input{Event: "UserPromptSubmit", SessionID: fmt.Sprintf("eval-%d", i), Prompt: p.prompt, Cwd: dir})
		times = append(times, time.Since(start))
		if err != nil {
			return err
		}
		// Recall's answer names the workspace (the revive command's
		// --dir), whose temporary name varies in length from run to run;
		// counted under a fixed stand-in, the figure is the same on every
		// run and machine.
		added := strings.ReplaceAll(contextOf(out), dir, workspaceStandIn)
		got := idsIn(added)
		sRecall.injected += len(got)
		sRecall.chars += len(added)
		sRecent.injected += len(recent)
		sRecent.chars += recentChars
		sView.injected += len(inView)
		if p.answer == "" {
			if len(got) > 0 {
				noiseRecalls++
			}
			continue
		}
		withAnswer++
		if archivedIDs[p.answer] {
			archivedAnswers++
		}
		if inView[p.answer] {
			sView.found++
			sView.relevant++
		}
		if inView[p.answer] || got[p.answer] {
			sRecall.found++
		}
		if got[p.answer] {
			sRecall.relevant++
		}
		if recent[p.answer] {
			sRecent.found++
			sRecent.relevant++
		}
	}
	slices.Sort(times)
	n := len(probes)
	fmt.Printf("scenario: seed %d, %d days, %d routine entries a day, %d decisions; at the end bimri.md holds %d entries, the archive %d; %d of the %d answers are archived\n",
		seed, days, perDay, len(decisions), len(f.Entries(1))+len(f.Entries(2)), archived, archivedAnswers, withAnswer)
	fmt.Printf("probes: %d with a known answer, %d with none; the view shows %d items in %d characters; k = %d\n\n", withAnswer, n-withAnswer, len(inView), memfile.Length(view), k)
	fmt.Printf("| %-13s | %-10s | %-9s | %-24s | %-22s |\n", "context", "recall@"+fmt.Sprint(k), "precision", "added characters/prompt", "hook time/prompt")
	fmt.Printf("|%s|%s|%s|%s|%s|\n", strings.Repeat("-", 15), strings.Repeat("-", 12), strings.Repeat("-", 11), strings.Repeat("-", 26), strings.Repeat("-", 24))
	pct := func(a, b int) string {
		if b == 0 {
			return "-"
		}
		return fmt.Sprintf("%.0f%%", 100*float64(a)/float64(b))
	}
	fmt.Printf("| %-13s | %-10s | %-9s | %-24s | %-22s |\n", "view", pct(sView.found, withAnswer), pct(sView.relevant, sView.injected), "0", "0 (SessionStart only)")
	fmt.Printf("| %-13s | %-10s | %-9s | %-24s | %-22s |\n", "view + recall", pct(sRecall.found, withAnswer), pct(sRecall.relevant, sRecall.injected),
		fmt.Sprintf("%d", sRecall.chars/n), fmt.Sprintf("median %.2f ms", float64(times[len(times)/2])/1e6))
	fmt.Printf("| %-13s | %-10s | %-9s | %-24s | %-22s |\n", "most recent", pct(sRecent.found, withAnswer), pct(sRecent.relevant, sRecent.injected), fmt.Sprintf("%d", sRecent.chars/n), "-")
	fmt.Printf("\nprompts with no answer that got a recall anyway: %d of %d; hook time is in-process (make bench times whole processes), slowest %.2f ms\n",
		noiseRecalls, n-withAnswer, float64(times[len(times)-1])/1e6)
	fmt.Println("recall@k: share of answerable probes whose answer was in the context; precision: share of the items put in the context that were the probe's answer (the view's items count once per probe)")
	return nil
}

// workspaceStandIn replaces the workspace's path in the view and in
// what recall adds before they are counted: a project path of ordinary
// length, not the temporary folder's, whose name varies in length from
// run to run.
const workspaceStandIn = "/home/user/project"

var idPattern = regexp.MustCompile(`\(id ([0-9a-z]+)[;)]`)

func idsIn(text string) map[string]bool {
	out := map[string]bool{}
	for _, m := range idPattern.FindAllStringSubmatch(text, -1) {
		out[m[1]] = true
	}
	return out
}

func contextOf(out hooks.Output) string {
	if out.JSON == nil {
		return ""
	}
	data, _ := json.Marshal(out.JSON)
	var v struct {
		HookSpecificOutput struct {
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	_ = json.Unmarshal(data, &v)
	return v.HookSpecificOutput.AdditionalContext
}
