// Package slowtest keeps the slow suites (the real clients, crash and
// concurrency, long simulations, any test taking seconds) out of
// `go test ./...`; `make test` and CI run them with BIMRI_SLOW=1. A slow
// test that was asked for and cannot run fails (its set-up calls t.Fatal,
// never t.Skip), so a missing tool is never reported as green.
package slowtest

import (
	"os"
	"testing"
)

const env = "BIMRI_SLOW"

// Gate skips t unless BIMRI_SLOW=1; any value but 1, 0 or none fails t,
// so a typo never turns the suite into a run of skips.
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
