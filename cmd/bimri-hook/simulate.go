package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/bimri/bimri-hook/hooks"
	"github.com/bimri/bimri-hook/internal/event"
	"github.com/bimri/bimri-hook/internal/simulate"
	"github.com/urfave/cli/v2"
)

func (a *app) simulateCommand() *cli.Command {
	return &cli.Command{
		Name:  "simulate",
		Usage: "run one hook event as Claude Code would, on a copy of this workspace's memory",
		UsageText: `bimri-hook simulate EVENT [--prompt TEXT] [--source S] [--reason R] [--trigger T] [--session ID] [--stop-hook-active] [--transcript PATH] [--context-only] [--verbose]

EVENT is SessionStart, UserPromptSubmit, Stop, PreCompact, SessionEnd, SubagentStart or SubagentStop (any case).
simulate EVENT builds the payload Claude Code would send for this workspace, runs it through the
same code as 'bimri-hook hook' on a copy of the memory (this workspace's files never change), and
prints exactly what Claude Code would receive on stdout; stderr says it ran on a copy and, when the
client receives nothing, why.
The session ID is ` + simulate.DefaultSession + ` unless --session says otherwise.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "prompt", Usage: "UserPromptSubmit: the user's `TEXT`"},
			&cli.StringFlag{Name: "source", Value: "startup", Usage: "SessionStart: " + strings.Join(simulate.SessionSources, ", ")},
			&cli.StringFlag{Name: "reason", Value: "other", Usage: "SessionEnd: " + strings.Join(simulate.EndReasons, ", ")},
			&cli.StringFlag{Name: "trigger", Value: "manual", Usage: "PreCompact: " + strings.Join(simulate.CompactTriggers, ", ")},
			&cli.StringFlag{Name: "session", Value: simulate.DefaultSession, Usage: "the session `ID`"},
			&cli.BoolFlag{Name: "stop-hook-active", Usage: "Stop, SubagentStop: the turn follows a Stop that blocked"},
			&cli.StringFlag{Name: "transcript", Usage: "transcript `PATH` (default: where Claude Code keeps this session's)"},
			&cli.BoolFlag{Name: "context-only", Usage: "print only the additionalContext text, decoded"},
			&cli.BoolFlag{Name: "verbose", Usage: "describe the payload and the answer on stderr"},
		},
		Action: func(c *cli.Context) error {
			// urfave/cli stops at the first argument, but `simulate Stop
			// --stop-hook-active` is the natural order: parse the rest too.
			rest := flag.NewFlagSet("simulate", flag.ContinueOnError)
			rest.SetOutput(io.Discard)
			for _, f := range c.Command.Flags {
				_ = f.Apply(rest)
			}
			if err := rest.Parse(c.Args().Tail()); err != nil {
				return usageError(c, err, true)
			} else if rest.NArg() > 0 {
				return fmt.Errorf("usage: simulate takes one EVENT, got also %q (see --help)", rest.Arg(0))
			}
			var err error
			rest.Visit(func(f *flag.Flag) { err = errors.Join(err, c.Set(f.Name, f.Value.String())) })
			if err != nil {
				return err
			}
			if c.Bool("help") {
				return cli.ShowCommandHelp(c.Lineage()[1], "simulate")
			}
			if !c.Args().Present() {
				return fmt.Errorf("simulate: %w: an EVENT (%s)", errNoArgs, event.List(simulate.Events))
			}
			root, err := resolveRoot(c, "")
			if err != nil {
				return err
			}
			return simulate.Run(a.stdout, a.stderr, c.Args().First(), root, c, func(root, dir string, in hooks.Input) (hooks.Output, error) {
				ws, err := a.openAt(c, root, dir)
				if err != nil {
					return hooks.Output{}, err
				}
				return a.answer(ws, in, false)
			})
		},
	}
}
