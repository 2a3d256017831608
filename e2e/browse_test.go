//go:build linux || darwin

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

// TestBrowseInTmux runs `bimri-hook browse` in a real terminal (tmux), as
// a user does: it types keys with send-keys and reads the screen with
// capture-pane. The model's own tests (internal/browse) cover every key;
// this one checks the binary draws in a terminal, pages, searches,
// forgets after a confirmation, and quits.
func TestBrowseInTmux(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Fatalf("browse is tested in tmux, which is not on PATH (.ci/run installs it): %v", err)
	}
	bin := buildBimriHook(t)
	// browse runs bimri-hook-browse from beside bimri-hook, as make
	// install puts them.
	build := exec.Command("go", "build", "-o", filepath.Join(filepath.Dir(bin), "bimri-hook-browse"), "github.com/bimri/bimri-hook/cmd/bimri-hook-browse")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build bimri-hook-browse: %v\n%s", err, out)
	}
	ws, home := t.TempDir(), t.TempDir()
	env := append(os.Environ(), "HOME="+home, "BIMRI_TODAY=2026-11-29", "BIMRI_HOOK_BIN=bimri-hook", "CLAUDE_PROJECT_DIR=")
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env = ws, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("bimri-hook %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	run("remember", "--tier", "1", "--importance", "5", "--tags", "purpose", "A booking service for meeting rooms.")
	run("remember", "--importance", "3", "--tags", "tests", "Added tests for the login flow.")
	run("remember", "--importance", "4", "--tags", "api,decision", "Versioned the API under /v1.")

	// A socket of its own, so the test never meets the user's tmux server.
	sock := filepath.Join(t.TempDir(), "tmux.sock")
	tm := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(tmux, append([]string{"-S", sock}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	script := fmt.Sprintf("cd %q && env HOME=%q BIMRI_TODAY=2026-11-29 BIMRI_HOOK_BIN=bimri-hook TERM=xterm-256color %q browse; echo BROWSE-EXIT=$?; sleep 30",
		ws, home, bin)
	tm("new-session", "-d", "-s", "b", "-x", "110", "-y", "30", script)
	t.Cleanup(func() { exec.Command(tmux, "-S", sock, "kill-server").Run() })
	screen := func() string { return tm("capture-pane", "-t", "b", "-p") }
	// waitFor polls the screen until it holds want: the UI draws
	// asynchronously, and a loaded machine may take a while.
	waitFor := func(want string) string {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for {
			s := screen()
			if strings.Contains(s, want) {
				return s
			}
			if time.Now().After(deadline) {
				t.Fatalf("the screen never showed %q:\n%s", want, s)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	keys := func(k ...string) { tm(append([]string{"send-keys", "-t", "b"}, k...)...) }

	s := waitFor("2 Tier 2 (2)")
	is.True(strings.Contains(s, "> ")) // a row is selected
	keys("1")
	waitFor("Tier 1 never decays")
	keys("2", "/")
	keys("-l", "login")
	keys("Enter")
	s = waitFor("2 Tier 2 (1)")
	is.True(strings.Contains(s, "Added tests for the login flow."))
	keys("f")
	waitFor("? y/n")
	keys("y")
	waitFor("to bimri-archive.md")
	keys("q")
	waitFor("BROWSE-EXIT=0")

	archive, err := os.ReadFile(filepath.Join(ws, "bimri-archive.md"))
	is.NoErr(err)
	is.True(strings.Contains(string(archive), "Added tests for the login flow."))
}
