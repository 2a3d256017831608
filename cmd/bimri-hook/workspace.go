package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/bimri/bimri-hook/hooks"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/urfave/cli/v2"
)

// workspace is everything a command needs about where it works.
type workspace struct {
	store    *memfile.Store
	config   memfile.Config
	settings hooks.Settings
	now      time.Time // today, as the clock or --today says
}

// resolveRoot applies the documented order: CLAUDE_PROJECT_DIR, else the
// hook input's cwd, else --dir, else the current directory.
func resolveRoot(c *cli.Context, inputCwd string) (string, error) {
	root := os.Getenv("CLAUDE_PROJECT_DIR")
	if root == "" {
		root = inputCwd
	}
	if root == "" {
		root = commonFlag(c, "dir", "")
	}
	if root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", fmt.Errorf("current directory: %w", err)
		}
		root = wd
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("workspace %q: %w", root, err)
	}
	return abs, nil
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
func (a *app) openWorkspace(c *cli.Context, inputCwd string) (*workspace, error) {
	root, err := resolveRoot(c, inputCwd)
	if err != nil {
		return nil, err
	}
	cfg, settings, err := loadConfig(commonFlag(c, "config", "BIMRI_CONFIG"), root)
	if err != nil {
		return nil, err
	}
	today, err := a.today(c)
	if err != nil {
		return nil, err
	}
	store, err := memfile.OpenStore(root, cfg, settings.LockTimeout)
	if err != nil {
		return nil, err
	}
	store.Now = func() time.Time { return a.now }
	store.Today = today
	return &workspace{store: store, config: cfg, settings: settings, now: today}, nil
}

// configName is the per-workspace config file, beside Claude Code's own
// settings.
const configName = ".claude/bimri.json"

// loadConfig reads an explicit config file, or the workspace's if it
// exists, or uses the defaults.
func loadConfig(path, root string) (memfile.Config, hooks.Settings, error) {
	explicit := path != ""
	if !explicit {
		path = filepath.Join(root, filepath.FromSlash(configName))
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && !explicit {
		return memfile.DefaultConfig(), hooks.DefaultSettings(), nil
	}
	if err != nil {
		return memfile.Config{}, hooks.Settings{}, fmt.Errorf("config: %w", err)
	}
	cfg, err := memfile.LoadConfig(data, hooks.SettingsKeys...)
	if err != nil {
		return memfile.Config{}, hooks.Settings{}, fmt.Errorf("%s: %w", path, err)
	}
	settings, err := hooks.LoadSettings(data)
	if err != nil {
		return memfile.Config{}, hooks.Settings{}, fmt.Errorf("%s: %w", path, err)
	}
	return cfg, settings, nil
}

// binaryPath is the command the agent is told to run: this executable,
// with symlinks resolved so the path stays valid.
func binaryPath() string {
	if p := os.Getenv("BIMRI_HOOK_BIN"); p != "" {
		return p
	}
	exe, err := os.Executable()
	if err != nil {
		return "bimri-hook"
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		return real
	}
	return exe
}
