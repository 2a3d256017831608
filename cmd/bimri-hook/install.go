package main

import (
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
		UsageText: "bimri-hook install [--scope project|local|user] [--binary PATH] [--git]",
		Flags: append(scopeFlags("also give bimri.md its merge driver in this git repository (.gitattributes and git config)"),
			&cli.StringFlag{Name: "binary", Usage: "the bimri-hook `PATH` the hooks run (default: this executable)"}),
		Action: func(c *cli.Context) error {
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
		UsageText: "bimri-hook uninstall [--scope project|local|user] [--git]",
		Flags:     scopeFlags("also remove the merge driver for bimri.md from this git repository"),
		Action: func(c *cli.Context) error {
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
			if repo != "" {
				steps, err := install.UninstallGit(repo)
				install.PrintGitSteps(a.stdout, steps)
				if err != nil {
					return err
				}
			}
			return nil
		},
	}
}
