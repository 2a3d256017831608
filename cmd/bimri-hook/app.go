package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/hooks"
	"github.com/bimri/bimri-hook/internal/config"
	"github.com/bimri/bimri-hook/internal/record"
	"github.com/bimri/bimri-hook/internal/workspace"
	"github.com/bimri/bimri-hook/wiring"
	"github.com/urfave/cli/v2"
)

// run is the whole program: one command, its outcome as the exit code: 0,
// or 1 with one line on stderr. Never 2, which Claude Code reads as "block".
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, now time.Time) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "bimri-hook: internal error: %v\n", r)
			code = 1
		}
	}()
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr, now: now}
	var err error
	// `bimri-hook hook [AGENT]` as clients run it: the hot path skips building the CLI.
	if (len(args) == 2 && args[1] == "hook") || (len(args) == 3 && args[1] == "hook" && slices.Contains(hooks.Agents, hooks.Agent(args[2]))) {
		err = a.hook(nil, hooks.Agent(strings.Join(args[2:], "")))
	} else {
		err = a.commands(args)
	}
	if err == nil {
		return 0
	}
	if !errors.Is(err, errQuiet) { // one line, prefixed once
		msg := strings.Join(strings.Fields(err.Error()), " ")
		fmt.Fprintln(stderr, "bimri-hook: "+strings.TrimPrefix(msg, "bimri-hook: "))
	}
	return 1
}

// errQuiet fails a command whose program already said why on stderr.
var errQuiet = errors.New("failed; see above")

var errNoArgs = errors.New("missing argument")

// app carries the process's streams and clock to the commands.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	now            time.Time
}

// commonFlags are accepted before the command name and after it.
func commonFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "dir", Usage: "workspace `FOLDER` (default: the nearest folder above holding bimri.md, else the git repository's root, else the current folder; CLAUDE_PROJECT_DIR wins when set)"},
		&cli.StringFlag{Name: "config", Usage: "config `FILE` (default: $BIMRI_CONFIG, else <workspace>/.claude/bimri.json if present)"},
		&cli.StringFlag{Name: "today", Usage: "the date to act as today, `YYYY-MM-DD` (default: $BIMRI_TODAY, else the clock)"},
	}
}

// undated are the commands no date changes: no --today.
var undated = []string{"install", "uninstall", "doctor", "off", "on", "version"}

func (a *app) cli() *cli.App {
	cmds := slices.Concat(a.memoryCommands(), a.setupCommands(),
		a.companionCommands(), []*cli.Command{a.hookCommand(), a.simulateCommand(), a.mergeDriverCommand()})
	for _, c := range cmds {
		c.Flags = append(c.Flags, commonFlags()...)
		if slices.Contains(undated, c.Name) {
			c.Flags = slices.DeleteFunc(c.Flags, func(f cli.Flag) bool { return f.Names()[0] == "today" })
		}
		c.OnUsageError = usageError
		// simulate reads flags anywhere; merge-driver's arguments are git's.
		if c.Name != "simulate" && c.Name != "merge-driver" && c.Before == nil {
			c.Before = flagsBeforeArguments
		}
	}
	return &cli.App{
		Name: "bimri-hook", Usage: "persistent, self-maintaining memory for Claude Code", Version: version,
		Reader: a.stdin, Writer: a.stdout, ErrWriter: a.stderr,
		Flags: commonFlags(), Commands: cmds, OnUsageError: usageError,
		ExitErrHandler: func(*cli.Context, error) {}, // run maps errors to codes
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return fmt.Errorf("unknown command %q (see bimri-hook --help)", c.Args().First())
			}
			return cli.ShowAppHelp(c)
		},
	}
}

func usageError(_ *cli.Context, err error, _ bool) error {
	return fmt.Errorf("usage: %w (see --help)", err)
}

// commonFlag reads a common flag wherever it was given, before the
// command or after it, else its environment variable.
func commonFlag(c *cli.Context, name, envVar string) string {
	for _, ctx := range c.Lineage() {
		if ctx.IsSet(name) {
			return ctx.String(name)
		}
	}
	return os.Getenv(envVar) // "" for none
}

// configPath is --config, else $BIMRI_CONFIG; "" lets config.Load choose.
func configPath(c *cli.Context) string {
	return commonFlag(c, "config", config.EnvVar)
}

// flagsBeforeArguments refuses a flag written after the arguments (why ID
// --today 2026-12-01), which the parser would silently take as an argument.
func flagsBeforeArguments(c *cli.Context) error {
	args := c.Args().Slice()
	for i, arg := range args {
		name, _, _ := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		known := slices.ContainsFunc(c.Command.Flags, func(f cli.Flag) bool { return slices.Contains(f.Names(), name) })
		if i > 0 && strings.HasPrefix(arg, "-") && known {
			return fmt.Errorf("%s comes after the argument %q, where it would be ignored: put flags first, as in bimri-hook %s %s %s",
				arg, args[0], c.Command.Name, strings.Join(args[i:], " "), strings.Join(args[:i], " "))
		}
	}
	return nil
}

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
