// Command bimri-hook gives Claude Code persistent memory: one bimri.md per
// workspace, injected at session start and maintained at session end.
// main only wires; run does the work and returns the exit code.
//
// Each of its commands lives milliseconds to seconds, most of them hooks,
// so the runtime sizes itself to a container's CPU limit once, at start,
// and leaves no goroutine to follow the limit as it changes.
//
//go:debug updatemaxprocs=0
package main

import (
	"os"
	"time"
)

// version is the release; `make build` may override it with -ldflags, and
// a test keeps it equal to the VERSION file the plugin manifest follows.
var version = "0.1.0"

func main() {
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr, time.Now()))
}
