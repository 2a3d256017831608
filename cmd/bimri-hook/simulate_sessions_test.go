package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

// TestSimulateSessionsOutput runs the command twice and compares the bytes,
// and checks the shape: one line per session, then one summary line and
// one line on how the memory serves the next session.
func TestSimulateSessionsOutput(t *testing.T) {
	is := is.New(t)
	t.Setenv("BIMRI_TODAY", "")
	simulate := func() string {
		var stdout, stderr bytes.Buffer
		code := run([]string{"bimri-hook", "simulate", "--sessions", "12", "--per-day", "3", "--seed", "9"}, strings.NewReader(""), &stdout, &stderr, time.Now())
		is.Equal(code, exitOK)
		is.Equal(stderr.String(), "") // diagnostics only with --verbose
		return stdout.String()
	}
	out := simulate()
	is.Equal(out, simulate())

	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	is.Equal(len(lines), 14)
	is.True(strings.HasPrefix(lines[0], "session    1  2026-01-01  T1 "))
	is.True(strings.HasPrefix(lines[3], "session    4  2026-01-02  T1 ")) // 3 a day
	is.True(strings.Contains(lines[0], "/6000 ["))
	is.True(strings.HasPrefix(lines[12], "12 sessions (seed 9, profile claude-code, 3 a day): largest total ~"))
	is.True(strings.Contains(lines[12], " of 10000 characters; "))
	is.True(strings.HasPrefix(lines[13], "the next session: decisions (importance 5): "))
	is.True(strings.Contains(lines[13], "; lost: 0 of "))
}
