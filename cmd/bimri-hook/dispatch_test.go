package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/wiring"
	"github.com/matryer/is"
)

// `bimri-hook hook` is dispatched without building the CLI; given any
// flag it goes through the CLI. Both answer the same, and both report an
// error the same way.
func TestHookDispatch(t *testing.T) {
	is := is.New(t)
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	t.Setenv("BIMRI_TODAY", "2026-11-29")
	t.Setenv("HOME", t.TempDir())
	hook := func(ws string, args []string, input string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"bimri-hook"}, args...), strings.NewReader(input), &stdout, &stderr, time.Now())
		return code, stdout.String(), strings.ReplaceAll(stderr.String(), ws, "WS")
	}
	var answers []string
	for _, args := range [][]string{{"hook"}, {"hook", "--today", "2026-11-29"}} {
		ws := t.TempDir()
		is.NoErr(os.WriteFile(filepath.Join(ws, "bimri.md"), []byte("# BIMRI Memory\n\n## Tier 1: Core Intelligence\n\n[IMPORTANCE:5] [TIMESTAMP:2026-11-20] [TAGS:product]\nA CLI that generates invoices.\n\n## Tier 2: Active Context\n\n## Tier 3: Pattern Recognition\n\n<!-- END BIMRI -->\n"), 0o644))
		in := fmt.Sprintf(`{"hook_event_name":"SessionStart","session_id":"s","cwd":%q,"source":"startup"}`, ws)
		code, out, errOut := hook(ws, args, in)
		is.Equal(code, 0)
		is.Equal(errOut, "")
		answers = append(answers, strings.ReplaceAll(out, ws, "WS"))
		code, out, errOut = hook(ws, args, `{"cwd":"relative"}`)
		is.Equal(code, 1)
		is.Equal(out, "")
		is.Equal(errOut, "bimri-hook: hook input has no hook_event_name\n")
	}
	is.True(strings.Contains(answers[0], "generates invoices"))
	is.Equal(answers[0], answers[1])
}

// Every subcommand the hooks teach the agent (wiring.MemoryCommands, the
// list the plugin's approval follows) is a command of the binary.
func TestMemoryCommandsAreCommands(t *testing.T) {
	var cmds []string
	for _, c := range (&app{now: time.Now()}).cli().Commands {
		cmds = append(cmds, c.Name)
	}
	for _, name := range wiring.MemoryCommands {
		if !slices.Contains(cmds, name) {
			t.Errorf("wiring.MemoryCommands names %q, which is not a command", name)
		}
	}
}
