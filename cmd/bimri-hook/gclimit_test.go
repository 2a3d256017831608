package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/internal/slowtest"
	"github.com/bimri/bimri-hook/memfile"
)

// A hook under its own collector settings (tuneGCForHook) on a bimri.md
// as large as a store accepts must collect a handful of times, not
// without end: a memory limit at or under the live heap of such a file
// makes the collector run over and over (a 128 MiB limit once made a
// recall prompt collect 740 times, past its timeout). Slow: it builds
// and reads a 16 MiB file.
func TestHookOnTheLargestFileCollectsAFewTimes(t *testing.T) {
	slowtest.Gate(t)
	dir := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_PROJECT_DIR", dir)
	t.Setenv("BIMRI_CONFIG", "")
	data := largestMemory(t)
	if err := os.WriteFile(filepath.Join(dir, memfile.MemoryName), data, 0o644); err != nil {
		t.Fatal(err)
	}
	in, _ := json.Marshal(map[string]any{"hook_event_name": "SessionStart", "session_id": "s", "cwd": dir, "source": "startup"})

	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	runtime.GC()
	tuneGCForHook()
	before := numGC()
	var stdout, stderr bytes.Buffer
	code := run([]string{"bimri-hook", "hook"}, bytes.NewReader(in), &stdout, &stderr, time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	collections := numGC() - before
	if code != 0 {
		t.Fatalf("hook exited %d: %s", code, stderr.String())
	}
	// Measured: 4 collections on this 16 MiB file at the settings, some
	// hundreds under a limit near the live heap.
	if collections > 40 {
		t.Fatalf("the hook collected %d times on a %d MiB bimri.md: the memory limit (%d MiB) is too near its live heap", collections, len(data)>>20, hookMemoryLimit>>20)
	}
	t.Logf("%d collections on a %.1f MiB bimri.md", collections, float64(len(data))/(1<<20))
}

// largestMemory is a bimri.md of Tier 2 entries just under
// memfile.MaxMemorySize.
func largestMemory(t *testing.T) []byte {
	f := memfile.New(memfile.DefaultConfig())
	day := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
	size := 0
	for i := 0; size < memfile.MaxMemorySize-(1<<20); i++ {
		e := &memfile.Entry{
			ID:         fmt.Sprintf("%08x", i),
			Importance: 1 + i%9,
			Date:       day.AddDate(0, 0, -(i % 60)),
			Tags:       []string{"load", fmt.Sprintf("t%d", i%40)},
			Text:       fmt.Sprintf("Entry %d of the largest file: a summary about as long as the ones a session records, with some words.", i),
		}
		f.Tiers[1].Blocks = append(f.Tiers[1].Blocks, memfile.Block{Entry: e})
		size += 190
	}
	data := memfile.Render(f)
	if len(data) > memfile.MaxMemorySize {
		t.Fatalf("the file is %d bytes, over the %d a store accepts", len(data), memfile.MaxMemorySize)
	}
	return data
}

func numGC() uint32 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.NumGC
}
