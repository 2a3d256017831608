// Package workspace finds what a command works on besides the memory file:
// the workspace, the binary the agent runs, the user's folders and memory.
package workspace

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/internal/config"
	"github.com/bimri/bimri-hook/internal/inspect"
	"github.com/bimri/bimri-hook/internal/recall"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
	"github.com/bimri/bimri-hook/wiring"
)

// Binary is the command the agent is told to run: $BIMRI_HOOK_BIN (the
// plugin's launcher sets it); the bare name when this process was started
// by it from PATH, so the command agrees with the rule
// Bash(bimri-hook remember:*); else this executable's resolved path.
func Binary() string {
	if p := os.Getenv("BIMRI_HOOK_BIN"); p != "" {
		return p
	}
	exe, err := Executable()
	return inspect.Pick(err != nil || (len(os.Args) > 0 && StartedFromPath(os.Args[0], exe)), wiring.Name, exe)
}

// Executable is this program's own file, links followed, or the program
// beside it that runs the hooks (runsHooks): what commands wire and name.
func Executable() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return runsHooks(exe), nil
}

// runsHooks is exe, but for a bimri-hook-cli beside its bimri-hook.
func runsHooks(exe string) string {
	dir, name := filepath.Split(exe)
	if rest, ok := strings.CutPrefix(name, wiring.Name+"-cli"); ok {
		hook := filepath.Join(dir, wiring.Name+rest)
		if info, err := os.Stat(hook); err == nil && info.Mode().IsRegular() {
			return hook
		}
	}
	return exe
}

// StartedFromPath tells whether a program started as arg0 was found on
// PATH by the bare name, and that is exe.
func StartedFromPath(arg0, exe string) bool {
	return (arg0 == wiring.Name || arg0 == wiring.Name+".exe") && OnPath(exe)
}

// OnPath tells whether the bimri-hook PATH finds is exe, and PATH has no
// relative entry, through which the bare name would run whatever
// bimri-hook the shell's folder holds.
func OnPath(exe string) bool {
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if !filepath.IsAbs(dir) {
			return false
		}
	}
	found, err := exec.LookPath(wiring.Name)
	a, errA := os.Stat(found)
	b, errB := os.Stat(exe)
	return err == nil && errA == nil && errB == nil && os.SameFile(a, b)
}

// Today is the day --today (or $BIMRI_TODAY) names: zero when s is "".
func Today(s string) (time.Time, error) {
	d, ok := memfile.ParseDate(s)
	if !ok && s != "" {
		return time.Time{}, fmt.Errorf("--today %q is not a date (YYYY-MM-DD)", s)
	}
	return d, nil
}

// CompanionFlags reads what bimri-hook passes its own programs
// (bimri-hook-mcp, bimri-hook-browse): --dir as given, --config and
// --today (else their variables) and, for browse, --global.
func CompanionFlags(name string, args []string) (dir string, q Request, err error) {
	fs := flag.NewFlagSet("bimri-hook "+name, flag.ContinueOnError)
	fs.StringVar(&dir, "dir", "", "workspace `FOLDER`, used when CLAUDE_PROJECT_DIR is unset")
	fs.StringVar(&q.Config, "config", os.Getenv(config.EnvVar), "config `FILE` (default: $BIMRI_CONFIG, else <workspace>/.claude/bimri.json if present)")
	today := fs.String("today", os.Getenv("BIMRI_TODAY"), "the date to act as today, `YYYY-MM-DD` (default: the clock)")
	if name == "browse" {
		fs.BoolVar(&q.Global, "global", false, "browse the global memory")
	}
	if err = fs.Parse(args); err == nil && fs.NArg() > 0 {
		err = fmt.Errorf("takes no arguments, got %q", fs.Arg(0))
	}
	if err == nil {
		q.Today, err = Today(*today)
	}
	return dir, q, err
}

// Home is the user's home folder, or "" when there is none.
func Home() string {
	h, _ := os.UserHomeDir()
	return h
}

// UserDir is the folder $env names, else dflt in the home folder; "" with
// neither.
func UserDir(env, dflt string) string {
	if dir := os.Getenv(env); dir != "" {
		return dir
	}
	if home := Home(); home != "" {
		return filepath.Join(home, dflt)
	}
	return ""
}

// Opened is what a command works on: the store, its config and the day.
type Opened struct {
	Store     *store.Store
	Config    config.Config
	Today     time.Time
	ConfigErr error // why the config did not load (Lenient): the defaults are in Config
}

// Request says which store Open opens and how.
type Request struct {
	Root     string        // the workspace, whose config is read
	Dir      string        // the store's folder when not Root's (simulate's copy)
	Config   string        // --config or $BIMRI_CONFIG; "" for Root's own
	Today    time.Time     // --today; zero for the clock's date
	LockWait time.Duration // the least the lock is waited for
	Global   bool          // the user's memory instead (--global)
	Lenient  bool          // a config that does not load leaves the defaults, not an error
}

// Open loads the config, works out today and opens the store, for the
// CLI, the MCP server and browse alike.
func Open(q Request, clock func() time.Time) (*Opened, error) {
	cfg, cfgErr := config.Load(q.Config, q.Root)
	if cfgErr != nil && !q.Lenient {
		return nil, cfgErr
	}
	cfg.Hooks.LockTimeout = max(cfg.Hooks.LockTimeout, q.LockWait)
	if q.Today.IsZero() {
		y, m, d := clock().Date()
		q.Today = time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	}
	var st *store.Store
	var err error
	if q.Global {
		st, err = GlobalStore(cfg, clock)
	} else {
		st, err = store.OpenStore(cmp.Or(q.Dir, q.Root), cfg.Memory, store.StoreOptions{LockTimeout: cfg.Hooks.LockTimeout, Clock: clock, Today: q.Today})
	}
	if err != nil {
		return nil, err
	}
	return &Opened{Store: st, Config: cfg, Today: q.Today, ConfigErr: cfgErr}, nil
}

// Search is what the search command, the MCP recall tool and browse find
// for q in this workspace's memory and archive, under its recall settings.
func (w *Opened) Search(q recall.Query, limit int) ([]inspect.Recalled, error) {
	read, err := w.Store.Read()
	if err != nil {
		return nil, err
	}
	q.Today, q.Lexicon, q.MinShare = w.Today, w.Config.Hooks.Recall.Lexicon, w.Config.Hooks.Recall.MinShare
	return inspect.Recall(w.Store, read.File, q, limit)
}

// ClaudeDir is where Claude Code keeps the user's settings and
// transcripts: $CLAUDE_CONFIG_DIR, else ~/.claude; "" when unknown.
func ClaudeDir() string { return UserDir("CLAUDE_CONFIG_DIR", ".claude") }

// ClaudeState is Claude Code's .claude.json, which records the workspaces
// the user trusts: in $CLAUDE_CONFIG_DIR, else in the home folder.
func ClaudeState() string {
	return filepath.Join(cmp.Or(os.Getenv("CLAUDE_CONFIG_DIR"), Home()), ".claude.json")
}

// GlobalStore is the store of the user's memory across workspaces,
// ~/.claude/bimri-global.md (or in $BIMRI_GLOBAL_DIR), its folder made.
func GlobalStore(cfg config.Config, now func() time.Time) (*store.Store, error) {
	dir := UserDir("BIMRI_GLOBAL_DIR", ".claude")
	if dir == "" {
		return nil, errors.New("no home folder for the global memory")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("global memory folder: %w", err)
	}
	return store.OpenStore(dir, cfg.Memory, store.StoreOptions{Names: store.GlobalNames, LockTimeout: cfg.Hooks.LockTimeout, Clock: now})
}

// ReadGlobal is the user's memory across workspaces, nil when none reads:
// the hooks go on without it.
func ReadGlobal(cfg config.Config, now func() time.Time) *memfile.File {
	store, err := GlobalStore(cfg, now)
	if err != nil {
		return nil
	}
	// Most users keep none: a missing file is nothing to read, not the
	// fresh file Read makes for it.
	if _, err := os.Stat(store.Path(store.Names().Memory)); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	read, err := store.Read()
	if err != nil || !read.Exists {
		return nil
	}
	return read.File
}

// OffPath is the file whose presence turns root's memory off (bimri-hook
// off): in the state folder, which git ignores, so it is this clone's alone.
func OffPath(root string) string {
	return filepath.Join(root, filepath.FromSlash(store.StateDir), "off")
}

// IsOff says whether root's memory is turned off: one stat every hook pays.
func IsOff(root string) bool {
	_, err := os.Lstat(OffPath(root))
	return err == nil
}
