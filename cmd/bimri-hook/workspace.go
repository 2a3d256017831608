package main

import (
	"fmt"
	"time"

	"github.com/bimri/bimri-hook/internal/config"
	"github.com/bimri/bimri-hook/internal/record"
	"github.com/bimri/bimri-hook/internal/workspace"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
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

// today reads --today / BIMRI_TODAY, else the clock's local date.
func (a *app) today(c *cli.Context) (time.Time, error) {
	if s := commonFlag(c, "today", "BIMRI_TODAY"); s != "" {
		d, ok := memfile.ParseDate(s)
		if !ok {
			return time.Time{}, fmt.Errorf("--today %q is not a date (YYYY-MM-DD)", s)
		}
		return d, nil
	}
	y, m, d := a.now.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC), nil
}

// openWorkspace resolves the root, reads the config and opens the store.
func (a *app) openWorkspace(c *cli.Context) (*openedWorkspace, error) {
	root, err := resolveRoot(c, "")
	if err != nil {
		return nil, err
	}
	ws, cfgErr, err := a.openAt(c, root, root)
	if err == nil && cfgErr != nil {
		return nil, cfgErr
	}
	return ws, err
}

// openAt opens the store at dir (simulate's copy) with root's config, or
// the defaults and cfgErr, why it did not load.
func (a *app) openAt(c *cli.Context, root, dir string) (*openedWorkspace, error, error) {
	cfg, cfgErr := config.Load(configPath(c), root)
	if cfgErr != nil {
		cfg = config.Default()
	}
	if a.agentRun {
		cfg.Hooks.LockTimeout = max(cfg.Hooks.LockTimeout, record.AgentLockWait)
	}
	today, err := a.today(c)
	if err != nil {
		return nil, nil, err
	}
	store, err := workspace.Open(dir, cfg, a.clock, today)
	if err != nil {
		return nil, nil, err
	}
	return &openedWorkspace{store: store, config: cfg, now: today}, cfgErr, nil
}

// clock is the process's wall clock, read once at start.
func (a *app) clock() time.Time { return a.now }
