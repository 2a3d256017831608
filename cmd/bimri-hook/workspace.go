package main

import (
	"slices"
	"time"

	"github.com/bimri/bimri-hook/internal/record"
	"github.com/bimri/bimri-hook/internal/workspace"
	"github.com/bimri/bimri-hook/wiring"
	"github.com/urfave/cli/v2"
)

// resolveRoot is the workspace a command works on (workspace.Root).
func resolveRoot(c *cli.Context, inputCwd string) (string, error) {
	return workspace.Root(inputCwd, commonFlag(c, "dir", ""))
}

// openAt opens the store at dir (simulate's copy) with root's config, or
// the defaults and ws.ConfigErr, why it did not load.
func (a *app) openAt(c *cli.Context, root, dir string) (*workspace.Opened, error) {
	today, err := workspace.Today(commonFlag(c, "today", "BIMRI_TODAY"))
	if err != nil {
		return nil, err
	}
	q := workspace.Request{Root: root, Dir: dir, Config: configPath(c), Today: today, Global: c != nil && c.Bool("global"), Lenient: true}
	if c != nil && slices.Contains(wiring.MemoryCommands, c.Command.Name) { // the agent's: it waits longer
		q.LockWait = record.AgentLockWait
	}
	return workspace.Open(q, a.clock)
}

// clock is the process's wall clock, read once at start.
func (a *app) clock() time.Time { return a.now }
