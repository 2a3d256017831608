// Command bimri-hook gives Claude Code persistent memory: one bimri.md per
// workspace, injected at session start and maintained at session end.
// main only wires; run does the work and returns the exit code.
package main

import (
	"os"
	"runtime/debug"
	"time"
)

// version is the release; `make build` may override it with -ldflags, and
// a test keeps it equal to the VERSION file the plugin manifest follows.
var version = "0.1.0"

func main() {
	if isHookRun(os.Args) {
		tuneGCForHook()
	}
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr, time.Now()))
}

// tuneGCForHook sets the collector for a process that handles one event.
// A hook lives a few milliseconds and exits, which frees all its memory:
// a collection during it is work for nothing. At GOGC 400 a hook on an
// ordinary file never collects, one on a 10,000-entry file collects a
// few times less (docs/performance.md: without it, such a hook takes
// 1.15-1.3x the CPU). The limit bounds the peak of the largest files.
func tuneGCForHook() {
	debug.SetGCPercent(400)
	debug.SetMemoryLimit(hookMemoryLimit)
}

// hookMemoryLimit must stay well above the live heap of the largest files
// a hook accepts: at the limit the collector runs over and over. A recall
// prompt over a 64 MiB archive and a 16 MiB bimri.md holds about 170 MB;
// under a 128 MiB limit it collected 740 times, 23 s against 6.6 s at the
// default, past the prompt's 10 s timeout. At 512 MiB: 7.6 s, peak 526 MB.
const hookMemoryLimit = 512 << 20
