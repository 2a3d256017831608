package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/internal/slowtest"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
	"github.com/tidwall/gjson"
)

// inputsDir holds the captured hook inputs, found before a test changes
// its folder.
var inputsDir, _ = filepath.Abs(filepath.Join("testdata", "hook-inputs"))

// payload reads a captured hook input and puts it in workspace ws, with
// session ID id.
func payload(t *testing.T, name, ws, id string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(inputsDir, name))
	if err != nil {
		t.Fatal(err)
	}
	s := strings.ReplaceAll(string(data), "/home/dev/proj", ws)
	s = strings.ReplaceAll(s, "/home/dev", filepath.Dir(ws))
	in := gjson.Parse(s)
	return strings.ReplaceAll(s, in.Get("session_id").String(), id)
}

// runAt runs the binary's run with args and stdin in ws on day.
func runAt(t *testing.T, ws, day, stdin string, args ...string) string {
	t.Helper()
	t.Setenv("BIMRI_TODAY", day)
	var stdout, stderr bytes.Buffer
	t.Chdir(ws)
	if code := run(append([]string{"bimri-hook"}, args...), strings.NewReader(stdin), &stdout, &stderr, time.Now()); code != 0 {
		t.Fatalf("bimri-hook %s: exit %d: %s", strings.Join(args, " "), code, stderr.String())
	}
	return stdout.String()
}

func readMemory(t *testing.T, ws string) (*memfile.File, string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(ws, memfile.MemoryName))
	if err != nil {
		t.Fatal(err)
	}
	f, _, err := memfile.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	archive, _ := os.ReadFile(filepath.Join(ws, memfile.ArchiveName))
	return f, string(data) + string(archive)
}

// The payloads captured from Codex 0.171.0, through `hook codex`: the
// memory comes back as SessionStart's additionalContext, and Stop, each
// turn's end, counts the session once.
func TestCodexPayloads(t *testing.T) {
	is := is.New(t)
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	ws := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(ws))
	runAt(t, ws, "2026-12-01", "", "remember", "--importance", "4", "Chose SQLite for the ledger.")

	out := runAt(t, ws, "2026-12-01", payload(t, "codex/SessionStart.json", ws, "c1"), "hook", "codex")
	ctx := gjson.Get(out, "hookSpecificOutput.additionalContext").String()
	is.Equal(gjson.Get(out, "hookSpecificOutput.hookEventName").String(), "SessionStart")
	is.True(strings.Contains(ctx, "Chose SQLite for the ledger."))
	runAt(t, ws, "2026-12-01", payload(t, "codex/UserPromptSubmit.json", ws, "c1"), "hook", "codex")
	for range 2 { // two turns of one session
		out = runAt(t, ws, "2026-12-01", payload(t, "codex/Stop.json", ws, "c1"), "hook", "codex")
		is.True(!strings.Contains(out, "additionalContext")) // Codex's Stop takes none
	}
	f, _ := readMemory(t, ws)
	is.Equal(f.Header.Sessions, 1)
	runAt(t, ws, "2026-12-02", payload(t, "codex/Stop.json", ws, "c2"), "hook", "codex")
	f, _ = readMemory(t, ws)
	is.Equal(f.Header.Sessions, 2)

	// Claude Code's Stop, the same payload without `codex`, counts nothing:
	// its SessionEnd does.
	runAt(t, ws, "2026-12-02", payload(t, "Stop.json", ws, "cc1"), "hook")
	f, _ = readMemory(t, ws)
	is.Equal(f.Header.Sessions, 2)
}

// The payloads captured from the Gemini CLI 0.61.0, through `hook
// gemini`: the memory comes back as SessionStart's additionalContext
// under Gemini's event name, BeforeAgent's prompt is read without the
// context Gemini put before it (no recall of the memory view's own
// words), and SessionEnd counts the session once.
func TestGeminiPayloads(t *testing.T) {
	is := is.New(t)
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	ws := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(ws))
	runAt(t, ws, "2026-12-01", "", "remember", "--importance", "4", "Chose SQLite for the ledger.")

	out := runAt(t, ws, "2026-12-01", payload(t, "gemini/SessionStart.json", ws, "g1"), "hook", "gemini")
	is.Equal(gjson.Get(out, "hookSpecificOutput.hookEventName").String(), "SessionStart")
	is.True(strings.Contains(gjson.Get(out, "hookSpecificOutput.additionalContext").String(), "Chose SQLite for the ledger."))
	out = runAt(t, ws, "2026-12-01", payload(t, "gemini/BeforeAgent.json", ws, "g1"), "hook", "gemini")
	is.True(gjson.Valid(out))
	for range 2 { // Gemini's SessionEnd is once a session; a second changes nothing
		out = runAt(t, ws, "2026-12-01", payload(t, "gemini/SessionEnd.json", ws, "g1"), "hook", "gemini")
		is.True(gjson.Valid(out))
	}
	f, _ := readMemory(t, ws)
	is.Equal(f.Header.Sessions, 1)
	out = runAt(t, ws, "2026-12-01", payload(t, "gemini/PreCompress.json", ws, "g1"), "hook", "gemini")
	is.Equal(strings.TrimSpace(out), "{}")
}

// The payloads captured from the Copilot CLI 1.0.102 (its PascalCase
// events), through `hook copilot`: the memory comes back as a top-level
// additionalContext, which Copilot reads, recall at UserPromptSubmit the
// same way, and SessionEnd counts the session once.
func TestCopilotPayloads(t *testing.T) {
	is := is.New(t)
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	ws := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(ws))
	runAt(t, ws, "2026-12-01", "", "remember", "--importance", "4", "We deploy with blue-green releases.")

	out := runAt(t, ws, "2026-12-01", payload(t, "copilot/SessionStart.json", ws, "p1"), "hook", "copilot")
	is.True(strings.Contains(gjson.Get(out, "additionalContext").String(), "blue-green releases"))
	is.True(!gjson.Get(out, "hookSpecificOutput").Exists())
	out = runAt(t, ws, "2026-12-01", payload(t, "copilot/UserPromptSubmit.json", ws, "p1"), "hook", "copilot")
	is.True(gjson.Valid(out))
	for range 2 { // a second SessionEnd of the session counts nothing
		runAt(t, ws, "2026-12-01", payload(t, "copilot/SessionEnd.json", ws, "p1"), "hook", "copilot")
	}
	f, _ := readMemory(t, ws)
	is.Equal(f.Header.Sessions, 1)
}

// `hook` takes only a client it knows.
func TestHookAgentRefused(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"bimri-hook", "hook", "windsurf"}, strings.NewReader("{}"), &stdout, &stderr, time.Now())
	if code == 0 || !strings.Contains(stderr.String(), `not "windsurf"`) {
		t.Fatalf("hook windsurf: exit %d, %q", code, stderr.String())
	}
}

// Claude Code and Codex take turns on one repository for 20 sessions,
// each driven by its client's captured payloads, each recording one entry
// through the command its hooks teach: every entry of both is kept, in
// bimri.md or its archive, once, and the sessions are counted 20.
func TestClaudeAndCodexAlternate(t *testing.T) {
	slowtest.Gate(t) // a second and a half: make test runs it
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	ws := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(ws))
	start, _ := time.Parse(time.DateOnly, "2026-11-01")
	var texts []string
	for i := range 20 {
		day := start.AddDate(0, 0, i).Format(time.DateOnly)
		id := fmt.Sprintf("session-%02d", i)
		client, args, events := "Claude Code", []string{"hook"}, []string{"SessionStart-startup.json", "UserPromptSubmit.json", "Stop.json", "SessionEnd-other.json"}
		if i%2 == 1 {
			client, args, events = "Codex", []string{"hook", "codex"}, []string{"codex/SessionStart.json", "codex/UserPromptSubmit.json", "codex/Stop.json", "codex/Stop.json"}
		}
		text := fmt.Sprintf("%s decided on module %d's retry policy, number %d.", client, i, i*7)
		texts = append(texts, text)
		t.Setenv("CODEX_THREAD_ID", "") // Claude Code's commands run without it
		if client == "Codex" {
			t.Setenv("CODEX_THREAD_ID", id) // as Codex runs its model's commands
		}
		for j, ev := range events {
			if j == 2 {
				runAt(t, ws, day, "", "remember", "--tags", "retry", text)
			}
			runAt(t, ws, day, payload(t, ev, ws, id), args...)
		}
	}
	f, all := readMemory(t, ws)
	if f.Header.Sessions != 20 {
		t.Errorf("Sessions is %d after 20 sessions", f.Header.Sessions)
	}
	for _, text := range texts {
		if n := strings.Count(all, text); n != 1 {
			t.Errorf("%q is %d times in bimri.md and its archive, want once", text, n)
		}
	}
	// Told apart: Codex's entries say so, Claude Code's carry nothing new.
	for _, e := range append(f.Entries(1), f.Entries(2)...) {
		if want := map[bool]string{true: "codex", false: ""}[strings.HasPrefix(e.Text, "Codex")]; e.Agent != want {
			t.Errorf("%q has agent %q, want %q", e.Text, e.Agent, want)
		}
	}
}
