package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"

	"github.com/bimri/bimri-hook/internal/doctor"
	"github.com/bimri/bimri-hook/internal/inspect"
	"github.com/bimri/bimri-hook/internal/install"
	"github.com/bimri/bimri-hook/internal/workspace"
	"github.com/bimri/bimri-hook/wiring"
	"github.com/urfave/cli/v2"
)

// wireFlags are install's (on) or uninstall's flags, more after the
// shared ones.
func wireFlags(on bool, more ...cli.Flag) []cli.Flag {
	flags := []cli.Flag{
		&cli.StringFlag{Name: "scope", Value: install.ScopeProject, Usage: "settings to edit: project (.claude/settings.json), local (.claude/settings.local.json) or user (~/.claude/settings.json)"},
		&cli.BoolFlag{Name: "git", Usage: inspect.Pick(on, "also give bimri.md its merge driver in this git repository (.gitattributes and git config)",
			"also remove the merge driver for bimri.md from this git repository")},
		&cli.StringFlag{Name: "agent", Value: wiring.Claude.Agent, Usage: "the client to wire: claude (Claude Code), codex (the Codex CLI), gemini (the Gemini CLI), opencode (OpenCode), copilot (the Copilot CLI), cursor (Cursor, unverified), or all: each of them found on PATH"},
	}
	if on {
		flags = append(flags, &cli.BoolFlag{Name: "no-trust", Usage: "codex: record no trust for the hooks install writes; Codex skips them until you trust them in its /hooks review"})
	}
	return append(flags, more...)
}

// setupCommands wire bimri-hook into the clients and check the wiring.
func (a *app) setupCommands() []*cli.Command {
	return []*cli.Command{{
		Name:      "install",
		Usage:     "wire bimri-hook into Claude Code settings",
		UsageText: "bimri-hook install [--scope project|local|user] [--binary PATH] [--git]\n   bimri-hook install --link [--bin-dir FOLDER]   (the plugin's bimri-hook, for your shell)",
		Flags: wireFlags(true,
			&cli.StringFlag{Name: "binary", Usage: "the bimri-hook `PATH` the hooks run (default: this executable)"},
			&cli.BoolFlag{Name: "link", Usage: "wire nothing: link the Claude Code plugin's bimri-hook into a folder of your PATH, kept at the plugin's current version"},
			&cli.StringFlag{Name: "bin-dir", Usage: "the `FOLDER` install --link links into (default: $BIMRI_BIN_DIR, else ~/.local/bin)"}),
		Action: a.wire(true),
	}, {
		Name:      "uninstall",
		Usage:     "unwire bimri-hook from Claude Code settings",
		UsageText: "bimri-hook uninstall [--scope project|local|user] [--git] [--purge]",
		Flags: wireFlags(false,
			&cli.BoolFlag{Name: "purge", Usage: "also remove the memory's side files: bimri-backup.md, bimri-archive.md and .claude/bimri/ (never bimri.md)"}),
		Action: a.wire(false),
	}, {
		Name:  "doctor",
		Usage: "check the wiring, the binary and the files, and say what to fix",
		Action: func(c *cli.Context) error {
			root, err := resolveRoot(c, "")
			if err != nil {
				return err
			}
			return doctor.Report(a.stdout, doctor.Options{Root: root, ConfigPath: configPath(c), Binary: workspace.Binary(), Version: version})
		},
	}, {
		Name:      "off",
		Usage:     "turn memory off in this workspace: every hook answers nothing until bimri-hook on",
		UsageText: "bimri-hook off [--dir FOLDER]",
		Description: "The plugin and the settings keep running bimri-hook, which does nothing here: no memory at\n" +
			"session start, nothing recorded. bimri.md and its files stay as they are. The switch is a file in\n" +
			".claude/bimri/, which git ignores, so it is this clone's alone.",
		Action: a.turn(false),
	}, {
		Name:      "on",
		Usage:     "turn memory back on in this workspace after bimri-hook off",
		UsageText: "bimri-hook on [--dir FOLDER]",
		Action:    a.turn(true),
	}}
}

// link is install --link: the plugin user's own shell gets bimri-hook
// (install.LinkForShell).
func (a *app) link(c *cli.Context) error {
	for _, f := range []string{"scope", "git", "binary"} {
		if c.IsSet(f) {
			return errors.New("install --link wires nothing, so it takes no --" + f)
		}
	}
	exe, err := workspace.Executable()
	if err != nil {
		return err
	}
	linked, err := install.LinkForShell(exe, c.String("bin-dir"))
	if err != nil {
		return err
	}
	install.PrintLinked(a.stdout, linked)
	return nil
}

// turn sets the workspace's switch.
func (a *app) turn(on bool) cli.ActionFunc {
	return a.in(func(c *cli.Context, ws *workspace.Opened) error {
		if c.Args().Present() {
			return fmt.Errorf("%s takes no arguments (give the workspace with --dir)", c.Command.Name)
		}
		return install.Turn(a.stdout, ws.Store, on)
	})
}

// agentAll is --agent all: every client found on PATH.
const agentAll = "all"

// clients are the clients --agent names: Claude Code by default, another,
// or all: each found on PATH, Claude Code last. Flags that are Claude
// Code's alone are refused for another.
func (a *app) clients(c *cli.Context) ([]wiring.Client, error) {
	agent := c.String("agent")
	if agent != wiring.Codex.Agent && c.Bool("no-trust") {
		return nil, errors.New("--no-trust is for --agent codex: no other client has hook trust to record")
	}
	all := append([]wiring.Client{wiring.Claude}, wiring.Clients...)
	if i := slices.IndexFunc(all, func(cl wiring.Client) bool { return cl.Agent == agent }); i == 0 {
		return all[:1], nil
	} else if i > 0 && (c.Bool("git") || c.Bool("link")) {
		return nil, errors.New("--git and --link go with Claude Code: run them without --agent")
	} else if i > 0 {
		return all[i : i+1], nil
	} else if agent != agentAll {
		var names []string
		for _, cl := range all {
			names = append(names, cl.Agent)
		}
		return nil, fmt.Errorf("--agent %q is not one of %s, %s", agent, strings.Join(names, ", "), agentAll)
	} else if c.Bool("link") {
		return nil, errors.New("--link goes with Claude Code: run it without --agent")
	}
	var found []wiring.Client
	for _, cl := range append(slices.Clone(wiring.Clients), wiring.Claude) {
		claude := cl.Agent == wiring.Claude.Agent
		if _, err := exec.LookPath(cl.Agent); err != nil || (!claude && c.String("scope") == "local") {
			fmt.Fprintf(a.stdout, "%s: %s is not on PATH%s: skipped\n", cl.Name, cl.Agent, inspect.Pick(claude, "", " (or --scope local, which it has not)"))
		} else {
			found = append(found, cl)
		}
	}
	return found, nil
}

// wire installs (on) or uninstalls bimri-hook in each client --agent
// names; --git and --purge are Claude Code's.
func (a *app) wire(on bool) cli.ActionFunc {
	return func(c *cli.Context) error {
		clients, err := a.clients(c)
		if err != nil {
			return err
		} else if on && c.Bool("link") {
			return a.link(c)
		} else if on && c.IsSet("bin-dir") {
			return errors.New("--bin-dir goes with --link")
		}
		root, err := resolveRoot(c, "")
		if err != nil {
			return err
		}
		for _, cl := range clients {
			claude, do := cl.Agent == wiring.Claude.Agent, install.Uninstall
			q := install.Request{Client: cl, Root: root, Scope: c.String("scope"), Binary: c.String("binary"), Git: claude && c.Bool("git"), NoTrust: c.Bool("no-trust")}
			if on {
				do = install.Install
			} else if claude && c.Bool("purge") {
				ws, err := a.openAt(c, root, root)
				if err != nil {
					return err
				}
				q.Purge = ws.Store
			}
			if err := do(a.stdout, q); err != nil {
				return err
			}
		}
		return nil
	}
}

// recordingAgent is the client whose agent runs this command, for the
// entry it records (memfile.Entry.Agent): Codex gives the commands its
// model runs CODEX_THREAD_ID (measured on 0.171.0), the Copilot CLI
// COPILOT_CLI=1 (1.0.102), Gemini GEMINI_CLI=1 (0.61.0), OpenCode
// OPENCODE=1 (1.18.33); Claude Code, a person or anything else records "".
func recordingAgent() string {
	switch {
	case os.Getenv("CODEX_THREAD_ID") != "":
		return wiring.Codex.Agent
	case os.Getenv("COPILOT_CLI") != "":
		return wiring.Copilot.Agent
	case os.Getenv("GEMINI_CLI") == "1":
		return wiring.Gemini.Agent
	case os.Getenv("OPENCODE") == "1":
		return wiring.OpenCode.Agent
	}
	return ""
}
