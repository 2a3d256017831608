//go:build bench && unix

// Command benchrun times whole bimri-hook processes side by side with cat
// of the same memory file, and reports the medians, the ratio to cat and
// the peak memory of each. It also times `bimri-hook version`, the cost of
// starting the binary at all, so the hook's own work can be told from its
// start-up.
//
//	go run -tags bench ./bench/benchrun -bin dist/bimri-hook -full /tmp/full [-big /tmp/big] [-floor gofloor -linked golinked]
//
// Every command runs in a workspace of its own, put back before each run
// (outside the timed region, followed by a sync so no dirty page is
// flushed by the hook's own fsync):
//
//   - first of the day: the full bimri.md and archive (from genfull), last
//     maintained the day before, with no backup and no session state, so
//     SessionStart and SessionEnd reweight everything and write;
//   - steady: the same workspace after SessionStarts of one session today
//     until nothing changes (the file maintained today, every upkeep
//     question asked): the file already maintained today and nothing
//     changed since. A new session there still takes the lock, to record
//     the upkeep advice it is given once a session, but runs no pass;
//   - archive (with -archive): a default-budget file with an archive of
//     years (50,000 records), SessionEnd first of the day and a steady
//     UserPromptSubmit with recall, beside the same bimri.md with no
//     archive ("bare");
//   - big (with -big): a file of 10,000 Tier 2 entries and the bimri.json
//     whose budgets hold them, first of the day.
//
// Each cat reads the bimri.md of the workspace it stands for. All the
// commands are interleaved, one run of each in turn, so whatever else a
// shared machine does weighs on every command alike; the ratios come from
// that one run. The loop starts each command directly (no shell). Peak
// memory is the maximum resident set size, as /usr/bin/time -v reports
// it: from GNU time when installed, else from getrusage here, which counts
// at least this program's own few megabytes (Go starts a child in its
// parent's address space before the exec), so it is an upper bound for
// small commands.
//
// The runs follow each other back to back unless -gap asks for a pause
// before each. That matters on a VM that hands freed memory back to its
// host (virtio-balloon free page reporting, after about two seconds):
// back to back, a run reuses memory the one before freed, still backed;
// after a pause, as between real hooks, its fresh memory is backed
// again on first touch, and a hook that touches much of it is slower.
//
// With -versus, other builds of bimri-hook run every hook command too,
// in the same loop, each right after the build before it in the list
// (the order of each round reversed from the last, so no build always
// runs first), and a last table compares each build with the one before
// it (the first with -bin, and the first after each ";"): an alternated
// comparison of builds in one run, as `VERSUS=rev make bench` does. A
// list of builds, each one change after the last, measures each change;
// chains of one measure variants of -bin.
//
// To add a case, add a bench to the list in run: a name, its workspace
// and the hook input.
//
// One file, over 500 lines, on purpose: the workspaces, the cases, the
// timing loop and the report are one procedure that make bench runs
// once; split, each part would only make sense beside the others.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/bimri/bimri-hook/bench/benchwork"
	"github.com/bimri/bimri-hook/memfile"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "benchrun:", err)
		os.Exit(1)
	}
}

// workspace is a folder the commands run in, and the files it is put back
// to before every run.
type workspace struct {
	name  string
	root  string
	env   []string
	files map[string][]byte // relative path: content; nothing else survives a reset
	// mtimes are the saved files' modification times, given back on each
	// reset: a file no run changed keeps its time, as on a real disk, so
	// the recall index (keyed on the archive's size and time) stays valid.
	mtimes map[string]time.Time
	// written is each file as the last reset left it. One that still is
	// was not touched since and is not written again: rewriting the
	// archive and its index (25 MB) before every prompt kept the machine
	// busy with writes no real prompt follows, and slowed even the go
	// floor, which reads no workspace, run beside them.
	written map[string]fileStamp
}

// fileStamp tells one version of a file from another: a write in place
// gives it a new modification time (the reset sets the saved one), an
// atomic replace a new inode.
type fileStamp struct {
	ino, size, mtime int64 // mtime in nanoseconds
}

func stampOf(info os.FileInfo) fileStamp {
	return fileStamp{int64(info.Sys().(*syscall.Stat_t).Ino), info.Size(), info.ModTime().UnixNano()}
}

// reset puts the workspace back as it was saved: every file that is not
// in files goes (backups, state, temporaries), every file in it that a
// run changed is written again.
func (w *workspace) reset() error {
	err := filepath.WalkDir(w.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == w.root {
			return err
		}
		rel, err := filepath.Rel(w.root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		switch _, saved := w.files[rel]; {
		case d.IsDir() && !w.holdsUnder(rel):
			if err := os.RemoveAll(p); err != nil {
				return err
			}
			return fs.SkipDir
		case !d.IsDir() && !saved:
			return os.Remove(p)
		}
		return nil
	})
	if err != nil {
		return err
	}
	written := make(map[string]fileStamp, len(w.files))
	for rel, data := range w.files {
		p := filepath.Join(w.root, filepath.FromSlash(rel))
		if info, err := os.Lstat(p); err == nil && info.Mode().IsRegular() && stampOf(info) == w.written[rel] {
			written[rel] = w.written[rel]
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
		if t, ok := w.mtimes[rel]; ok {
			if err := os.Chtimes(p, t, t); err != nil {
				return err
			}
		}
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		written[rel] = stampOf(info)
	}
	w.written = written
	syscall.Sync()
	return nil
}

// holdsUnder says a saved file lies in the folder dir.
func (w *workspace) holdsUnder(dir string) bool {
	for rel := range w.files {
		if strings.HasPrefix(rel, dir+"/") {
			return true
		}
	}
	return false
}

// save records the workspace's files as they stand now, so each later
// reset returns to this state.
func (w *workspace) save() error {
	files, err := benchwork.Take(w.root)
	w.files, w.mtimes = files.Data, files.MTimes
	return err
}

// bench is one command under test.
type bench struct {
	name  string
	ws    *workspace
	args  []string
	stdin []byte
	cat   *bench // the cat its ratio is to; nil for a cat
	base  *bench // with -versus: the same command run by the build before this one

	times  []time.Duration // wall time of each run
	cpu    []time.Duration // user plus system CPU time of each run
	faults []int64         // minor page faults of each run
	rss    int64           // peak resident set size, bytes
}

func run() error {
	bin := flag.String("bin", "dist/bimri-hook", "the bimri-hook binary to time")
	full := flag.String("full", "", "folder holding the full bimri.md and bimri-archive.md (from genfull; required)")
	big := flag.String("big", "", "folder holding a large bimri.md, its archive and bimri.json (from genfull -tier2-entries; optional)")
	runs := flag.Int("runs", 30, "timed runs of each command")
	today := flag.String("today", "2026-11-29", "BIMRI_TODAY for the hook runs")
	recallSrc := flag.String("recall", "", "folder holding a memory with a 10,000-record archive (from genfull -days 125 -per-day 81; optional): time UserPromptSubmit's recall on it")
	archiveSrc := flag.String("archive", "", "folder holding a default-budget memory with a 50,000-record archive (from genfull -archive-records; optional): time SessionEnd and UserPromptSubmit on it and on the same bimri.md without its archive")
	only := flag.String("only", "", "a regular expression: time only the commands whose names match it, with their cats (for a quick look at one case)")
	floor := flag.String("floor", "", "a Go program that only prints a line (bench/gofloor; optional): the start-up of any Go process")
	linked := flag.String("linked", "", "a Go program that links every package bimri-hook imports and only prints a line (bench/golinked; optional): the binary's start-up before any work")
	parent := flag.String("dir", "", "folder to make the workspaces in (default: the temp folder); its filesystem sets the cost of fsync")
	versus := flag.String("versus", "", "other builds of bimri-hook, name=path[,name=path...][;name=path...]: each runs every hook command beside -bin, in the same loop, and a table compares each with the build before it in the list (the first of each ;-separated chain with -bin)")
	bar := flag.Bool("bar", false, "check the latency bar (TEAM.md): SessionStart steady within 2.6x and SessionEnd within 3.6x of the go floor (needs -floor); exit 1 if either is over")
	gap := flag.Duration("gap", 0, "pause before each timed run, outside the timing (e.g. 3s: memory a run frees is then no longer warm, as between real hooks; see -help's package comment)")
	flag.Parse()
	if *full == "" {
		return errors.New("-full is required")
	}
	binPath, err := filepath.Abs(*bin)
	if err != nil {
		return err
	}

	work, err := os.MkdirTemp(*parent, "bimri-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	home := filepath.Join(work, "home")
	transcripts := filepath.Join(home, ".claude", "projects", "-proj")
	if err := os.MkdirAll(transcripts, 0o755); err != nil {
		return err
	}
	transcript := filepath.Join(transcripts, "bench.jsonl")
	if err := os.WriteFile(transcript, benchwork.SessionTranscript(), 0o644); err != nil {
		return err
	}

	// newWorkspace makes a workspace holding the memory files of src (and
	// takes its bimri.json, if any, as the config). The hook's environment
	// inherits nothing that could point it elsewhere (CLAUDE_PROJECT_DIR
	// of a surrounding session, say).
	newWorkspace := func(name, src string) (*workspace, error) {
		w := &workspace{name: name, root: filepath.Join(work, name), files: map[string][]byte{}}
		w.env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "BIMRI_TODAY=" + *today, "CLAUDE_PROJECT_DIR=" + w.root}
		if err := os.MkdirAll(w.root, 0o755); err != nil {
			return nil, err
		}
		for _, f := range []string{memfile.MemoryName, memfile.ArchiveName} {
			data, err := os.ReadFile(filepath.Join(src, f))
			if err != nil {
				return nil, err
			}
			w.files[f] = data
		}
		if cfg := filepath.Join(src, "bimri.json"); fileExists(cfg) {
			// Outside the workspace, so a reset cannot lose it.
			w.env = append(w.env, "BIMRI_CONFIG="+cfg)
		}
		return w, w.reset()
	}
	event := func(w *workspace, name string, extra map[string]any) []byte {
		m := map[string]any{"hook_event_name": name, "session_id": "bench", "cwd": w.root, "transcript_path": transcript}
		for k, v := range extra {
			m[k] = v
		}
		data, _ := json.Marshal(m)
		return data
	}
	hook := []string{binPath, "hook"}
	start := map[string]any{"source": "startup"}
	end := map[string]any{"reason": "other"}

	first, err := newWorkspace("first", *full)
	if err != nil {
		return err
	}
	// The steady workspace is the first one after a SessionStart today.
	steady, err := newWorkspace("steady", *full)
	if err != nil {
		return err
	}
	if err := primeSteady(steady, hook, event(steady, "SessionStart", start)); err != nil {
		return err
	}
	// A prompt of another session builds the recall index, as any first
	// prompt after the archive changes does.
	if err := primeRecallIndex(steady, hook, event(steady, "UserPromptSubmit", map[string]any{"prompt": recallPrompt})); err != nil {
		return err
	}
	if err := steady.save(); err != nil {
		return err
	}

	catFull := &bench{name: "cat bimri.md", ws: first, args: []string{"cat", filepath.Join(first.root, memfile.MemoryName)}}
	benches := []*bench{
		catFull,
		// The floor: starting the binary and running its package inits,
		// with no memory work at all.
		{name: "bimri-hook version", ws: first, args: []string{binPath, "version"}, cat: catFull},
	}
	// Below the binary's own start-up, two floors measured in the same
	// run: any Go process, and one that links and initialises every
	// package bimri-hook does. What a hook takes above the second is its
	// own work.
	for _, p := range []struct{ name, path string }{{"go floor", *floor}, {"go linked", *linked}} {
		if p.path == "" {
			continue
		}
		abs, err := filepath.Abs(p.path)
		if err != nil {
			return err
		}
		benches = append(benches, &bench{name: p.name, ws: first, args: []string{abs}, cat: catFull})
		if p.name == "go floor" {
			// The same floor touching faultPages fresh pages: the price
			// of a page fault, measured in this run (see report).
			benches = append(benches, &bench{name: "go floor touching", ws: first, args: []string{abs, "-touch", strconv.Itoa(faultPages)}, cat: catFull})
		}
	}
	benches = append(benches, []*bench{
		{name: "SessionStart steady", ws: steady, args: hook, stdin: event(steady, "SessionStart", start), cat: catFull},
		{name: "SessionStart new", ws: steady, args: hook, stdin: event(steady, "SessionStart", map[string]any{"source": "startup", "session_id": "bench-new"}), cat: catFull},
		{name: "SessionStart first", ws: first, args: hook, stdin: event(first, "SessionStart", start), cat: catFull},
		// stop_hook_active: the turn is never blocked, so Stop runs its pass.
		{name: "Stop", ws: steady, args: hook, stdin: event(steady, "Stop", map[string]any{"stop_hook_active": true}), cat: catFull},
		{name: "SessionEnd", ws: first, args: hook, stdin: event(first, "SessionEnd", end), cat: catFull},
		{name: "UserPromptSubmit", ws: steady, args: hook, stdin: event(steady, "UserPromptSubmit", map[string]any{"prompt": "Add a retry to the upload loop and test it"}), cat: catFull},
	}...)
	if *big != "" {
		bigWS, err := newWorkspace("big", *big)
		if err != nil {
			return err
		}
		catBig := &bench{name: "cat big bimri.md", ws: bigWS, args: []string{"cat", filepath.Join(bigWS.root, memfile.MemoryName)}}
		benches = append(benches, catBig,
			&bench{name: "big SessionStart", ws: bigWS, args: hook, stdin: event(bigWS, "SessionStart", start), cat: catBig},
			&bench{name: "big SessionEnd", ws: bigWS, args: hook, stdin: event(bigWS, "SessionEnd", end), cat: catBig},
		)
	}

	if *recallSrc != "" {
		ws, err := newWorkspace("recall", *recallSrc)
		if err != nil {
			return err
		}
		more, err := recallBenches(ws, hook, event)
		if err != nil {
			return err
		}
		benches = append(benches, more...)
	}

	if *archiveSrc != "" {
		more, err := archiveBenches(*archiveSrc, hook, newWorkspace, event)
		if err != nil {
			return err
		}
		benches = append(benches, more...)
	}

	if *only != "" {
		re, err := regexp.Compile(*only)
		if err != nil {
			return fmt.Errorf("-only: %w", err)
		}
		var kept []*bench
		for _, b := range benches {
			if re.MatchString(b.name) || slices.ContainsFunc(benches, func(o *bench) bool { return o.cat == b && re.MatchString(o.name) }) {
				kept = append(kept, b)
			}
		}
		benches = kept
	}

	if benches, err = withVersus(benches, binPath, *versus); err != nil {
		return err
	}

	// Each command once, checked: a benchmark of a failing command
	// measures nothing. Then the timed runs, interleaved, every other
	// round in the reverse order.
	for round := -1; round < *runs; round++ {
		for k := range benches {
			b := benches[k]
			if round%2 != 0 {
				b = benches[len(benches)-1-k]
			}
			if err := b.ws.reset(); err != nil {
				return err
			}
			if round >= 0 {
				time.Sleep(*gap)
			}
			s, err := runOnce(b)
			if err != nil {
				return err
			}
			if round >= 0 {
				b.times = append(b.times, s.wall)
				b.cpu = append(b.cpu, s.cpu)
				b.faults = append(b.faults, s.faults)
				b.rss = max(b.rss, s.rss)
			}
		}
	}
	rssBy := "getrusage, an upper bound"
	if gnuTime() {
		rssBy = gnuTimeRSS
		for _, b := range benches {
			b.rss = 0
		}
		for range 5 {
			for _, b := range benches {
				if err := b.ws.reset(); err != nil {
					return err
				}
				rss, err := rssByTime(b)
				if err != nil {
					return err
				}
				b.rss = max(b.rss, rss)
			}
		}
	}

	report(os.Stdout, benches, first, *big != "", *runs, *gap, rssBy, work)
	if *bar {
		return reportBar(os.Stdout, benches)
	}
	return nil
}

// withVersus adds, right after each command -bin runs, the same command
// run by each build versus names (name=path, comma-separated), in order,
// each based on the one before. A ";" starts a new chain, based on -bin
// again: "a=x,b=y;c=z" compares a with -bin, b with a and c with -bin,
// so one run measures both a list of changes and variants of this tree.
func withVersus(benches []*bench, bin, versus string) ([]*bench, error) {
	if versus == "" {
		return benches, nil
	}
	type build struct {
		name, path string
		chain      bool // the first of a chain: based on -bin
	}
	var builds []build
	for _, chain := range strings.Split(versus, ";") {
		for i, v := range strings.Split(chain, ",") {
			name, path, ok := strings.Cut(v, "=")
			if !ok || name == "" || path == "" {
				return nil, fmt.Errorf("-versus: %q is not name=path", v)
			}
			abs, err := filepath.Abs(path)
			if err != nil {
				return nil, err
			}
			builds = append(builds, build{name, abs, i == 0})
		}
	}
	var out []*bench
	for _, b := range benches {
		out = append(out, b)
		if b.args[0] != bin {
			continue
		}
		prev := b
		for _, v := range builds {
			if v.chain {
				prev = b
			}
			other := *b
			other.name = b.name + " @" + v.name
			other.args = append([]string{v.path}, b.args[1:]...)
			other.base = prev
			out = append(out, &other)
			prev = &other
		}
	}
	return out, nil
}

// primeSteady runs SessionStart in w until its answer stops changing:
// each run may ask one more upkeep question and remember it asked.
func primeSteady(w *workspace, args []string, stdin []byte) error {
	last := ""
	for range 40 {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Env, cmd.Stdin = w.env, bytes.NewReader(stdin)
		out, err := cmd.Output()
		if err != nil {
			return fmt.Errorf("prime steady: %v", err)
		}
		if string(out) == last {
			return nil
		}
		last = string(out)
	}
	return errors.New("prime steady: SessionStart still changes the workspace after 40 runs")
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// sample is what one run of a command cost.
type sample struct {
	wall, cpu time.Duration // cpu: user plus system time, less sensitive to load than wall
	faults    int64         // minor page faults
	rss       int64         // peak resident set size, bytes
}

// runOnce runs a command and returns what it cost.
func runOnce(b *bench) (sample, error) {
	cmd := exec.Command(b.args[0], b.args[1:]...)
	cmd.Env = b.ws.env
	if b.stdin != nil {
		cmd.Stdin = bytes.NewReader(b.stdin)
	}
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err != nil {
		return sample{}, fmt.Errorf("%s: %v: %s", b.name, err, stderr.String())
	}
	s := sample{wall: d, cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), rss: maxRSS(cmd.ProcessState)}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		s.faults = int64(ru.Minflt)
	}
	return s, nil
}

const gnuTimeRSS = "GNU time"

// gnuTime says whether /usr/bin/time is GNU time, which can print the
// peak RSS alone.
func gnuTime() bool {
	return exec.Command("/usr/bin/time", "-f", "%M", "true").Run() == nil
}

// rssByTime runs a command under GNU time and returns its peak RSS.
func rssByTime(b *bench) (int64, error) {
	out, err := os.CreateTemp("", "bimri-bench-rss-")
	if err != nil {
		return 0, err
	}
	out.Close()
	defer os.Remove(out.Name())
	cmd := exec.Command("/usr/bin/time", append([]string{"-f", "%M", "-o", out.Name(), "--"}, b.args...)...)
	cmd.Env = b.ws.env
	if b.stdin != nil {
		cmd.Stdin = bytes.NewReader(b.stdin)
	}
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("%s under /usr/bin/time: %v: %s", b.name, err, stderr.String())
	}
	data, err := os.ReadFile(out.Name())
	if err != nil {
		return 0, err
	}
	var kib int64
	if _, err := fmt.Sscan(string(data), &kib); err != nil {
		return 0, fmt.Errorf("/usr/bin/time printed %q", data)
	}
	return kib * 1024, nil
}

// maxRSS is the child's peak resident set size in bytes.
func maxRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss) // bytes there
	}
	return int64(ru.Maxrss) * 1024 // KiB on Linux and the BSDs
}

func report(w io.Writer, benches []*bench, full *workspace, big bool, runs int, gap time.Duration, rssBy, work string) {
	describe := func(label string, ws *workspace) {
		memory, archive := ws.files[memfile.MemoryName], ws.files[memfile.ArchiveName]
		f, _, _ := memfile.Parse(memory)
		recs, _ := memfile.ParseArchive(archive)
		tok := memfile.Estimate(f)
		fmt.Fprintf(w, "%s: bimri.md %.1f KB, ~%d tokens (Tier 1 ~%d, Tier 2 ~%d, Tier 3 ~%d), %d entries, %d patterns; archive %.1f KB, %d records\n",
			label, float64(len(memory))/1024, tok.Total, tok.Tiers[0], tok.Tiers[1], tok.Tiers[2],
			len(f.Entries(1))+len(f.Entries(2)), len(f.Patterns()), float64(len(archive))/1024, len(recs))
	}
	describe("full file", full)
	for _, named := range []struct{ ws, label string }{{"recall", "recall file"}, {"archive-first", "archive file"}} {
		for _, b := range benches {
			if b.ws.name == named.ws {
				describe(named.label, b.ws)
				break
			}
		}
	}
	if big {
		for _, b := range benches {
			if b.ws.name == "big" {
				describe("big file", b.ws)
				break
			}
		}
	}
	load := "unknown"
	if data, err := os.ReadFile("/proc/loadavg"); err == nil {
		load = strings.Join(strings.Fields(string(data))[:3], " ")
	}
	spacing := "back to back"
	if gap > 0 {
		spacing = fmt.Sprintf("each after a %s pause", gap)
	}
	fmt.Fprintf(w, "%d interleaved runs of each, %s, timed by benchrun's own loop (direct exec, no shell); peak RSS by %s; each run on its workspace as saved (the files a run changed written again, outside the timing); workspaces in %s; %s/%s, %d CPUs; load average at the end %s\n\n",
		runs, spacing, rssBy, filepath.Dir(work), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), load)
	// With -floor, each command's ratio to the Go floor of the same run
	// too: what a hook costs beyond being a Go process at all.
	var floorMedian time.Duration
	for _, b := range benches {
		if b.name == "go floor" {
			floorMedian = median(b.times)
		}
	}
	fmt.Fprintf(w, "%-30s %9s %9s %9s %8s %8s %10s %9s %7s\n", "command", "median", "min", "max", "vs cat", "vs floor", "peak RSS", "CPU", "faults")
	for _, b := range benches {
		m, ratio, floor := median(b.times), 1.0, "-"
		if b.cat != nil {
			ratio = float64(m) / float64(median(b.cat.times))
		}
		if floorMedian > 0 {
			floor = fmt.Sprintf("%.2fx", float64(m)/float64(floorMedian))
		}
		fmt.Fprintf(w, "%-30s %9s %9s %9s %7.1fx %8s %7.1f MB %9s %7d\n", b.name, ms(m), ms(slices.Min(b.times)), ms(slices.Max(b.times)),
			ratio, floor, float64(b.rss)/(1<<20), ms(median(b.cpu)), median(b.faults))
	}
	reportFaultCost(w, benches)
	reportArchive(w, benches)
	reportVersus(w, benches)
}

// reportVersus prints each build's medians against the build before it
// for the same command in the same run (see -versus), and the median of
// the ratios of runs side by side in a round ("paired"), which a slow
// stretch of a shared machine weighs on less.
func reportVersus(w io.Writer, benches []*bench) {
	first := true
	for _, b := range benches {
		if b.base == nil {
			continue
		}
		if first {
			fmt.Fprintf(w, "\neach build against the one before it, same run (medians; ratio = this build / the one before):\n%-34s %9s %9s %7s %7s %9s %9s %7s\n", "command @ build", "wall", "before", "ratio", "paired", "CPU", "before", "ratio")
			first = false
		}
		wall, baseWall := median(b.times), median(b.base.times)
		cpu, baseCPU := median(b.cpu), median(b.base.cpu)
		paired := make([]float64, len(b.times))
		for i := range b.times {
			paired[i] = float64(b.times[i]) / float64(b.base.times[i])
		}
		fmt.Fprintf(w, "%-34s %9s %9s %6.3fx %6.3fx %9s %9s %6.3fx\n", b.name, ms(wall), ms(baseWall), float64(wall)/float64(baseWall), median(paired), ms(cpu), ms(baseCPU), float64(cpu)/float64(baseCPU))
	}
}

// latencyBar is the most each hook may take, as a multiple of the go
// floor (a Go program that only prints a line) in the same run: the bar
// the simplification issue set, which every dependency and feature is
// held to (TEAM.md).
var latencyBar = []struct {
	name string
	max  float64
}{
	{"SessionStart steady", 2.6},
	{"SessionEnd", 3.6},
}

// reportBar prints each hook of latencyBar against the go floor of the
// same run and returns an error if one is over its bar.
func reportBar(w io.Writer, benches []*bench) error {
	find := func(name string) *bench {
		for _, b := range benches {
			if b.name == name {
				return b
			}
		}
		return nil
	}
	floor := find("go floor")
	if floor == nil {
		return errors.New("-bar needs -floor and the go floor among the commands")
	}
	fmt.Fprintf(w, "\nthe latency bar: each hook's median against the go floor's (%s), same run:\n", ms(median(floor.times)))
	var over []string
	for _, l := range latencyBar {
		b := find(l.name)
		if b == nil {
			return fmt.Errorf("-bar: %q was not run (see -only)", l.name)
		}
		ratio := float64(median(b.times)) / float64(median(floor.times))
		verdict := "within"
		if ratio > l.max {
			verdict = "OVER"
			over = append(over, l.name)
		}
		fmt.Fprintf(w, "%-22s %9s %6.2fx the floor (bar %.1fx): %s\n", l.name, ms(median(b.times)), ratio, l.max, verdict)
	}
	if len(over) > 0 {
		return fmt.Errorf("over the latency bar: %s", strings.Join(over, ", "))
	}
	return nil
}

// faultPages is how many fresh pages "go floor touching" writes to.
const faultPages = 2000

// reportFaultCost prints what one page fault costs, from "go floor
// touching" against "go floor": the difference in median time and CPU
// over the difference in faults. Most of what a short process does with
// memory costs this, once per page it touches first.
func reportFaultCost(w io.Writer, benches []*bench) {
	var floor, touching *bench
	for _, b := range benches {
		switch b.name {
		case "go floor":
			floor = b
		case "go floor touching":
			touching = b
		}
	}
	if floor == nil || touching == nil {
		return
	}
	faults := median(touching.faults) - median(floor.faults)
	if faults <= 0 {
		return
	}
	per := func(a, b []time.Duration) float64 {
		return float64(median(a)-median(b)) / float64(time.Microsecond) / float64(faults)
	}
	fmt.Fprintf(w, "\none page fault (go floor touching %d fresh pages, %d more faults): %.1f us of time, %.1f us of CPU\n",
		faultPages, faults, per(touching.times, floor.times), per(touching.cpu, floor.cpu))
}

func median[T time.Duration | int64 | float64](ds []T) T {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }
