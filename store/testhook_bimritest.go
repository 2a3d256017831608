//go:build bimritest

package store

// A test hook, compiled only with -tags bimritest (the reliability tests
// build one): BIMRI_TEST_STORE_PAUSE (milliseconds) makes every store
// sleep between the steps of a write, so a test can kill it there;
// BIMRI_TEST_STORE_KILL_AT=N kills the process, as kill -9, at the Nth.

import (
	"os"
	"strconv"
	"sync/atomic"
	"time"
)

func init() {
	if ms, err := strconv.Atoi(os.Getenv("BIMRI_TEST_STORE_PAUSE")); err == nil && ms > 0 {
		testPause = time.Duration(ms) * time.Millisecond
	}
	if n, err := strconv.Atoi(os.Getenv("BIMRI_TEST_STORE_KILL_AT")); err == nil && n > 0 {
		var steps atomic.Int64
		testKill = func() {
			if steps.Add(1) == int64(n) {
				if p, err := os.FindProcess(os.Getpid()); err == nil {
					_ = p.Kill() // SIGKILL: no deferred function, nothing after it runs
				}
				select {}
			}
		}
	}
}
