//go:build bench

// Command locomo is `make locomo LOCOMO=/path/to/locomo10.zip`: bimri-hook's
// recall on a public benchmark it was not written for, LoCoMo (Maharana
// et al., ACL 2024: ten long conversations, each of up to 35 sessions,
// with questions whose evidence is a list of turns).
//
//	go run -tags bench ./bench/locomo -zip locomo10.zip -bin dist/bimri-hook
//
// Every conversation is lived through the real binary in a temporary
// workspace (live.go): each session a Claude Code session on its day,
// each turn one `bimri-hook remember`, the real SessionStart, Stop and
// SessionEnd passes archiving and pruning. The day after the last
// session every question is asked as a UserPromptSubmit prompt, and
// LoCoMo's retrieval metric is scored on what the hook recalled (the
// share of the question's evidence turns among the returned entries),
// beside a plain and a stemmed BM25 over the same entries returning as
// many items (score.go, bench/bm25). -in-process asks recall directly
// instead (inprocess.go), for trying a change in seconds. The data set
// is never in the repository: the archive is read from the path given
// and its checksum checked.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "locomo:", err)
		os.Exit(1)
	}
}

func run() error {
	zipPath := flag.String("zip", "", "LoCoMo's locomo10.zip (github.com/snap-research/locomo, data/locomo10.zip)")
	sum := flag.String("sha256", wantSHA256, "the archive's expected sha256 (\"\" to skip the check: figures then do not compare)")
	bin := flag.String("bin", "dist/bimri-hook", "the bimri-hook binary to live the conversations through")
	jobs := flag.Int("j", 4, "conversations lived at once (each mostly waits on its processes starting)")
	out := flag.String("out", "", "write each question's result, with the IDs recalled, as JSON lines to this file")
	only := flag.String("only", "", "live only this conversation (its file's name: 26), for a quick look")
	inProcess := flag.Bool("in-process", false, "read the turns into one in-memory index and ask recall directly: no binary, passes or view (seconds, for trying a change; not the benchmark's figures)")
	flag.Parse()
	if *zipPath == "" {
		return fmt.Errorf("-zip: the path of locomo10.zip is required")
	}
	binary, err := filepath.Abs(*bin)
	if err != nil {
		return err
	}
	if _, err := os.Stat(binary); err != nil && !*inProcess {
		return fmt.Errorf("-bin: %w (make build writes it)", err)
	}
	start := time.Now()
	convs, got, err := readZip(*zipPath, *sum)
	if err != nil {
		return err
	}
	if *only != "" {
		convs = slices.DeleteFunc(convs, func(c conversation) bool { return c.name != *only })
		if len(convs) == 0 {
			return fmt.Errorf("-only %s: no such conversation in the archive", *only)
		}
	}
	var all []lived
	if *inProcess {
		for _, c := range convs {
			all = append(all, readInProcess(c))
		}
	} else if all, err = liveAll(binary, convs, max(1, *jobs)); err != nil {
		return err
	}
	var results []result
	for _, l := range all {
		results = append(results, score(l)...)
	}
	if *out != "" {
		if err := writeResults(*out, results); err != nil {
			return err
		}
	}
	verified := "verified"
	if *sum == "" {
		verified = "not checked"
	}
	fmt.Printf("LoCoMo: %s, sha256 %s (%s)\n", filepath.Base(*zipPath), got, verified)
	report(os.Stdout, all, results)
	fmt.Printf("\nlived and asked in %s (-j %d)\n", time.Since(start).Round(time.Second), *jobs)
	return nil
}

// liveAll lives the conversations, jobs at a time; each has a workspace
// of its own, so the order they run in changes nothing.
func liveAll(bin string, convs []conversation, jobs int) ([]lived, error) {
	all := make([]lived, len(convs))
	errs := make([]error, len(convs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range jobs {
		wg.Go(func() {
			for i := range next {
				all[i], errs[i] = live(bin, convs[i])
				fmt.Fprintf(os.Stderr, "conversation %s: %d sessions, %d questions\n", convs[i].name, len(convs[i].sessions), len(convs[i].qa))
			}
		})
	}
	for i := range convs {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("conversation %s: %w", convs[i].name, err)
		}
	}
	return all, nil
}

func writeResults(path string, rs []result) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	for _, r := range rs {
		if err := enc.Encode(r); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

// categories are LoCoMo's question categories as its evaluation code
// treats them (task_eval/evaluation.py: category 1's answers are lists
// scored part by part, category 3's carry alternatives after ";",
// category 5 is scored on declining to answer).
var categories = []struct {
	n    int
	name string
}{{4, "single-hop"}, {1, "multi-hop"}, {2, "temporal"}, {3, "open-domain"}}

const adversarial = 5

func report(w io.Writer, all []lived, rs []result) {
	turns, sessions, entries, unmapped, runs := 0, 0, 0, 0, 0
	for _, l := range all {
		for _, s := range l.conv.sessions {
			turns += len(s.turns)
		}
		sessions += len(l.conv.sessions)
		entries += len(l.entries)
		unmapped += l.unmapped
		runs += l.runs
	}
	fmt.Fprintf(w, "%d conversations, %d sessions, %d turns recorded (%d entries in file and archive at the end, %d turns that named no entry), %d runs of the binary\n\n",
		len(all), sessions, turns, entries, unmapped, runs)
	fmt.Fprintln(w, "Share of the question's evidence turns returned (in brackets: questions with all their evidence returned).")
	fmt.Fprintln(w, "BM25 over the same entries returns as many items as the hook did for each question, then 5 and 10;")
	fmt.Fprintln(w, "stemmed BM25 drops the Snowball English stop words and stems the rest, at the hook's number of items,")
	fmt.Fprintln(w, "over every entry and over those the view does not show (what recall ranks).")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| questions | n | items (mean) | bimri-hook recall | recall + view | BM25, same items | BM25@5 | BM25@10 | stemmed BM25, same items | stemmed BM25, not in the view |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|")
	row := func(name string, keep func(result) bool) {
		f := summarize(rs, keep)
		fmt.Fprintf(w, "| %s | %d | %.1f | %s | %s | %s | %s | %s | %s | %s |\n", name, f.n, f.items,
			f.hook, f.hookView, f.bm25, f.bm25At5, f.bm25At10, f.stemmed, f.stemmedLeftOut)
	}
	answerable := func(r result) bool { return r.Category != adversarial }
	row("all (no adversarial)", answerable)
	row("that name a time", func(r result) bool { return answerable(r) && r.Timed })
	row("every other", func(r result) bool { return answerable(r) && !r.Timed })
	for _, c := range categories {
		row(fmt.Sprintf("category %d, %s", c.n, c.name), func(r result) bool { return r.Category == c.n })
	}
	row("category 5, adversarial (apart)", func(r result) bool { return r.Category == adversarial })
	// The paper's own retrieval figures count every question.
	row("every question, adversarial included", func(result) bool { return true })
}

func (p pair) String() string { return fmt.Sprintf("%.1f%% (%.1f%%)", 100*p.share, 100*p.all) }
