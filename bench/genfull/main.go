//go:build bench

// Command genfull writes a full memory for benchmarks: a bimri.md whose
// three tiers sit near their budgets for the claude-code profile (about
// 6,000 tokens in all), and the archive that months of use leave behind.
//
//	go run -tags bench ./bench/genfull -dir /tmp/full
//
// It does not make the file up line by line: it replays -days days of
// sessions, each recording a handful of entries and running the real
// session-end pass, so weights, patterns, pruning and budget eviction are
// the ones bimri-hook produces. The last pass is dated the day before
// -today, so a hook run on -today has the first-session-of-the-day work to
// do (reweighting everything). The output depends only on the flags.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/memfile"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "genfull:", err)
		os.Exit(1)
	}
}

func run() error {
	dir := flag.String("dir", "", "folder to write bimri.md and bimri-archive.md into (required)")
	todayFlag := flag.String("today", "2026-11-29", "the day the benchmark runs the hook on, YYYY-MM-DD")
	days := flag.Int("days", 120, "days of sessions to replay")
	perDay := flag.Int("per-day", 8, "entries recorded per day")
	sessions := flag.Int("sessions", 42, "Sessions in the header; the default keeps deep maintenance from being due at the next SessionStart or SessionEnd")
	seed := flag.Uint64("seed", 1, "random seed")
	records := flag.Int("archive-records", 0, "keep only the newest this many archive records (the replay must archive at least as many): an archive of an exact size")
	big := flag.Int("tier2-entries", 0, "instead of a file at the claude-code budgets, one with this many Tier 2 entries (importance 4-5, so their floor keeps them), and a bimri.json in -dir whose budgets hold them all")
	flag.Parse()
	if *dir == "" {
		return errors.New("-dir is required")
	}
	today, ok := memfile.ParseDate(*todayFlag)
	if !ok {
		return fmt.Errorf("-today %q is not a date", *todayFlag)
	}
	cfg := memfile.DefaultConfig()
	rng := rand.New(rand.NewPCG(*seed, 7))

	f := memfile.New(cfg)
	// Each pass's removals and its day, so -archive-records can drop the
	// oldest.
	type pass struct {
		removed []memfile.Removal
		day     time.Time
	}
	var passes []pass
	first := today.AddDate(0, 0, -*days)
	for i := 0; ; i++ {
		tok := memfile.Estimate(f)
		if tok.Tiers[0] >= cfg.Budgets[0]*9/10 {
			break
		}
		imp := 4 + rng.IntN(2)
		if _, _, err := f.Add(memfile.NewEntry{Tier: 1, Importance: imp, Date: first.AddDate(0, 0, i), Tags: tags(rng), Text: sentence(rng, "Core fact")}); err != nil {
			return err
		}
	}
	for d := 0; d < *days; d++ {
		day := first.AddDate(0, 0, d) // the last is the day before today
		for range *perDay {
			imp := 1 + rng.IntN(5)
			if _, _, err := f.Add(memfile.NewEntry{Tier: 2, Importance: imp, Date: day, Tags: tags(rng), Text: sentence(rng, "Session work")}); err != nil {
				return err
			}
		}
		next, rep := memfile.Maintain(f, day, cfg, memfile.Options{CountSession: true})
		f = next
		passes = append(passes, pass{rep.Removed, day})
	}
	if *big > 0 {
		// Budgets big enough for every entry: the large-file benchmark
		// measures that many entries through every step, not eviction.
		cfg.Budgets = [3]int{1_000_000, 1_000_000, 1_000_000}
		cfg.TotalBudget = 3_000_000
		// Written as an agent writes them and parsed, not added one by
		// one: Add looks for the same entry first, which is quadratic.
		yesterday := today.AddDate(0, 0, -1)
		var entries strings.Builder
		for i := range *big {
			fmt.Fprintf(&entries, "[IMPORTANCE:%d] [TIMESTAMP:%s] [TAGS:%s]\n%s\n\n", 4+rng.IntN(2),
				yesterday.AddDate(0, 0, -(i%30)).Format(time.DateOnly), strings.Join(tags(rng), ","), sentence(rng, "Session work"))
		}
		data := memfile.Render(f)
		at := bytes.Index(data, []byte("## Tier 3"))
		if at < 0 {
			return errors.New("rendered file has no Tier 3 heading")
		}
		data = slices.Concat(data[:at], []byte(entries.String()), data[at:])
		parsed, _, err := memfile.Parse(data)
		if err != nil {
			return err
		}
		next, rep := memfile.Maintain(parsed, yesterday, cfg, memfile.Options{})
		f = next
		passes = append(passes, pass{rep.Removed, yesterday})
	}
	f.Header.Sessions = *sessions

	if err := os.MkdirAll(*dir, 0o755); err != nil {
		return err
	}
	data := memfile.Render(f)
	if err := os.WriteFile(filepath.Join(*dir, memfile.MemoryName), data, 0o644); err != nil {
		return err
	}
	if *big > 0 {
		config := fmt.Sprintf(`{"tier1_budget": %d, "tier2_budget": %d, "tier3_budget": %d, "total_budget": %d}`+"\n",
			cfg.Budgets[0], cfg.Budgets[1], cfg.Budgets[2], cfg.TotalBudget)
		if err := os.WriteFile(filepath.Join(*dir, "bimri.json"), []byte(config), 0o644); err != nil {
			return err
		}
	}
	if *records > 0 {
		total := 0
		for _, p := range passes {
			total += len(p.removed)
		}
		if total < *records {
			return fmt.Errorf("-archive-records %d: the replay archived only %d; raise -days or -per-day", *records, total)
		}
		for drop := total - *records; drop > 0; {
			n := min(drop, len(passes[0].removed))
			passes[0].removed = passes[0].removed[n:]
			drop -= n
			if len(passes[0].removed) == 0 {
				passes = passes[1:]
			}
		}
	}
	archive := []byte(memfile.ArchiveHeading)
	for _, p := range passes {
		archive = append(archive, memfile.RenderArchived(p.removed, p.day)...)
	}
	if err := os.WriteFile(filepath.Join(*dir, memfile.ArchiveName), archive, 0o644); err != nil {
		return err
	}
	recs, _ := memfile.ParseArchive(archive)
	tok := memfile.Estimate(f)
	fmt.Printf("bimri.md: %d bytes, ~%d tokens (Tier 1 ~%d/%d, Tier 2 ~%d/%d, Tier 3 ~%d/%d); %d entries, %d patterns\n",
		len(data), tok.Total, tok.Tiers[0], cfg.Budgets[0], tok.Tiers[1], cfg.Budgets[1], tok.Tiers[2], cfg.Budgets[2],
		len(f.Entries(1))+len(f.Entries(2)), len(f.Patterns()))
	fmt.Printf("bimri-archive.md: %d bytes, %d records\n", len(archive), len(recs))
	return nil
}

// tagPool is small enough that Tier 3 (one pattern per recurring tag)
// lands near its budget rather than over it.
var tagPool = []string{
	"api", "auth", "billing", "build", "cache", "ci", "cli", "config", "db", "deploy",
	"docs", "errors", "frontend", "infra", "parser", "perf", "release", "search", "tests", "ui",
}

func tags(rng *rand.Rand) []string {
	n := 1 + rng.IntN(3)
	out := make([]string, n)
	for i := range out {
		out[i] = tagPool[rng.IntN(len(tagPool))]
	}
	return out
}

var (
	verbs   = []string{"Added", "Fixed", "Refactored", "Documented", "Removed", "Migrated", "Benchmarked", "Reviewed", "Chose", "Split"}
	objects = []string{"the upload retry loop", "the session cache", "the billing webhook handler", "the config loader",
		"the search index builder", "the CLI flag parser", "the release workflow", "the auth token refresh",
		"the database connection pool", "the metrics exporter", "the onboarding checklist", "the error reporter"}
	outcomes = []string{"tests pass and coverage rose to 91%", "p95 latency dropped from 240 ms to 90 ms",
		"the user approved the approach", "left a follow-up for the edge case with empty input",
		"kept the old path behind a flag until the next release", "the team agreed to revisit it next sprint",
		"no behaviour change, only clearer names", "found and fixed an off-by-one in pagination"}
)

// sentence is a one-line summary of the length agents write.
func sentence(rng *rand.Rand, kind string) string {
	return fmt.Sprintf("%s %d: %s %s; %s.", kind, rng.IntN(100000),
		verbs[rng.IntN(len(verbs))], objects[rng.IntN(len(objects))], outcomes[rng.IntN(len(outcomes))])
}
