//go:build bench

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bimri/bimri-hook/internal/config"
	"github.com/matryer/is"
)

// lifesim runs the command as `go run` would and returns its exit code,
// stdout and stderr.
func lifesim(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// TestOutputIsOneLineASessionThenTheSummary runs the command twice and
// compares the bytes, and checks the shape: one line per session, then
// one summary line and one line on how the memory serves the next
// session.
func TestOutputIsOneLineASessionThenTheSummary(t *testing.T) {
	is := is.New(t)
	t.Setenv("BIMRI_TODAY", "")
	t.Setenv(config.EnvVar, "")
	code, out, stderr := lifesim("-sessions", "12", "-per-day", "3", "-seed", "9")
	is.Equal(code, 0)
	is.Equal(stderr, "") // diagnostics only with -verbose
	_, again, _ := lifesim("-sessions", "12", "-per-day", "3", "-seed", "9")
	is.Equal(out, again) // the same seed, the same bytes
	_, other, _ := lifesim("-sessions", "12", "-per-day", "3", "-seed", "10")
	is.True(out != other) // another seed, another mix

	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	is.Equal(len(lines), 21) // 12 sessions, 2 of summary, 7 of serving
	session := regexp.MustCompile(`^session +\d+  2026-01-0\d  T1 +\d+  T2 +\d+  T3 +\d+  total +\d+/6000 \[[#.]{40}\]  archived \d+$`)
	for _, l := range lines[:12] {
		is.True(session.MatchString(l))
	}
	is.True(strings.HasPrefix(lines[0], "session    1  2026-01-01  T1 "))
	is.True(strings.HasPrefix(lines[3], "session    4  2026-01-02  T1 ")) // 3 a day
	is.Equal(lines[12], "12 sessions lived (seed 9, profile claude-code, 3 a day).")
	is.True(strings.HasPrefix(lines[13], "At its largest bimri.md held ~"))
	is.True(strings.Contains(lines[13], " of 10000 characters; "))
	is.Equal(lines[14], "What the next session gets:")
	is.True(strings.HasPrefix(lines[15], "  decisions (importance 5): "))
	is.True(strings.HasPrefix(lines[17], "  lost: 0 of the "))
	for _, l := range lines[12:] {
		is.True(len(l) <= 160) // short lines a person reads, not one of 700 characters
	}
}

// TestFlagsChooseTheRun: -today moves the first day, -profile and
// -config choose the budgets.
func TestFlagsChooseTheRun(t *testing.T) {
	is := is.New(t)
	t.Setenv(config.EnvVar, "")
	code, out, _ := lifesim("-sessions", "4", "-per-day", "3", "-today", "2026-11-29")
	is.Equal(code, 0)
	is.True(strings.HasPrefix(out, "session    1  2026-11-29  "))
	is.True(strings.Contains(out, "\nsession    4  2026-11-30  "))

	code, out, _ = lifesim("-sessions", "3", "-profile", "cowork")
	is.Equal(code, 0)
	is.True(strings.Contains(out, "/15000 ["))

	cfg := filepath.Join(t.TempDir(), "bimri.json")
	is.NoErr(os.WriteFile(cfg, []byte(`{"profile": "cowork"}`), 0o600))
	code, out, _ = lifesim("-sessions", "3", "-config", cfg)
	is.Equal(code, 0)
	is.True(strings.Contains(out, "/15000 ["))
}

// TestMistakesAreOneClearLine: a value out of range, an unknown profile, a
// bad config or date is one line on stderr, exit 1, and nothing lived.
func TestMistakesAreOneClearLine(t *testing.T) {
	t.Setenv(config.EnvVar, "")
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"budget": 1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-sessions", "0"}, "lifesim: -sessions 0 is not from 1 to 1000000\n"},
		{[]string{"-per-day", "0"}, "lifesim: -per-day 0 is not from 1 to 1000\n"},
		{[]string{"-sessions", "3", "-profile", "huge"}, `lifesim: profile "huge" is not one of claude-code, cowork` + "\n"},
		{[]string{"-sessions", "3", "-today", "someday"}, `lifesim: -today "someday" is not a date (YYYY-MM-DD)` + "\n"},
		{[]string{"-sessions", "1", "-config", bad}, `unknown field "budget"`},
		{[]string{"Stop"}, `lifesim: unexpected argument "Stop" (see -help)` + "\n"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			is := is.New(t)
			code, out, stderr := lifesim(tc.args...)
			is.True(code != 0)
			is.Equal(out, "")
			is.True(strings.Contains(stderr, tc.want))
			is.Equal(strings.Count(stderr, "\n"), 1)
		})
	}
}
