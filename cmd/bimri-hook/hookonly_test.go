package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// buildHookOnly builds bimri-hook as make build does, with -tags
// hookonly, into a folder of its own, and returns its path.
func buildHookOnly(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "bimri-hook")
	if out, err := exec.Command("go", "build", "-tags", "hookonly", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build -tags hookonly: %v\n%s", err, out)
	}
	return bin
}

// The hook-only build runs the hooks alone and hands every other command
// to bimri-hook-cli beside it, keeping its name in the help and its exit
// status; without bimri-hook-cli it says so in one line.
func TestHookOnlyBuild(t *testing.T) {
	is := is.New(t)
	bin := buildHookOnly(t)
	ws := t.TempDir()
	run := func(stdin string, args ...string) (string, string, int) {
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Stdin = ws, strings.NewReader(stdin)
		cmd.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR="+ws, "BIMRI_TODAY=2026-12-07", "HOME="+t.TempDir())
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if exit := (*exec.ExitError)(nil); errors.As(err, &exit) {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return stdout.String(), stderr.String(), code
	}

	start := `{"session_id":"s1","cwd":"` + ws + `","hook_event_name":"SessionStart","source":"startup"}`
	out, errOut, code := run(start, "hook")
	is.Equal(code, 0)
	is.True(json.Valid([]byte(out))) // the hook needs no bimri-hook-cli
	is.Equal(errOut, "")

	_, errOut, code = run("", "version")
	is.Equal(code, 1)
	is.Equal(errOut, "bimri-hook: every command but hook runs bimri-hook-cli, found neither beside bimri-hook nor on PATH: make install puts both in place (or go install github.com/bimri/bimri-hook/cmd/...@latest)\n")

	cli := filepath.Join(filepath.Dir(bin), "bimri-hook-cli")
	if out, err := exec.Command("go", "build", "-o", cli, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, _, code = run("", "version")
	is.Equal(code, 0)
	is.Equal(out, "bimri-hook "+version+"\n")
	out, _, _ = run("", "--help")
	is.True(strings.Contains(out, "bimri-hook - persistent")) // its name, not bimri-hook-cli's
	is.True(!strings.Contains(out, "bimri-hook-cli"))
	_, errOut, code = run("", "nosuch")
	is.Equal(code, 1)
	is.Equal(errOut, "bimri-hook: unknown command \"nosuch\" (see bimri-hook --help)\n")
}

// What the hook-only build leaves out: text/template's execution, which
// the command line's help printer brings, and whose reflection keeps
// every exported method in the binary (commands_hookonly.go).
func TestHookOnlyBuildLinksNoTemplates(t *testing.T) {
	bin := buildHookOnly(t)
	out, err := exec.Command("go", "tool", "nm", bin).Output()
	if err != nil {
		t.Fatalf("go tool nm: %v", err)
	}
	if strings.Contains(string(out), "text/template.(*state).evalField") {
		t.Error("the hook-only bimri-hook links text/template's execution: something the hooks call reaches the command line")
	}
}
