// Package slowtest keeps the slow suites out of `go test ./...`: the real
// Claude Code (e2e), crash and concurrency (reliability), the simulations
// of many sessions, and any test that takes seconds of its own (a replay,
// a property over hundreds of random files). They run when BIMRI_SLOW=1, which `make test`
// (the README's test command, and CI's) sets, so the everyday loop stays
// fast and nothing is left out of the full run.
//
// Gate only decides whether a slow test was asked for. Once asked for, a
// test that cannot run fails: its own set-up (npm, go build) calls
// t.Fatal, never t.Skip, so a missing tool is never reported as green.
package slowtest

import (
	"os"
	"testing"
)

// env names the switch: "1" runs the slow tests, unset (or "0") skips
// them.
const env = "BIMRI_SLOW"

// Gate skips t unless the slow tests were asked for. Any other value
// fails t, so a typo such as BIMRI_SLOW=yes never turns the suite into
// a run of skips.
func Gate(t testing.TB) {
	t.Helper()
	switch v := os.Getenv(env); v {
	case "1":
	case "", "0":
		t.Skipf("a slow test: %s=1 runs it (make test sets it)", env)
	default:
		t.Fatalf("%s=%q: want 1 (run the slow tests), 0 or unset", env, v)
	}
}
