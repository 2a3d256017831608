package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

// TestSessionStartFitsWithAHugeGlobalMemory: however large the user's
// global memory grows, SessionStart's one additionalContext stays within
// Claude Code's 10,000-character cap, the global memory comes first, and
// the workspace's own memory still has room.
func TestSessionStartFitsWithAHugeGlobalMemory(t *testing.T) {
	is := is.New(t)
	home, proj := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	t.Setenv("BIMRI_GLOBAL_DIR", "")
	t.Setenv("BIMRI_TODAY", "2026-11-29")
	today, _ := memfile.ParseDate("2026-11-29")

	global := writeGlobal(t, home, today, 80, func(i int) int { return 1 + i%2 }, strings.Repeat("always explain the trade-offs first, ", 5))
	is.True(len(memfile.Render(global)) > 20_000) // twice the cap on its own

	var stdout, stderr bytes.Buffer
	code := run([]string{"bimri-hook", "remember", "--dir", proj, "--tier", "1", "--importance", "5", "A CLI that generates invoices."},
		strings.NewReader(""), &stdout, &stderr, time.Now())
	is.Equal(stderr.String(), "")
	is.Equal(code, 0)

	stdout.Reset()
	payload := fmt.Sprintf(`{"session_id":"s1","hook_event_name":"SessionStart","source":"startup","cwd":%q}`, proj)
	code = run([]string{"bimri-hook", "hook"}, strings.NewReader(payload), &stdout, &stderr, time.Now())
	is.Equal(stderr.String(), "")
	is.Equal(code, 0)
	var out struct {
		HookSpecificOutput struct {
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	is.NoErr(json.Unmarshal(stdout.Bytes(), &out))
	ctx := out.HookSpecificOutput.AdditionalContext

	is.True(memfile.Length(ctx) <= 10_000) // Claude Code's cap
	is.True(memfile.Length(ctx) > 5_000)   // and the room is used
	about := strings.Index(ctx, "## About you (global memory, all workspaces)")
	core := strings.Index(ctx, "## Core intelligence (Tier 1, never decays)")
	is.True(about >= 0)
	is.True(core > about)                                            // global first
	is.True(strings.Contains(ctx, "A CLI that generates invoices.")) // the workspace still shows
	is.True(strings.Contains(ctx, "items left out for space"))
	is.True(strings.Contains(ctx, "## How to use this memory (bimri-hook)"))
}

// TestPromptRecallsWhatTheGlobalMemoryCrowdedOut: a prompt recalls only
// what its session's SessionStart view left out; with a global memory
// taking its share of the room, an entry shown when there is none is
// left out, and a prompt about it must bring it back.
func TestPromptRecallsWhatTheGlobalMemoryCrowdedOut(t *testing.T) {
	is := is.New(t)
	home, proj, empty := t.TempDir(), t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	t.Setenv("BIMRI_GLOBAL_DIR", "")
	t.Setenv("BIMRI_TODAY", "2026-11-29")
	today, _ := memfile.ParseDate("2026-11-29")

	writeGlobal(t, home, today, 40, func(int) int { return 1 }, strings.Repeat("explain the trade-offs first, ", 4))

	// Enough workspace entries that the view cannot show them all, each
	// with a word of its own to ask about.
	words := map[string]string{} // entry text -> its own word
	for i := range 60 {
		word := fmt.Sprintf("quokka%c%c", 'a'+i/26, 'a'+i%26)
		text := fmt.Sprintf("Reworked the %s exporter so it streams rows instead of buffering them all.", word)
		words[text] = word
		var stdout, stderr bytes.Buffer
		code := run([]string{"bimri-hook", "remember", "--dir", proj, "--importance", "3", "--tags", "export", text},
			strings.NewReader(""), &stdout, &stderr, time.Now())
		is.Equal(stderr.String(), "")
		is.Equal(code, 0)
	}
	hook := func(payload string) string {
		var stdout, stderr bytes.Buffer
		code := run([]string{"bimri-hook", "hook"}, strings.NewReader(payload), &stdout, &stderr, time.Now())
		is.Equal(stderr.String(), "")
		is.Equal(code, 0)
		return stdout.String()
	}
	start := `{"session_id":%q,"hook_event_name":"SessionStart","source":"startup","cwd":%q}`
	withGlobal := hook(fmt.Sprintf(start, "s1", proj))
	t.Setenv("BIMRI_GLOBAL_DIR", empty)
	without := hook(fmt.Sprintf(start, "s0", proj)) // another session: s1's start is the one with it
	t.Setenv("BIMRI_GLOBAL_DIR", "")

	// An entry the view shows without the global memory but not with it.
	word := ""
	for text, w := range words {
		if strings.Contains(without, text) && !strings.Contains(withGlobal, text) {
			word = w
			break
		}
	}
	is.True(word != "") // the global memory crowds out some entry

	prompt := fmt.Sprintf(`{"session_id":"s1","hook_event_name":"UserPromptSubmit","cwd":%q,"prompt":"How does the %s exporter handle rows now?"}`, proj, word)
	is.True(strings.Contains(hook(prompt), word)) // recalled: the session never saw it
}

// writeGlobal writes a global memory of n preferences into home, the
// tier of each given by tier, and returns it.
func writeGlobal(t *testing.T, home string, day time.Time, n int, tier func(int) int, text string) *memfile.File {
	t.Helper()
	global := memfile.New(memfile.DefaultConfig())
	for i := range n {
		if _, _, err := global.Add(memfile.NewEntry{Tier: tier(i), Importance: 4, Date: day, Tags: []string{"preference"},
			Text: fmt.Sprintf("Global preference number %d: %s", i, text)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".claude", "bimri-global.md"), memfile.Render(global), 0o644); err != nil {
		t.Fatal(err)
	}
	return global
}
