package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

// TestErrorShapes pins the contract with Claude Code for failures: exit 1
// (never 2, which would block the session), nothing on stdout, and exactly
// one line on stderr that starts with "bimri-hook: " and names the problem.
func TestErrorShapes(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	t.Setenv("BIMRI_TODAY", "2026-11-29")
	cases := []struct {
		name   string
		args   []string
		stdin  string
		code   int
		stderr string // the whole line, or "" for none
	}{
		{"empty stdin", []string{"hook"}, "", 1, "bimri-hook: hook input is empty: expected one JSON object on stdin"},
		{"invalid JSON", []string{"hook"}, "{not json", 1, "bimri-hook: hook input is not valid JSON"},
		{"JSON array", []string{"hook"}, "[1,2]", 1, "bimri-hook: hook input is not a JSON object"},
		{"no event name", []string{"hook"}, `{"session_id":"x"}`, 1, "bimri-hook: hook input has no hook_event_name"},
		{"relative cwd", []string{"hook"}, `{"hook_event_name":"Stop","cwd":"proj"}`, 1, `bimri-hook: hook input cwd "proj" is not an absolute path`},
		{"too large", []string{"hook"}, `{"p":"` + strings.Repeat("a", 2<<20) + `"}`, 1, "bimri-hook: hook input is larger than 1048576 bytes"},
		{"unknown event", []string{"hook"}, `{"hook_event_name":"FutureEvent"}`, 0, ""},
		{"missing workspace", []string{"hook"}, `{"hook_event_name":"Stop","cwd":"/no/such/folder/anywhere"}`, 1, "bimri-hook: Stop: workspace: stat /no/such/folder/anywhere: no such file or directory"},
		{"importance x", []string{"remember", "--dir", dir, "--importance", "x", "text"}, "", 1, `bimri-hook: --importance "x" is not a whole number from 1 to 5`},
		{"empty text", []string{"remember", "--dir", dir}, "", 1, `bimri-hook: remember needs the entry's text, e.g. bimri-hook remember "Chose SQLite for storage."`},
		{"unknown command", []string{"nope"}, "", 1, `bimri-hook: unknown command "nope" (see bimri-hook --help)`},
		{"bad flag", []string{"show", "--dir", dir, "--frob"}, "", 1, "bimri-hook: usage: flag provided but not defined: -frob (see --help)"},
		{"bad today", []string{"show", "--dir", dir, "--today", "yesterday"}, "", 1, `bimri-hook: --today "yesterday" is not a date (YYYY-MM-DD)`},
		{"search backwards", []string{"search", "--dir", dir, "--since", "2026-12-01", "--until", "2026-11-01", "login"}, "", 1, "bimri-hook: search: --until 2026-11-01 is before --since 2026-12-01: no day is in between"},
		{"search bad day", []string{"search", "--dir", dir, "--since", "last week", "login"}, "", 1, `bimri-hook: search: --since "last week" is not a date (YYYY-MM-DD)`},
		{"search days alone", []string{"search", "--dir", dir, "--since", "2026-12-01"}, "", 1, "bimri-hook: nothing is dated from 2026-12-01 to today in bimri.md or bimri-archive.md"},
		{"search until alone", []string{"search", "--dir", dir, "--until", "Nov 1, 2026"}, "", 1, "bimri-hook: nothing is dated from the first day to Nov 1, 2026 in bimri.md or bimri-archive.md"},
		{"why without ID", []string{"why", "--dir", dir}, "", 1, "bimri-hook: why: missing argument: an entry ID (see bimri-hook show)"},
		{"restore without backup", []string{"restore", "--dir", dir}, "", 1, "bimri-hook: no backup to restore: stat " + filepath.Join(dir, "bimri-backup.md") + ": no such file or directory"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"bimri-hook"}, tc.args...), strings.NewReader(tc.stdin), &stdout, &stderr, time.Now())
			is.Equal(code, tc.code)
			if tc.code != 0 {
				is.Equal(stdout.String(), "") // no half answer on stdout
			}
			want := ""
			if tc.stderr != "" {
				want = tc.stderr + "\n"
			}
			is.Equal(stderr.String(), want)
		})
	}
	// No case above may have created a memory file.
	_, err := os.Stat(filepath.Join(dir, "bimri.md"))
	is.New(t).True(os.IsNotExist(err))
}
