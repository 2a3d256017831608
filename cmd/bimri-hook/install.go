package main

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"

	"github.com/bimri/bimri-hook/internal/install"
	"github.com/bimri/bimri-hook/internal/workspace"
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
		Flags: append(scopeFlags("also give bimri.md its merge driver in this git repository (.gitattributes and git config)"),
			&cli.StringFlag{Name: "binary", Usage: "the bimri-hook `PATH` the hooks run (default: this executable)"},
			&cli.BoolFlag{Name: "link", Usage: "wire nothing: link the Claude Code plugin's bimri-hook into a folder of your PATH, kept at the plugin's current version"},
			&cli.StringFlag{Name: "bin-dir", Usage: "the `FOLDER` install --link links into (default: $BIMRI_BIN_DIR, else ~/.local/bin)"}),
		Action: func(c *cli.Context) error {
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

// link is install --link: the plugin user's own shell gets bimri-hook, a
// link in a folder of PATH to the plugin's stable link (install.Link),
// which the plugin's SessionStart keeps at its current version.
func (a *app) link(c *cli.Context) error {
	for _, f := range []string{"scope", "git", "binary"} {
		if c.IsSet(f) {
			return errors.New("install --link wires nothing, so it takes no --" + f)
		}
	}
	if runtime.GOOS == "windows" {
		return errors.New("install --link makes symbolic links, which it does not on Windows (not tried there): unzip the release's .zip into a folder on PATH")
	}
	exe, err := executable()
	if err != nil {
		return err
	}
	data := os.Getenv("CLAUDE_PLUGIN_DATA")
	if data != "" {
		if _, err := install.KeepCurrent(data, exe); err != nil {
			return err
		}
	} else if data, err = pluginData(exe); err != nil {
		return err
	}
	dir := c.String("bin-dir")
	if dir == "" {
		dir = os.Getenv("BIMRI_BIN_DIR")
	}
	if dir == "" {
		home := workspace.Home()
		if home == "" {
			return errors.New("no home folder for ~/.local/bin: give --bin-dir")
		}
		dir = filepath.Join(home, ".local", "bin")
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return err
	}
	linked, err := install.Link(dir, install.StableLink(data))
	if err != nil {
		return err
	}
	install.PrintLinked(a.stdout, linked, install.OnPath(dir, os.Getenv("PATH")))
	return nil
}

// pluginData is the data folder of the plugin whose bimri-hook exe is,
// for a run the client gives no CLAUDE_PLUGIN_DATA (the agent's Bash).
func pluginData(exe string) (string, error) {
	if data, ok := install.FindPluginData(workspace.ClaudeDir(), exe); ok {
		return data, nil
	}
	return "", errors.New("install --link links the Claude Code plugin's bimri-hook, which " + exe + " is not, or not yet: " +
		"in a Claude Code session with the plugin, ask Claude to run bimri-hook install --link (the plugin's bimri-hook is on its PATH)")
}

// keepPluginLink keeps the plugin's stable link (install.KeepCurrent) at
// this binary, at every SessionStart of the plugin (only the plugin's
// hooks get CLAUDE_PLUGIN_DATA): after an update, the new version's
// binary. A link that cannot be made costs the session nothing: install
// --link, run by hand, says why. os.Executable, not executable(): the
// dispatcher execs the bundled binary by its own path, and a target that
// still holds a link of a folder leads to the same file, so the hook
// skips the walk that resolves each folder of the path.
func keepPluginLink() {
	data := os.Getenv("CLAUDE_PLUGIN_DATA")
	if data == "" || runtime.GOOS == "windows" {
		return
	}
	if exe, err := os.Executable(); err == nil {
		_, _ = install.KeepCurrent(data, exe)
	}
}
