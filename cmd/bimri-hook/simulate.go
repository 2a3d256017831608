package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bimri/bimri-hook/hooks"
	"github.com/bimri/bimri-hook/internal/event"
	"github.com/bimri/bimri-hook/internal/simulate"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
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
			if err := readTrailingFlags(c); err != nil {
				return err
			}
			if c.Bool("help") {
				return cli.ShowCommandHelp(c.Lineage()[1], "simulate")
			}
			if !c.Args().Present() {
				return fmt.Errorf("simulate: %w: an EVENT (%s)", errNoArgs, event.List(simulate.Events))
			}
			return a.simulateEvent(c, c.Args().First())
		},
	}
}

// readTrailingFlags reads flags written after EVENT. urfave/cli stops
// reading flags at the first argument, but `simulate Stop
// --stop-hook-active` is the natural order, so the rest of the arguments
// are read into the command's own flag set.
func readTrailingFlags(c *cli.Context) error {
	args := c.Args().Slice()
	if len(args) < 2 {
		return nil
	}
	isBool := flagKinds(c) // every flag's name: is it a bool?
	isBool["help"], isBool["h"] = true, true
	rest := args[1:]
	for i := 0; i < len(rest); i++ {
		arg := rest[i]
		if arg == "--" || !strings.HasPrefix(arg, "-") {
			return fmt.Errorf("usage: simulate takes one EVENT, got also %q (see --help)", arg)
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		boolean, known := isBool[name]
		if !known {
			// The words urfave/cli uses for a flag before EVENT.
			return fmt.Errorf("usage: flag provided but not defined: -%s (see --help)", name)
		}
		if !hasValue {
			if boolean {
				value = "true"
			} else {
				if i+1 == len(rest) {
					return fmt.Errorf("usage: flag needs an argument: %s (see --help)", arg)
				}
				i++
				value = rest[i]
			}
		}
		if err := c.Set(name, value); err != nil {
			return fmt.Errorf("usage: %s: %w (see --help)", arg, err)
		}
	}
	return nil
}

// simulateEvent runs one event for this workspace through the same code as
// the hook command and prints what Claude Code would receive.
func (a *app) simulateEvent(c *cli.Context, name string) error {
	ev, ok := simulate.CanonicalEvent(name)
	if !ok {
		return fmt.Errorf("simulate: unknown event %q (one of %s)", name, event.List(simulate.Events))
	}
	if err := simulate.CheckFlags(ev, c.IsSet, c.String); err != nil {
		return err
	}
	session := c.String("session")

	root, err := resolveRoot(c, "")
	if err != nil {
		return err
	}
	transcriptPath := simulate.TranscriptFor(root, session)
	if p := c.String("transcript"); p != "" {
		if transcriptPath, err = filepath.Abs(p); err != nil {
			return fmt.Errorf("--transcript %q: %w", p, err)
		}
	}
	payload := simulate.Payload{
		Event: ev, SessionID: session, TranscriptPath: transcriptPath, Cwd: root,
		Source: c.String("source"), Reason: c.String("reason"), Trigger: c.String("trigger"),
		Prompt: c.String("prompt"), StopHookActive: c.Bool("stop-hook-active"),
	}.JSON()
	verbose := c.Bool("verbose")
	if verbose {
		simulate.PrintPayload(a.stderr, payload)
	}

	in, err := hooks.Decode(payload)
	if err != nil {
		return err
	}
	out, err := a.handleCopy(c, root, in)
	if err != nil {
		return fmt.Errorf("%s: %w", in.Event, err)
	}
	var stdout bytes.Buffer
	if c.Bool("context-only") {
		if text, ok := simulate.ContextText(out); ok {
			stdout.WriteString(text + "\n")
		}
	} else if err := out.Write(&stdout); err != nil {
		return err
	}
	if verbose {
		simulate.PrintAnswer(a.stderr, stdout.Len(), out)
	}
	if stdout.Len() == 0 {
		simulate.PrintNothing(a.stderr, ev, c.Bool("stop-hook-active"))
	}
	_, err = a.stdout.Write(stdout.Bytes())
	return err
}

// handleCopy runs in as handle does, on a copy of the workspace's memory
// (simulate.Copy), and says so: simulate never changes the real files.
// The answer names the workspace, not the copy.
func (a *app) handleCopy(c *cli.Context, root string, in hooks.Input) (hooks.Output, error) {
	if !slices.Contains(event.Answered, in.Event) {
		return hooks.Output{}, nil
	}
	dir, remove, err := simulate.Copy(root, store.Names{Memory: memfile.MemoryName, Backup: memfile.BackupName, Archive: memfile.ArchiveName, State: store.StateDir})
	if err != nil {
		return hooks.Output{}, err
	}
	defer remove()
	in.TranscriptPath = simulate.CopyTranscript(root, dir, in.TranscriptPath)
	in.Cwd = dir
	ws, cfgErr, err := a.openAt(c, root, dir)
	if err != nil {
		return hooks.Output{}, err
	}
	out, err := a.answer(ws, cfgErr, in)
	simulate.PrintCopied(a.stderr, root)
	return simulate.Restate(out, dir, root), err
}
