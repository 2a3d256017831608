//go:build bench

package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/bench/benchwork"
	"github.com/bimri/bimri-hook/memfile"
)

// BenchmarkHookMix runs the hook events in process, weighted roughly as a
// day of real use weighs them: many prompts, Stops and steady
// SessionStarts, a few first-of-day starts and SessionEnds, now and then
// a prompt that recalls and a 10,000-entry file. `make pgo` profiles it
// into default.pgo, the profile `go build` optimises the binary with.
//
// It needs the workspaces bench/genfull makes, under
// $BIMRI_PGO_WORK: full (-dir), big (-tier2-entries 10000) and recall
// (-days 125 -per-day 81); without it, it skips. What it runs depends
// only on those files and -benchtime.
func BenchmarkHookMix(b *testing.B) {
	src := os.Getenv("BIMRI_PGO_WORK")
	if src == "" {
		b.Skip("BIMRI_PGO_WORK is not set (make pgo sets it)")
	}
	// As main sets them for a hook process.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(hookMemoryLimit))

	work := b.TempDir()
	home := filepath.Join(work, "home")
	transcript := filepath.Join(home, ".claude", "projects", "-proj", "pgo.jsonl")
	if err := os.MkdirAll(filepath.Dir(transcript), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(transcript, benchwork.SessionTranscript(), 0o644); err != nil {
		b.Fatal(err)
	}
	b.Setenv("HOME", home)
	b.Setenv("BIMRI_TODAY", "2026-11-29")
	// Set per event by mixWorkspace.hook; restored when the benchmark ends.
	for _, v := range []string{"CLAUDE_PROJECT_DIR", "BIMRI_CONFIG", "CLAUDE_CONFIG_DIR", "BIMRI_GLOBAL_DIR", "BIMRI_HOOK_BIN"} {
		b.Setenv(v, "")
	}

	newWS := func(name, from string) *mixWorkspace {
		w := &mixWorkspace{root: filepath.Join(work, name)}
		if cfg := filepath.Join(src, from, "bimri.json"); fileExists(cfg) {
			w.config = cfg
		}
		w.files = map[string][]byte{}
		for _, f := range []string{memfile.MemoryName, memfile.ArchiveName} {
			data, err := os.ReadFile(filepath.Join(src, from, f))
			if err != nil {
				b.Fatal(err)
			}
			w.files[f] = data
		}
		w.mtimes = map[string]time.Time{}
		for f := range w.files {
			w.mtimes[f] = time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
		}
		w.reset(b)
		return w
	}
	first, steady, big, recall := newWS("first", "full"), newWS("steady", "full"), newWS("big", "big"), newWS("recall", "recall")

	const recallPrompt = "How did we fix the session cache latency in the billing webhook handler?"
	start := map[string]any{"source": "startup"}
	// Steady: SessionStarts until the answer stops changing (every upkeep
	// question asked), then a prompt of another session builds the recall
	// index; as benchrun primes its steady workspace.
	for _, w := range []*mixWorkspace{steady, recall} {
		last := ""
		for range 40 {
			out := w.hook(b, mixEvent(w, transcript, "SessionStart", start))
			if out == last {
				break
			}
			last = out
		}
		w.hook(b, mixEvent(w, transcript, "UserPromptSubmit", map[string]any{"prompt": recallPrompt, "session_id": "prime"}))
		w.save(b)
	}

	type step struct {
		name  string
		ws    *mixWorkspace
		input []byte
		times int
	}
	prompt := func(w *mixWorkspace, text string) []byte {
		return mixEvent(w, transcript, "UserPromptSubmit", map[string]any{"prompt": text})
	}
	// One round: a few sessions' worth of events on the full file, one
	// prompt in four recalling. The 10,000-entry file's two events cost
	// nearly as much as the rest of a round, so they come every fourth
	// round: about a sixth of the profile, not most of it.
	round := []step{
		{"SessionStart first", first, mixEvent(first, transcript, "SessionStart", start), 1},
		{"SessionStart steady", steady, mixEvent(steady, transcript, "SessionStart", start), 3},
		{"SessionStart new", steady, mixEvent(steady, transcript, "SessionStart", map[string]any{"source": "startup", "session_id": "pgo-new"}), 2},
		{"UserPromptSubmit", steady, prompt(steady, "Add a retry to the upload loop and test it"), 9},
		{"recall UserPrompt", recall, prompt(recall, recallPrompt), 3},
		{"Stop", steady, mixEvent(steady, transcript, "Stop", map[string]any{"stop_hook_active": true}), 8},
		{"SessionEnd", first, mixEvent(first, transcript, "SessionEnd", map[string]any{"reason": "other"}), 2},
	}
	bigRound := []step{
		{"big SessionStart", big, mixEvent(big, transcript, "SessionStart", start), 1},
		{"big SessionEnd", big, mixEvent(big, transcript, "SessionEnd", map[string]any{"reason": "other"}), 1},
	}
	profile := os.Getenv("BIMRI_PGO_PROFILE")
	var cpu bytes.Buffer
	if profile != "" {
		// Started here, not by go test -cpuprofile, so the profile holds
		// the events and not the set-up above.
		if err := pprof.StartCPUProfile(&cpu); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := range b.N {
		steps := round
		if i%4 == 3 {
			steps = append(steps[:len(steps):len(steps)], bigRound...)
		}
		for _, s := range steps {
			for range s.times {
				s.ws.reset(b)
				// The label tells the events apart in the profile:
				// go tool pprof -tags cmd/bimri-hook/default.pgo
				pprof.Do(context.Background(), pprof.Labels("event", s.name), func(context.Context) {
					s.ws.hook(b, s.input)
				})
			}
		}
	}
	if profile != "" {
		pprof.StopCPUProfile()
		data, err := pathless(cpu.Bytes())
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(profile, data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// pathless returns the CPU profile prof (gzipped profile.proto) with
// every absolute path in its string table cut to its last element: the
// only one there is the test binary's, in a temporary build folder, and a
// committed file carries no machine's paths. PGO reads function names
// and line offsets, which stay as they are. Built with -trimpath, the
// source files are already module paths.
func pathless(prof []byte) ([]byte, error) {
	var out bytes.Buffer
	err := eachProfileField(prof, func(field uint64, value []byte) {
		if field == profileStringTable && strings.HasPrefix(string(value), "/") {
			value = []byte(path.Base(string(value)))
		}
		out.Write(binary.AppendUvarint(nil, field<<3|2))
		out.Write(binary.AppendUvarint(nil, uint64(len(value))))
		out.Write(value)
	}, func(tag uint64, varint uint64) {
		out.Write(binary.AppendUvarint(nil, tag))
		out.Write(binary.AppendUvarint(nil, varint))
	})
	if err != nil {
		return nil, err
	}
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write(out.Bytes())
	if err := w.Close(); err != nil {
		return nil, err
	}
	return z.Bytes(), nil
}

// profileStringTable is the string_table field of profile.proto's Profile.
const profileStringTable = 6

// eachProfileField walks the top-level fields of a gzipped profile.proto
// (all of them length-delimited or varints, as runtime/pprof writes it):
// bytes gives each length-delimited one, varint each other one with its
// whole tag.
func eachProfileField(prof []byte, bytesField func(field uint64, value []byte), varint func(tag, value uint64)) error {
	r, err := gzip.NewReader(bytes.NewReader(prof))
	if err != nil {
		return err
	}
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	for len(raw) > 0 {
		tag, n := binary.Uvarint(raw)
		if n <= 0 {
			return errors.New("profile: bad field tag")
		}
		raw = raw[n:]
		switch tag & 7 {
		case 0:
			v, n := binary.Uvarint(raw)
			if n <= 0 {
				return errors.New("profile: bad varint")
			}
			raw = raw[n:]
			varint(tag, v)
		case 2:
			size, n := binary.Uvarint(raw)
			if n <= 0 || size > uint64(len(raw)-n) {
				return errors.New("profile: bad length")
			}
			bytesField(tag>>3, raw[n:n+int(size)])
			raw = raw[n+int(size):]
		default:
			return fmt.Errorf("profile: wire type %d not expected at the top level", tag&7)
		}
	}
	return nil
}

// TestDefaultPGOHasNoPaths keeps machine paths out of the committed
// profile (make pgo writes it through pathless) and checks it still
// reads as a profile.
func TestDefaultPGOHasNoPaths(t *testing.T) {
	prof, err := os.ReadFile("default.pgo")
	if errors.Is(err, fs.ErrNotExist) {
		t.Skip("no default.pgo")
	}
	if err != nil {
		t.Fatal(err)
	}
	var names int
	err = eachProfileField(prof, func(field uint64, value []byte) {
		if field != profileStringTable {
			return
		}
		names++
		if strings.HasPrefix(string(value), "/") || strings.Contains(string(value), "/tmp/") || strings.Contains(string(value), "/home/") {
			t.Errorf("default.pgo holds a path: %q", value)
		}
	}, func(uint64, uint64) {})
	if err != nil {
		t.Fatal(err)
	}
	if names < 100 {
		t.Errorf("default.pgo's string table has %d strings; a profile of the hooks has hundreds", names)
	}
}

// TestPathless checks that a profile through pathless keeps no absolute
// path (the binary's name stays) and still reads as a profile.
func TestPathless(t *testing.T) {
	var cpu bytes.Buffer
	if err := pprof.StartCPUProfile(&cpu); err != nil {
		t.Skip("a CPU profile is already running:", err)
	}
	pprof.StopCPUProfile()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out, err := pathless(cpu.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	var before, after []string
	collect := func(into *[]string) func(uint64, []byte) {
		return func(field uint64, value []byte) {
			if field == profileStringTable {
				*into = append(*into, string(value))
			}
		}
	}
	if err := eachProfileField(cpu.Bytes(), collect(&before), func(uint64, uint64) {}); err != nil {
		t.Fatal(err)
	}
	if err := eachProfileField(out, collect(&after), func(uint64, uint64) {}); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(before, exe) {
		if runtime.GOOS != "linux" {
			t.Skip("this platform's profile names no binary")
		}
		t.Fatalf("the profile does not name the test binary %q: nothing to cut (strings: %q)", exe, before)
	}
	if len(after) != len(before) {
		t.Fatalf("pathless kept %d strings of %d", len(after), len(before))
	}
	for _, s := range after {
		if strings.HasPrefix(s, "/") {
			t.Errorf("pathless left a path: %q", s)
		}
	}
	if !slices.Contains(after, filepath.Base(exe)) {
		t.Errorf("pathless lost the binary's name %q", filepath.Base(exe))
	}
}

// mixWorkspace is a workspace BenchmarkHookMix puts back before each
// event, so every run of an event does the same work.
type mixWorkspace struct {
	root, config string
	files        map[string][]byte
	mtimes       map[string]time.Time
}

func (w *mixWorkspace) reset(b *testing.B) {
	// Files an event left alone (same size and time) stay: rewriting the
	// recall archive's 2.5 MB before every prompt would put the copy in
	// the profile.
	err := filepath.WalkDir(w.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(w.root, p)
		data, kept := w.files[filepath.ToSlash(rel)]
		if info, err := d.Info(); kept && err == nil && info.Size() == int64(len(data)) && info.ModTime().Equal(w.mtimes[filepath.ToSlash(rel)]) {
			return nil
		}
		return os.Remove(p)
	})
	if err != nil && !os.IsNotExist(err) {
		b.Fatal(err)
	}
	for rel, data := range w.files {
		p := filepath.Join(w.root, filepath.FromSlash(rel))
		if fileExists(p) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			b.Fatal(err)
		}
		// The recall index is keyed on the archive's size and time.
		t := w.mtimes[rel]
		if err := os.Chtimes(p, t, t); err != nil {
			b.Fatal(err)
		}
	}
}

func (w *mixWorkspace) save(b *testing.B) {
	files, err := benchwork.Take(w.root)
	if err != nil {
		b.Fatal(err)
	}
	w.files, w.mtimes = files.Data, files.MTimes
}

// hook runs `bimri-hook hook` in process on w and returns its stdout.
func (w *mixWorkspace) hook(b *testing.B, input []byte) string {
	os.Setenv("CLAUDE_PROJECT_DIR", w.root)
	os.Setenv("BIMRI_CONFIG", w.config)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"bimri-hook", "hook"}, bytes.NewReader(input), &stdout, &stderr, time.Time{}); code != exitOK {
		b.Fatalf("hook exited %d: %s", code, stderr.String())
	}
	return stdout.String()
}

func mixEvent(w *mixWorkspace, transcript, name string, extra map[string]any) []byte {
	m := map[string]any{"hook_event_name": name, "session_id": "pgo", "cwd": w.root, "transcript_path": transcript}
	for k, v := range extra {
		m[k] = v
	}
	data, _ := json.Marshal(m)
	return data
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
