//go:build bimritest

package store

// A test hook, compiled only into binaries built with -tags bimritest
// (the reliability tests build one): BIMRI_TEST_STORE_PAUSE, in
// milliseconds, makes every store sleep between the steps of a write so
// a test can kill the process there. bimri-hook's own builds never read
// it.

import (
	"os"
	"strconv"
	"time"
)

func init() {
	if ms, err := strconv.Atoi(os.Getenv("BIMRI_TEST_STORE_PAUSE")); err == nil && ms > 0 {
		testPause = time.Duration(ms) * time.Millisecond
	}
}
