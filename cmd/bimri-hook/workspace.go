package main

import (
	"slices"
	"time"

	"github.com/bimri/bimri-hook/internal/config"
	"github.com/bimri/bimri-hook/internal/record"
	"github.com/bimri/bimri-hook/internal/workspace"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
	"github.com/bimri/bimri-hook/wiring"
	"github.com/urfave/cli/v2"
)

// openedWorkspace is everything a command needs about where it works.
type openedWorkspace struct {
	store  *store.Store
	config config.Config
	now    time.Time // today, as the clock or --today says
}

// resolveRoot is the workspace a command works on (workspace.Root).
func resolveRoot(c *cli.Context, inputCwd string) (string, error) {
	return workspace.Root(inputCwd, commonFlag(c, "dir", ""))
}

// openWorkspace opens the workspace's store, or with --global the user's;
// a config that does not load fails the command.
func (a *app) openWorkspace(c *cli.Context) (*openedWorkspace, error) {
	root, err := resolveRoot(c, "")
	if err != nil {
		return nil, err
	}
	ws, cfgErr, err := a.openAt(c, root, root)
	switch {
	case err != nil:
		return nil, err
	case cfgErr != nil:
		return nil, cfgErr
	case c.Bool("global"):
		ws.store, err = workspace.GlobalStore(ws.config, a.clock)
	}
	return ws, err
}

// file reads the memory without the lock.
func (ws *openedWorkspace) file() (*memfile.File, error) {
	read, err := ws.store.Read()
	return read.File, err
}

// openAt opens the store at dir (simulate's copy) with root's config, or
// the defaults and cfgErr, why it did not load.
func (a *app) openAt(c *cli.Context, root, dir string) (*openedWorkspace, error, error) {
	cfg, cfgErr := config.Load(configPath(c), root)
	if c != nil && slices.Contains(wiring.MemoryCommands, c.Command.Name) { // the agent's: it waits longer
		cfg.Hooks.LockTimeout = max(cfg.Hooks.LockTimeout, record.AgentLockWait)
	}
	today, err := workspace.Today(commonFlag(c, "today", "BIMRI_TODAY"))
	if err != nil {
		return nil, nil, err
	}
	if today.IsZero() {
		today = time.Date(a.now.Year(), a.now.Month(), a.now.Day(), 0, 0, 0, 0, time.UTC)
	}
	store, err := workspace.Open(dir, cfg, a.clock, today)
	if err != nil {
		return nil, nil, err
	}
	return &openedWorkspace{store: store, config: cfg, now: today}, cfgErr, nil
}

// clock is the process's wall clock, read once at start.
func (a *app) clock() time.Time { return a.now }
