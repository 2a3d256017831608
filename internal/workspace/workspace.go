// Package workspace finds what a command works on outside the memory file
// itself: the workspace (Root), the binary the agent is told to run,
// the user's home, and the user's memory across workspaces.
package workspace

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/bimri/bimri-hook/internal/config"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
	"github.com/bimri/bimri-hook/wiring"
)

// Binary is the command the agent is told to run: $BIMRI_HOOK_BIN when
// set (the plugin's launcher sets it); the bare name bimri-hook when this
// process was started by that name and bimri-hook on PATH is this very
// executable, so that the command agrees with the rule
// Bash(bimri-hook remember:*) of examples/settings.json; else this
// executable's path, with symlinks resolved so the path stays valid.
func Binary() string {
	if p := os.Getenv("BIMRI_HOOK_BIN"); p != "" {
		return p
	}
	exe, err := os.Executable()
	if err != nil {
		return wiring.Name
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	if len(os.Args) > 0 && StartedFromPath(os.Args[0], exe) {
		return wiring.Name
	}
	return exe
}

// StartedFromPath tells whether a program started as arg0 (its argv[0])
// was found on PATH by the bare name bimri-hook, and bimri-hook on PATH is
// exe.
func StartedFromPath(arg0, exe string) bool {
	if arg0 != wiring.Name && arg0 != wiring.Name+".exe" {
		return false
	}
	return OnPath(exe)
}

// OnPath tells whether the bimri-hook that PATH finds is exe, and PATH
// has no relative entry (. or an empty one): through one, the bare name
// would run a bimri-hook in whatever folder the shell is in, the
// workspace's own among them.
func OnPath(exe string) bool {
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if !filepath.IsAbs(dir) {
			return false
		}
	}
	found, err := exec.LookPath(wiring.Name)
	if err != nil {
		return false
	}
	a, err := os.Stat(found)
	if err != nil {
		return false
	}
	b, err := os.Stat(exe)
	return err == nil && os.SameFile(a, b)
}

// Today is the day --today (or $BIMRI_TODAY) names: zero when s is "".
func Today(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	d, ok := memfile.ParseDate(s)
	if !ok {
		return time.Time{}, fmt.Errorf("--today %q is not a date (YYYY-MM-DD)", s)
	}
	return d, nil
}

// Home is the user's home folder, or "" when there is none.
func Home() string {
	h, _ := os.UserHomeDir()
	return h
}

// Open opens a workspace's store. now is the wall clock; today is the day
// the command acts on.
func Open(root string, cfg config.Config, now func() time.Time, today time.Time) (*store.Store, error) {
	return store.OpenStore(root, cfg.Memory, store.StoreOptions{LockTimeout: cfg.Hooks.LockTimeout, Clock: now, Today: today})
}

// ClaudeDir is where Claude Code keeps the user's configuration, settings
// and transcripts: $CLAUDE_CONFIG_DIR when set, as Claude Code itself
// reads it, else ~/.claude. "" when neither can be known.
func ClaudeDir() string {
	if dir := os.Getenv("CLAUDE_CONFIG_DIR"); dir != "" {
		return dir
	}
	if home := Home(); home != "" {
		return filepath.Join(home, ".claude")
	}
	return ""
}

// ClaudeState is Claude Code's own state file, .claude.json, where it
// records which workspaces the user trusts: inside $CLAUDE_CONFIG_DIR when
// set, else in the home folder (beside ~/.claude, not in it).
func ClaudeState() string {
	if dir := os.Getenv("CLAUDE_CONFIG_DIR"); dir != "" {
		return filepath.Join(dir, ".claude.json")
	}
	return filepath.Join(Home(), ".claude.json")
}

// GlobalStore is the store of the user's memory across workspaces,
// ~/.claude/bimri-global.md (or in $BIMRI_GLOBAL_DIR). It makes the folder
// if it is missing.
func GlobalStore(cfg config.Config, now func() time.Time) (*store.Store, error) {
	dir := os.Getenv("BIMRI_GLOBAL_DIR")
	if dir == "" {
		home := Home()
		if home == "" {
			return nil, errors.New("no home folder for the global memory")
		}
		dir = filepath.Join(home, ".claude")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("global memory folder: %w", err)
	}
	return store.OpenStore(dir, cfg.Memory, store.StoreOptions{Names: store.GlobalNames, LockTimeout: cfg.Hooks.LockTimeout, Clock: now})
}

// ReadGlobal reads the user's memory across workspaces, if there is one
// that reads; the hooks go on without it otherwise.
func ReadGlobal(cfg config.Config, now func() time.Time) *memfile.File {
	store, err := GlobalStore(cfg, now)
	if err != nil {
		return nil
	}
	read, err := store.Read()
	if err != nil || !read.Exists {
		return nil
	}
	return read.File
}

// offName is the file in a workspace's state folder that turns its memory
// off (bimri-hook off): the state folder ignores itself, so git never
// carries the switch to another clone.
const offName = "off"

// OffPath is the file whose presence turns root's memory off.
func OffPath(root string) string {
	return filepath.Join(root, filepath.FromSlash(store.StateDir), offName)
}

// IsOff says whether root's memory is turned off: one stat, which every
// hook pays before anything else.
func IsOff(root string) bool {
	_, err := os.Lstat(OffPath(root))
	return err == nil
}
