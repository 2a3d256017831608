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
	ms, _ := strconv.Atoi(os.Getenv("BIMRI_TEST_STORE_PAUSE"))
	n, _ := strconv.Atoi(os.Getenv("BIMRI_TEST_STORE_KILL_AT"))
	if ms <= 0 && n <= 0 {
		return
	}
	var steps atomic.Int64
	testKill = func() {
		time.Sleep(time.Duration(max(ms, 0)) * time.Millisecond)
		if steps.Add(1) == int64(n) {
			if p, err := os.FindProcess(os.Getpid()); err == nil {
				_ = p.Kill() // SIGKILL: no deferred function, nothing after it runs
			}
			select {}
		}
	}
}
