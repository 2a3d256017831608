package main

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/bimri/bimri-hook/internal/install"
	"github.com/bimri/bimri-hook/wiring"
	"github.com/urfave/cli/v2"
)

// scopeFlags are the flags install and uninstall share.
func scopeFlags(gitUsage string) []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "scope", Value: install.ScopeProject, Usage: "settings to edit: project (.claude/settings.json), local (.claude/settings.local.json) or user (~/.claude/settings.json)"},
		&cli.BoolFlag{Name: "git", Usage: gitUsage},
	}
}

func (a *app) installCommand() *cli.Command {
	return &cli.Command{
		Name:      "install",
		Usage:     "wire bimri-hook into Claude Code settings",
		UsageText: "bimri-hook install [--scope project|local|user] [--binary PATH] [--git]\n   bimri-hook install --link [--bin-dir FOLDER]   (the plugin's bimri-hook, for your shell)",
		Flags: append(append(scopeFlags("also give bimri.md its merge driver in this git repository (.gitattributes and git config)"),
			&cli.StringFlag{Name: "binary", Usage: "the bimri-hook `PATH` the hooks run (default: this executable)"},
			&cli.BoolFlag{Name: "link", Usage: "wire nothing: link the Claude Code plugin's bimri-hook into a folder of your PATH, kept at the plugin's current version"},
			&cli.StringFlag{Name: "bin-dir", Usage: "the `FOLDER` install --link links into (default: $BIMRI_BIN_DIR, else ~/.local/bin)"}),
			agentFlags(true)...),
		Action: func(c *cli.Context) error {
			if more, err := a.otherAgents(c, a.installAgent); err != nil || !more {
				return err
			}
			if c.Bool("link") {
				return a.link(c)
			}
			if c.IsSet("bin-dir") {
				return errors.New("--bin-dir goes with --link")
			}
			root, err := resolveRoot(c, "")
			if err != nil {
				return err
			}
			file, err := install.SettingsFor(c.String("scope"), root)
			if err != nil {
				return err
			}
			binary, err := install.BinaryFor(file.Scope, c.String("binary"))
			if err != nil {
				return err
			}
			command := wiring.Command{Binary: binary}
			// Find the repository first: a --git that cannot work must
			// fail before anything is written.
			var repo string
			if c.Bool("git") {
				if repo, err = install.GitTop(root); err != nil {
					return err
				}
			}

			was, changed, err := install.Install(file, command)
			if err != nil {
				return err
			}
			install.PrintInstalled(a.stdout, file, command, was, changed)
			if file.Scope != install.ScopeUser {
				path, changed, err := install.Ignore(root)
				if err != nil {
					return err
				}
				install.PrintIgnored(a.stdout, path, changed)
			}
			if file.Scope == install.ScopeProject && binary != wiring.Name {
				install.PrintMachinePathNote(a.stdout, binary)
			}
			for _, w := range install.TwiceWarnings(root, file, command) {
				install.PrintWarning(a.stdout, w.String())
			}
			if file.Scope != install.ScopeUser && !install.WorkspaceTrusted(root) {
				install.PrintTrustNote(a.stdout, root, command)
			}
			if repo != "" {
				steps, err := install.Git(repo, command)
				install.PrintGitSteps(a.stdout, steps)
				if err != nil {
					return err
				}
			}
			return nil
		},
	}
}

func (a *app) uninstallCommand() *cli.Command {
	return &cli.Command{
		Name:      "uninstall",
		Usage:     "unwire bimri-hook from Claude Code settings",
		UsageText: "bimri-hook uninstall [--scope project|local|user] [--git] [--purge]",
		Flags: append(append(scopeFlags("also remove the merge driver for bimri.md from this git repository"),
			&cli.BoolFlag{Name: "purge", Usage: "also remove the memory's side files: bimri-backup.md, bimri-archive.md and .claude/bimri/ (never bimri.md)"}),
			agentFlags(false)...),
		Action: func(c *cli.Context) error {
			if more, err := a.otherAgents(c, a.uninstallAgent); err != nil || !more {
				return err
			}
			root, err := resolveRoot(c, "")
			if err != nil {
				return err
			}
			file, err := install.SettingsFor(c.String("scope"), root)
			if err != nil {
				return err
			}
			var repo string
			if c.Bool("git") {
				if repo, err = install.GitTop(root); err != nil {
					return err
				}
			}
			was, changed, err := install.Uninstall(file)
			if err != nil {
				return err
			}
			install.PrintUninstalled(a.stdout, file, was, changed)
			if file.Scope != install.ScopeUser && !install.WiredHere(root) {
				path, changed, err := install.Unignore(root)
				if err != nil {
					return err
				}
				install.PrintUnignored(a.stdout, path, changed)
			}
			if !changed {
				for _, p := range install.EnabledPlugins(root) {
					install.PrintWarning(a.stdout, "the bimri-hook plugin "+p+" still runs here: bimri-hook off turns memory off in this workspace, claude plugin disable "+p+" turns the plugin off everywhere")
				}
			}
			if repo != "" {
				steps, err := install.UninstallGit(repo)
				install.PrintGitSteps(a.stdout, steps)
				if err != nil {
					return err
				}
			}
			if c.Bool("purge") {
				removed, err := install.Purge(root)
				install.PrintPurged(a.stdout, root, removed)
				return err
			}
			return nil
		},
	}
}

// link is install --link: the plugin user's own shell gets bimri-hook
// (install.LinkForShell).
func (a *app) link(c *cli.Context) error {
	for _, f := range []string{"scope", "git", "binary"} {
		if c.IsSet(f) {
			return errors.New("install --link wires nothing, so it takes no --" + f)
		}
	}
	exe, err := executable()
	if err != nil {
		return err
	}
	linked, err := install.LinkForShell(exe, c.String("bin-dir"))
	if err != nil {
		return err
	}
	install.PrintLinked(a.stdout, linked, install.OnPath(filepath.Dir(linked.Path), os.Getenv("PATH")))
	return nil
}
