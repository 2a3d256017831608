package main

import (
	"errors"
	"fmt"

	"github.com/bimri/bimri-hook/internal/doctor"
	"github.com/bimri/bimri-hook/internal/install"
	"github.com/bimri/bimri-hook/internal/workspace"
	"github.com/urfave/cli/v2"
)

// scopeFlags are the flags install and uninstall share.
func scopeFlags(gitUsage string) []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "scope", Value: install.ScopeProject, Usage: "settings to edit: project (.claude/settings.json), local (.claude/settings.local.json) or user (~/.claude/settings.json)"},
		&cli.BoolFlag{Name: "git", Usage: gitUsage},
	}
}

// setupCommands wire bimri-hook into the clients and check the wiring.
func (a *app) setupCommands() []*cli.Command {
	return []*cli.Command{{
		Name:      "install",
		Usage:     "wire bimri-hook into Claude Code settings",
		UsageText: "bimri-hook install [--scope project|local|user] [--binary PATH] [--git]\n   bimri-hook install --link [--bin-dir FOLDER]   (the plugin's bimri-hook, for your shell)",
		Flags: append(append(scopeFlags("also give bimri.md its merge driver in this git repository (.gitattributes and git config)"),
			&cli.StringFlag{Name: "binary", Usage: "the bimri-hook `PATH` the hooks run (default: this executable)"},
			&cli.BoolFlag{Name: "link", Usage: "wire nothing: link the Claude Code plugin's bimri-hook into a folder of your PATH, kept at the plugin's current version"},
			&cli.StringFlag{Name: "bin-dir", Usage: "the `FOLDER` install --link links into (default: $BIMRI_BIN_DIR, else ~/.local/bin)"}),
			agentFlags(true)...),
		Action: a.wire(true),
	}, {
		Name:      "uninstall",
		Usage:     "unwire bimri-hook from Claude Code settings",
		UsageText: "bimri-hook uninstall [--scope project|local|user] [--git] [--purge]",
		Flags: append(append(scopeFlags("also remove the merge driver for bimri.md from this git repository"),
			&cli.BoolFlag{Name: "purge", Usage: "also remove the memory's side files: bimri-backup.md, bimri-archive.md and .claude/bimri/ (never bimri.md)"}),
			agentFlags(false)...),
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
