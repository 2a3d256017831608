//go:build linux || darwin

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// stopTUI ends the tmux server and waits, up to 10 s, for what its pane
// ran to exit: a client still exiting writes to HOME while the test's
// temporary folders are removed, which then fail as not empty. The
// pane's processes are read from /proc (Linux); elsewhere it only ends
// the server.
func stopTUI(tmux, sock string) {
	out, _ := exec.Command(tmux, "-S", sock, "display-message", "-p", "-t", "c", "#{pane_pid}").Output()
	pids := strings.Fields(string(out))
	if len(pids) == 1 {
		children, _ := os.ReadFile("/proc/" + pids[0] + "/task/" + pids[0] + "/children")
		pids = append(pids, strings.Fields(string(children))...)
	}
	exec.Command(tmux, "-S", sock, "kill-server").Run()
	running := func(pid string) bool {
		stat, err := os.ReadFile("/proc/" + pid + "/stat")
		return err == nil && !strings.Contains(string(stat), ") Z ") // a zombie writes nothing
	}
	for deadline := time.Now().Add(10 * time.Second); slices.ContainsFunc(pids, running) && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
	}
}

// tuiSession runs the interactive client in tmux against api, in s,
// types prompt, and returns the screen once it holds want (or fails).
func tuiSession(t *testing.T, s *Sandbox, prompt, want string) string {
	t.Helper()
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Fatalf("the TUI is measured in tmux, which is not on PATH: %v", err)
	}
	// The interactive client asks once whether to use a key from the
	// environment; a user who said yes has it in ~/.claude.json.
	path := filepath.Join(s.Home, ".claude.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	if err := json.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	cfg["customApiKeyResponses"] = map[string]any{"approved": []string{"test"}, "rejected": []string{}}
	writeJSONFile(t, path, cfg)
	sock := filepath.Join(t.TempDir(), "tmux.sock")
	tm := func(args ...string) string {
		out, err := exec.Command(tmux, append([]string{"-S", sock}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	script := fmt.Sprintf("cd %q && env -i HOME=%q PATH=%q ANTHROPIC_BASE_URL=%q ANTHROPIC_API_KEY=test CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 TMPDIR=%q LANG=C.UTF-8 TERM=xterm-256color %q; sleep 60",
		s.Workspace, s.Home, minimalPath, s.API.URL, clientTmp, s.Claude)
	tm("new-session", "-d", "-s", "c", "-x", "160", "-y", "50", script)
	t.Cleanup(func() { stopTUI(tmux, sock) })
	waitScreen := func(want string, d time.Duration) string {
		deadline := time.Now().Add(d)
		for {
			sc := tm("capture-pane", "-t", "c", "-p", "-S", "-200")
			if strings.Contains(sc, want) {
				return sc
			}
			if time.Now().After(deadline) {
				t.Fatalf("the TUI never showed %q:\n%s", want, sc)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	waitScreen("❯", 60*time.Second) // the prompt box
	time.Sleep(2 * time.Second)
	tm("send-keys", "-t", "c", "-l", prompt)
	time.Sleep(500 * time.Millisecond)
	tm("send-keys", "-t", "c", "Enter")
	sc := waitScreen(want, 90*time.Second)
	time.Sleep(8 * time.Second) // the hooks after the turn, and what they show
	return tm("capture-pane", "-t", "c", "-p", "-S", "-200") + "\n(first seen)\n" + sc
}

// TestMeasureHookOutputsInTUI: what does the interactive client (2.1.332)
// show the user for each shape of a Stop answer? Each variant answers the
// first Stop with it and the next ({"stop_hook_active":true}) with {}; the
// screen is logged, and what each variant shows of the short text (for
// the user) and of the detail (for the model) is asserted.
func TestMeasureHookOutputsInTUI(t *testing.T) {
	// Measured on 2.1.332: additionalContext is shown whole ("Stop hook
	// says: ..."), suppressOutput or not; a block shows "Stop hook
	// reported a problem" and then its reason; a systemMessage is shown as
	// one line ("Stop says: ..."). So bimri-hook's nudge is one line of
	// additionalContext (no "problem"), and what it tells the user one
	// systemMessage line.
	const context, problem, short = "Stop hook says: DETAIL-FOR-MODEL please record", "Stop hook reported a problem", "Stop says: SHORT-FOR-USER"
	variants := []struct {
		name, answer  string
		shown, hidden []string
	}{
		{"context", `{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"DETAIL-FOR-MODEL please record"}}`, []string{context}, []string{problem}},
		{"context+message", `{"systemMessage":"SHORT-FOR-USER","hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"DETAIL-FOR-MODEL please record"}}`, []string{short, context}, nil},
		{"context+suppress", `{"suppressOutput":true,"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"DETAIL-FOR-MODEL please record"}}`, []string{context}, nil},
		{"block", `{"decision":"block","reason":"DETAIL-FOR-MODEL please record"}`, []string{problem, "DETAIL-FOR-MODEL please record"}, nil},
		{"block+message", `{"decision":"block","reason":"DETAIL-FOR-MODEL please record","systemMessage":"SHORT-FOR-USER"}`, []string{short, problem, "DETAIL-FOR-MODEL please record"}, nil},
		{"message", `{"systemMessage":"SHORT-FOR-USER"}`, []string{short}, []string{problem}},
	}
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			t.Parallel()
			turns := 0
			api := newFakeAPI(t, func(r Recorded) Reply {
				if !r.IsMain() {
					return Reply{}
				}
				turns++
				if strings.Contains(r.NewText(), "DETAIL-FOR-MODEL") {
					return TextReply("SECOND-TURN-DONE")
				}
				return TextReply("FIRST-TURN-DONE")
			})
			s := newSandbox(t, api)
			dir := t.TempDir()
			hook := filepath.Join(dir, "stop.sh")
			script := "#!/bin/sh\nin=$(cat)\ncase $in in\n*'\"stop_hook_active\":true'*) printf '{}\\n' ;;\n*) printf '%s\\n' '" + v.answer + "' ;;\nesac\n"
			if err := os.WriteFile(hook, []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			s.WriteProjectSettings(t, hookSettings(func(string) string { return hook }, "Stop"))
			want := "FIRST-TURN-DONE"
			if v.name != "message" {
				want = "SECOND-TURN-DONE"
			}
			sc := tuiSession(t, s, "hello", want)
			t.Logf("measured: Stop answer %s shows the user:\n%s", v.answer, sc)
			for _, want := range v.shown {
				if !strings.Contains(sc, want) {
					t.Errorf("the user was not shown %q", want)
				}
			}
			for _, not := range v.hidden {
				if strings.Contains(sc, not) {
					t.Errorf("the user was shown %q", not)
				}
			}
		})
	}
}

// TestMeasureStartAndPromptOutputsInTUI: what does the interactive client
// (2.1.332) show the user of a SessionStart or UserPromptSubmit answer?
// The memory goes to the model as additionalContext; what bimri-hook
// tells the user (a conversion notice, a restored backup) as a
// systemMessage. The screen is logged, and each variant asserts what it
// shows of the text for the model and of the line for the user.
func TestMeasureStartAndPromptOutputsInTUI(t *testing.T) {
	const detail, short = "DETAIL-FOR-MODEL", "SHORT-FOR-USER"
	variants := []struct {
		event, name, answer string
		shown, hidden       []string
	}{
		{"SessionStart", "context", `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"DETAIL-FOR-MODEL line one\nline two"}}`, nil, []string{detail}},
		{"SessionStart", "context+message", `{"systemMessage":"SHORT-FOR-USER","hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"DETAIL-FOR-MODEL line one\nline two"}}`, []string{short}, []string{detail}},
		{"UserPromptSubmit", "context", `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"DETAIL-FOR-MODEL line one\nline two"}}`, nil, []string{detail}},
		{"UserPromptSubmit", "context+message", `{"systemMessage":"SHORT-FOR-USER","hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"DETAIL-FOR-MODEL line one\nline two"}}`, []string{short}, []string{detail}},
	}
	for _, v := range variants {
		t.Run(v.event+"/"+v.name, func(t *testing.T) {
			t.Parallel()
			var sawDetail atomic.Bool
			api := newFakeAPI(t, func(r Recorded) Reply {
				if !r.IsMain() {
					return Reply{}
				}
				if strings.Contains(string(r.Body), "DETAIL-FOR-MODEL") {
					sawDetail.Store(true)
				}
				return TextReply("TURN-DONE")
			})
			s := newSandbox(t, api)
			hook := filepath.Join(t.TempDir(), "hook.sh")
			script := "#!/bin/sh\ncat >/dev/null\nprintf '%s\\n' '" + v.answer + "'\n"
			if err := os.WriteFile(hook, []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			s.WriteProjectSettings(t, hookSettings(func(string) string { return hook }, v.event))
			sc := tuiSession(t, s, "hello", "TURN-DONE")
			t.Logf("measured: %s answer %s shows the user:\n%s", v.event, v.answer, sc)
			if !sawDetail.Load() {
				t.Errorf("the model did not get the additionalContext")
			}
			for _, want := range v.shown {
				if !strings.Contains(sc, want) {
					t.Errorf("the user was not shown %q", want)
				}
			}
			for _, not := range v.hidden {
				if strings.Contains(sc, not) {
					t.Errorf("the user was shown %q", not)
				}
			}
		})
	}
}
