//go:build unix

// Command benchrun times whole bimri-hook processes on a full memory file
// (see genfull) side by side with cat of the same file, and reports the
// medians, the ratio to cat and the peak memory of each. It also times
// `bimri-hook version`, the cost of starting the binary at all, so the
// hook's own work can be told from its start-up.
//
//	go run ./reliability/cmd/benchrun -bin bin/bimri-hook -full /tmp/full
//
// Every run, of every command, starts from a fresh copy of the full
// bimri.md and archive with no backup and no session state, so each
// SessionEnd does the same work (reweight, pass, count the session, write
// backup and file). The copy, and a sync so its dirty pages are not
// flushed by the hook's own fsync, happen before the clock starts: they
// are outside the timed region for all three commands alike.
//
// Timing uses hyperfine when it is on PATH (it corrects for the shell it
// runs commands in) and otherwise this program's own loop, which starts
// the commands directly. Peak memory is the maximum resident set size,
// as /usr/bin/time -v reports it: from GNU time when installed, else from
// getrusage here, which counts at least this program's own few megabytes
// (Go starts a child in its parent's address space before the exec), so
// it is an upper bound for small commands.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/bimri/bimri-hook/memfile"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "benchrun:", err)
		os.Exit(1)
	}
}

// bench is one command under test.
type bench struct {
	name  string
	args  []string
	stdin []byte

	direct []time.Duration // wall time of each run in this program's own loop
	times  []time.Duration // the times reported: hyperfine's, or direct
	rss    int64           // peak resident set size, bytes
	rssBy  string          // what measured rss
	timer  string          // what measured times
}

func run() error {
	bin := flag.String("bin", "bin/bimri-hook", "the bimri-hook binary to time")
	full := flag.String("full", "", "folder holding the full bimri.md and bimri-archive.md (from genfull; required)")
	runs := flag.Int("runs", 30, "timed runs of each command")
	today := flag.String("today", "2026-11-29", "BIMRI_TODAY for the hook runs")
	useHyperfine := flag.Bool("hyperfine", true, "time with hyperfine when it is on PATH")
	parent := flag.String("dir", "", "folder to make the workspace in (default: the temp folder); its filesystem sets the cost of fsync")
	flag.Parse()
	if *full == "" {
		return errors.New("-full is required")
	}
	binPath, err := filepath.Abs(*bin)
	if err != nil {
		return err
	}
	memory, err := os.ReadFile(filepath.Join(*full, memfile.MemoryName))
	if err != nil {
		return err
	}
	archive, err := os.ReadFile(filepath.Join(*full, memfile.ArchiveName))
	if err != nil {
		return err
	}

	work, err := os.MkdirTemp(*parent, "bimri-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	ws, home := filepath.Join(work, "proj"), filepath.Join(work, "home")
	transcripts := filepath.Join(home, ".claude", "projects", "-proj")
	if err := os.MkdirAll(transcripts, 0o755); err != nil {
		return err
	}
	if err := os.MkdirAll(ws, 0o755); err != nil {
		return err
	}
	transcript := filepath.Join(transcripts, "bench.jsonl")
	if err := os.WriteFile(transcript, sessionTranscript(), 0o644); err != nil {
		return err
	}
	// The hook's environment: nothing inherited that could point it
	// elsewhere (CLAUDE_PROJECT_DIR of a surrounding session, say).
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "BIMRI_TODAY=" + *today, "CLAUDE_PROJECT_DIR=" + ws}

	hookEvent := func(name string, extra map[string]any) []byte {
		m := map[string]any{"hook_event_name": name, "session_id": "bench", "cwd": ws, "transcript_path": transcript}
		for k, v := range extra {
			m[k] = v
		}
		data, _ := json.Marshal(m)
		return data
	}
	benches := []*bench{
		{name: "cat bimri.md", args: []string{"cat", filepath.Join(ws, memfile.MemoryName)}},
		// The floor: starting the binary and running its package inits,
		// with no memory work at all.
		{name: "bimri-hook version", args: []string{binPath, "version"}},
		{name: "hook SessionStart", args: []string{binPath, "hook"}, stdin: hookEvent("SessionStart", map[string]any{"source": "startup"})},
		{name: "hook SessionEnd", args: []string{binPath, "hook"}, stdin: hookEvent("SessionEnd", map[string]any{"reason": "other"})},
	}
	fresh := func() error {
		for _, p := range []string{filepath.Join(ws, memfile.BackupName), filepath.Join(ws, ".claude")} {
			if err := os.RemoveAll(p); err != nil {
				return err
			}
		}
		if err := os.WriteFile(filepath.Join(ws, memfile.MemoryName), memory, 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(ws, memfile.ArchiveName), archive, 0o644); err != nil {
			return err
		}
		syscall.Sync()
		return nil
	}

	// Each command once, checked: a benchmark of a failing command
	// measures nothing.
	for _, b := range benches {
		if err := fresh(); err != nil {
			return err
		}
		if _, _, err := runOnce(b, env); err != nil {
			return err
		}
	}

	// Our own loop, interleaved so that whatever else the machine does
	// weighs on every command alike. It gives peak memory always, and the
	// times when hyperfine is not used.
	for range *runs {
		for _, b := range benches {
			if err := fresh(); err != nil {
				return err
			}
			d, rss, err := runOnce(b, env)
			if err != nil {
				return err
			}
			b.direct = append(b.direct, d)
			b.rss = max(b.rss, rss)
		}
	}
	for _, b := range benches {
		b.times, b.timer = b.direct, directTimer
		b.rssBy = "getrusage, an upper bound"
	}
	if gnuTime() {
		for range 5 {
			for _, b := range benches {
				if err := fresh(); err != nil {
					return err
				}
				rss, err := rssByTime(b, env)
				if err != nil {
					return err
				}
				if b.rssBy != gnuTimeRSS {
					b.rss, b.rssBy = 0, gnuTimeRSS
				}
				b.rss = max(b.rss, rss)
			}
		}
	}
	if hf, err := exec.LookPath("hyperfine"); err == nil && *useHyperfine {
		if err := timeWithHyperfine(hf, benches, *runs, env, ws, *full); err != nil {
			return err
		}
	}

	report(os.Stdout, benches, memory, archive, *runs, work)
	return nil
}

const directTimer = "benchrun's own loop (direct exec)"

// runOnce runs a command and returns its wall time and peak RSS.
func runOnce(b *bench, env []string) (time.Duration, int64, error) {
	cmd := exec.Command(b.args[0], b.args[1:]...)
	cmd.Env = env
	if b.stdin != nil {
		cmd.Stdin = bytes.NewReader(b.stdin)
	}
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %v: %s", b.name, err, stderr.String())
	}
	return d, maxRSS(cmd.ProcessState), nil
}

const gnuTimeRSS = "GNU time"

// gnuTime says whether /usr/bin/time is GNU time, which can print the
// peak RSS alone.
func gnuTime() bool {
	return exec.Command("/usr/bin/time", "-f", "%M", "true").Run() == nil
}

// rssByTime runs a command under GNU time and returns its peak RSS.
func rssByTime(b *bench, env []string) (int64, error) {
	out, err := os.CreateTemp("", "bimri-bench-rss-")
	if err != nil {
		return 0, err
	}
	out.Close()
	defer os.Remove(out.Name())
	cmd := exec.Command("/usr/bin/time", append([]string{"-f", "%M", "-o", out.Name(), "--"}, b.args...)...)
	cmd.Env = env
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

// timeWithHyperfine replaces the times with hyperfine's, which runs the
// same preparation (a fresh copy and a sync) outside its timing.
func timeWithHyperfine(hf string, benches []*bench, runs int, env []string, ws, full string) error {
	dir, err := os.MkdirTemp("", "bimri-bench-hf-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	prepare := fmt.Sprintf("rm -rf %[1]s/.claude %[1]s/%[3]s && cp %[2]s/%[4]s %[2]s/%[5]s %[1]s/ && sync",
		shellQuote(ws), shellQuote(full), memfile.BackupName, memfile.MemoryName, memfile.ArchiveName)
	out := filepath.Join(dir, "hyperfine.json")
	args := []string{"--warmup", "3", "--runs", fmt.Sprint(runs), "--export-json", out, "--style", "none"}
	for i, b := range benches {
		cmd := strings.Join(quoteAll(b.args), " ")
		if b.stdin != nil {
			in := filepath.Join(dir, fmt.Sprintf("stdin-%d.json", i))
			if err := os.WriteFile(in, b.stdin, 0o644); err != nil {
				return err
			}
			cmd += " < " + shellQuote(in)
		}
		args = append(args, "--prepare", prepare, "--command-name", b.name, cmd)
	}
	cmd := exec.Command(hf, args...)
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("hyperfine: %w", err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		return err
	}
	var res struct {
		Results []struct {
			Command string    `json:"command"`
			Times   []float64 `json:"times"`
		} `json:"results"`
	}
	if err := json.Unmarshal(data, &res); err != nil {
		return fmt.Errorf("hyperfine output: %w", err)
	}
	if len(res.Results) != len(benches) {
		return fmt.Errorf("hyperfine reported %d commands, want %d", len(res.Results), len(benches))
	}
	version := "hyperfine"
	if v, err := exec.Command(hf, "--version").Output(); err == nil {
		version = strings.TrimSpace(string(v))
	}
	for i, r := range res.Results {
		benches[i].times = nil
		for _, s := range r.Times {
			benches[i].times = append(benches[i].times, time.Duration(s*float64(time.Second)))
		}
		benches[i].timer = version + " (through sh, its start-up subtracted)"
	}
	return nil
}

func report(w io.Writer, benches []*bench, memory, archive []byte, runs int, work string) {
	f, _, _ := memfile.Parse(memory)
	recs, _ := memfile.ParseArchive(archive)
	tok := memfile.Estimate(f)
	fmt.Fprintf(w, "full file: bimri.md %.1f KB, ~%d tokens (Tier 1 ~%d, Tier 2 ~%d, Tier 3 ~%d), %d entries, %d patterns; archive %.1f KB, %d records\n",
		float64(len(memory))/1024, tok.Total, tok.Tiers[0], tok.Tiers[1], tok.Tiers[2],
		len(f.Entries(1))+len(f.Entries(2)), len(f.Patterns()), float64(len(archive))/1024, len(recs))
	fmt.Fprintf(w, "%d runs each; times by %s; peak RSS by %s; each run on a fresh copy, copied outside the timing; workspace in %s; %s/%s, %d CPUs\n\n",
		runs, benches[0].timer, benches[0].rssBy, filepath.Dir(work), runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	fmt.Fprintf(w, "%-18s %9s %9s %9s %8s %10s\n", "command", "median", "min", "max", "vs cat", "peak RSS")
	base := median(benches[0].times)
	for _, b := range benches {
		m := median(b.times)
		fmt.Fprintf(w, "%-18s %9s %9s %9s %7.1fx %7.1f MB\n", b.name, ms(m), ms(slices.Min(b.times)), ms(slices.Max(b.times)),
			float64(m)/float64(base), float64(b.rss)/(1<<20))
	}
	if benches[0].timer != directTimer {
		// hyperfine timed them; show the direct loop's medians as well.
		var parts []string
		base := median(benches[0].direct)
		for _, b := range benches {
			m := median(b.direct)
			parts = append(parts, fmt.Sprintf("%s %s (%.1fx)", b.name, ms(m), float64(m)/float64(base)))
		}
		fmt.Fprintf(w, "direct exec, no shell, medians of the same number of runs: %s\n", strings.Join(parts, ", "))
	}
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func quoteAll(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = shellQuote(a)
	}
	return out
}

// sessionTranscript is a modest session for SessionEnd to read: a few
// prompts, file writes and tool output, about 60 KB, and no remember call,
// so SessionEnd also writes its fallback entry.
func sessionTranscript() []byte {
	var b bytes.Buffer
	output := strings.Repeat("ok ", 600)
	for i := range 20 {
		fmt.Fprintf(&b, `{"type":"user","message":{"role":"user","content":"Step %d: tidy module %d and its tests"}}`+"\n", i, i)
		fmt.Fprintf(&b, `{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t%d","name":"Edit","input":{"file_path":"/proj/mod%d.go","old_string":"a","new_string":"b"}}]}}`+"\n", i, i)
		fmt.Fprintf(&b, `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t%d","content":"%s"}]}}`+"\n", i, output)
	}
	return b.Bytes()
}
