package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/wiring"
	"github.com/tidwall/gjson"
	"github.com/urfave/cli/v2"
)

// Settings scopes, as Claude Code names them.
const (
	scopeProject = "project" // <workspace>/.claude/settings.json, shared through the repository
	scopeLocal   = "local"   // <workspace>/.claude/settings.local.json, this machine only
	scopeUser    = "user"    // ~/.claude/settings.json, every workspace
)

var scopes = []string{scopeProject, scopeLocal, scopeUser}

// settingsFile is one of the Claude Code settings files install can edit.
type settingsFile struct {
	scope string
	path  string
}

// claudeDir is where Claude Code keeps the user's configuration:
// CLAUDE_CONFIG_DIR when set, as Claude Code itself reads it, else ~/.claude.
func claudeDir() (string, error) {
	if dir := os.Getenv("CLAUDE_CONFIG_DIR"); dir != "" {
		return dir, nil
	}
	home := homeDir()
	if home == "" {
		return "", errors.New("no home folder for the user's Claude Code settings")
	}
	return filepath.Join(home, ".claude"), nil
}

// settingsFor returns the settings file of a scope for the workspace root.
func settingsFor(scope, root string) (settingsFile, error) {
	switch scope {
	case scopeProject:
		return settingsFile{scope, filepath.Join(root, ".claude", "settings.json")}, nil
	case scopeLocal:
		return settingsFile{scope, filepath.Join(root, ".claude", "settings.local.json")}, nil
	case scopeUser:
		dir, err := claudeDir()
		if err != nil {
			return settingsFile{}, err
		}
		return settingsFile{scope, filepath.Join(dir, "settings.json")}, nil
	}
	return settingsFile{}, fmt.Errorf("--scope %q is not one of %s", scope, strings.Join(scopes, ", "))
}

// readOptional reads a file that may not exist yet: then it is empty.
func readOptional(path string) ([]byte, bool, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return data, true, nil
}

// writeReplacing writes a configuration file atomically. A symlink (a
// dotfiles checkout, say) is written through, so it stays a symlink.
func writeReplacing(path string, data []byte) error {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return memfile.WriteFileAtomic(path, data)
}

// installBinary is the binary the settings will run: --binary, made
// absolute, or this executable. Uninstall and doctor recognise bimri-hook's
// entries by the name in the command, so a path without it is refused:
// they could never find what install wrote.
func installBinary(c *cli.Context) (string, error) {
	binary := c.String("binary")
	if binary == "" {
		binary = binaryPath()
	} else if strings.ContainsAny(binary, `/\`) {
		abs, err := filepath.Abs(binary)
		if err != nil {
			return "", fmt.Errorf("--binary %q: %w", binary, err)
		}
		info, err := os.Stat(abs)
		if err != nil {
			return "", fmt.Errorf("--binary: %w", err)
		}
		if info.IsDir() {
			return "", fmt.Errorf("--binary %s is a directory", abs)
		}
		binary = abs
	}
	if !strings.Contains(binary, wiring.Name) {
		return "", fmt.Errorf("binary %q does not have %q in its path, so uninstall and doctor could not recognise its hooks; rename it or give --binary", binary, wiring.Name)
	}
	return binary, nil
}

// scopeFlags are the flags install and uninstall share.
func scopeFlags(gitUsage string) []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "scope", Value: scopeProject, Usage: "settings to edit: project (.claude/settings.json), local (.claude/settings.local.json) or user (~/.claude/settings.json)"},
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
			file, err := settingsFor(c.String("scope"), root)
			if err != nil {
				return err
			}
			binary, err := installBinary(c)
			if err != nil {
				return err
			}
			command := wiring.Command{Binary: binary}
			// Find the repository first: a --git that cannot work must
			// fail before anything is written.
			var repo string
			if c.Bool("git") {
				if repo, err = gitTop(root); err != nil {
					return err
				}
			}

			was, changed, err := editSettings(file, func(b []byte) ([]byte, bool, error) { return wiring.Install(b, command) })
			if err != nil {
				return err
			}
			printInstalled(a.stdout, file, command, was, changed)
			for _, w := range twiceWarnings(root, file, command) {
				printWarning(a.stdout, w)
			}
			if file.scope != scopeUser && !workspaceTrusted(root) {
				printTrustNote(a.stdout, root, command)
			}
			if repo != "" {
				steps, err := installGit(repo, command)
				printGitSteps(a.stdout, steps)
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
			file, err := settingsFor(c.String("scope"), root)
			if err != nil {
				return err
			}
			var repo string
			if c.Bool("git") {
				if repo, err = gitTop(root); err != nil {
					return err
				}
			}
			was, changed, err := editSettings(file, wiring.Uninstall)
			if err != nil {
				return err
			}
			printUninstalled(a.stdout, file, was, changed)
			if repo != "" {
				steps, err := uninstallGit(repo)
				printGitSteps(a.stdout, steps)
				if err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// editSettings reads a settings file, notes what bimri-hook had wired in
// it, applies edit, and writes the result atomically if it changed.
func editSettings(file settingsFile, edit func([]byte) ([]byte, bool, error)) (was wiring.Wiring, changed bool, err error) {
	before, _, err := readOptional(file.path)
	if err != nil {
		return was, false, fmt.Errorf("read settings: %w", err)
	}
	if was, err = wiring.Inspect(before); err != nil {
		return was, false, fmt.Errorf("%s: %w", file.path, err)
	}
	after, changed, err := edit(before)
	if err != nil {
		return was, false, fmt.Errorf("%s: %w", file.path, err)
	}
	if changed {
		if err := writeReplacing(file.path, after); err != nil {
			return was, false, fmt.Errorf("write settings: %w", err)
		}
	}
	return was, changed, nil
}

// twiceWarnings says when something else would answer the same events as
// the settings just written: the bimri-hook plugin, or another scope's
// settings running a different command. (Claude Code runs identical hook
// commands once, so the same command in two scopes is harmless.)
func twiceWarnings(root string, installed settingsFile, command wiring.Command) []string {
	var warnings []string
	for _, scope := range scopes {
		file, err := settingsFor(scope, root)
		if err != nil {
			continue
		}
		data, _, err := readOptional(file.path)
		if err != nil {
			continue
		}
		w, err := wiring.Inspect(data)
		if err != nil {
			continue
		}
		for _, p := range w.Plugins {
			warnings = append(warnings, pluginTwiceWarning(file, p))
		}
		if scope == installed.scope {
			continue
		}
		var others []string
		for _, h := range w.Handlers {
			if h.Command != command.Hook() && !slices.Contains(others, h.Command) {
				others = append(others, h.Command)
			}
		}
		if len(others) > 0 {
			warnings = append(warnings, scopeTwiceWarning(file, others))
		}
	}
	return warnings
}

// workspaceTrusted tells whether the user accepted Claude Code's trust
// dialog for root, which Claude Code records in its own .claude.json.
// Until then it ignores a workspace's permission rules for commands that
// are not read-only, such as `bimri-hook remember`. false also means
// "cannot tell".
func workspaceTrusted(root string) bool {
	path := filepath.Join(homeDir(), ".claude.json")
	if dir := os.Getenv("CLAUDE_CONFIG_DIR"); dir != "" {
		path = filepath.Join(dir, ".claude.json")
	}
	data, err := os.ReadFile(path)
	if err != nil || !gjson.ValidBytes(data) {
		return false
	}
	names := []string{root, filepath.ToSlash(root)}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		names = append(names, real, filepath.ToSlash(real))
	}
	trusted := false
	gjson.GetBytes(data, "projects").ForEach(func(key, value gjson.Result) bool {
		if slices.Contains(names, key.Str) && value.Get("hasTrustDialogAccepted").Type == gjson.True {
			trusted = true
			return false
		}
		return true
	})
	return trusted
}

// gitTimeout bounds every git command: install must never hang on a
// repository that is locked or on a network filesystem gone away.
const gitTimeout = 10 * time.Second

// runGit runs git in dir and returns its stdout and exit code; err is set
// only when git could not run or did not finish in time.
func runGit(dir string, args ...string) (stdout string, code int, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.WaitDelay = time.Second
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	if ctx.Err() != nil {
		return "", -1, fmt.Errorf("git %s: no answer after %s", args[0], gitTimeout)
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return out.String(), exit.ExitCode(), nil
	}
	if err != nil {
		return "", -1, fmt.Errorf("run git: %w", err)
	}
	return out.String(), 0, nil
}

// gitTop is the top folder of the repository holding root.
func gitTop(root string) (string, error) {
	out, code, err := runGit(root, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", fmt.Errorf("--git: %w", err)
	}
	top := strings.TrimSpace(out)
	if code != 0 || top == "" {
		return "", fmt.Errorf("--git: %s is not in a git repository (run git init first, or leave out --git)", root)
	}
	return filepath.FromSlash(top), nil
}

// gitStep is one thing install --git or uninstall --git did, or found
// already done.
type gitStep struct {
	kind    gitStepKind
	what    string // the file, or the config key and value
	changed bool
}

type gitStepKind int

const (
	gitAttributesAdded gitStepKind = iota
	gitConfigSet
	gitConfigRemoved
	gitAttributesRemoved
)

// mergeDriverName is merge.bimri.name, what git shows for the driver.
const mergeDriverName = "bimri-hook memory merge"

// installGit gives bimri.md the bimri merge driver in .gitattributes and
// defines the driver in the repository's own git config.
func installGit(repo string, command wiring.Command) ([]gitStep, error) {
	var steps []gitStep
	path := filepath.Join(repo, ".gitattributes")
	before, _, err := readOptional(path)
	if err != nil {
		return steps, fmt.Errorf("read .gitattributes: %w", err)
	}
	after, changed := wiring.GitAttributes(before)
	if changed {
		if err := writeReplacing(path, after); err != nil {
			return steps, fmt.Errorf("write .gitattributes: %w", err)
		}
	}
	steps = append(steps, gitStep{kind: gitAttributesAdded, what: path, changed: changed})
	for _, kv := range [][2]string{
		{"merge." + wiring.MergeDriver + ".name", mergeDriverName},
		{"merge." + wiring.MergeDriver + ".driver", wiring.MergeDriverCommand(command)},
	} {
		changed, err := setGitConfig(repo, kv[0], kv[1])
		if err != nil {
			return steps, err
		}
		steps = append(steps, gitStep{kind: gitConfigSet, what: kv[0] + " = " + kv[1], changed: changed})
	}
	return steps, nil
}

// setGitConfig sets key in the repository's config unless it already has
// exactly that value.
func setGitConfig(repo, key, value string) (bool, error) {
	out, code, err := runGit(repo, "config", "--local", "--get-all", key)
	if err != nil {
		return false, err
	}
	if code == 0 && out == value+"\n" {
		return false, nil
	}
	if _, code, err = runGit(repo, "config", "--local", "--replace-all", key, value); err != nil {
		return false, err
	} else if code != 0 {
		return false, fmt.Errorf("git config %s failed (exit code %d)", key, code)
	}
	return true, nil
}

// uninstallGit undoes installGit: the merge.bimri section of the
// repository's config and bimri-hook's lines in .gitattributes. A
// .gitattributes left empty is removed: it holds nothing.
func uninstallGit(repo string) ([]gitStep, error) {
	var steps []gitStep
	section := "merge." + wiring.MergeDriver
	_, code, err := runGit(repo, "config", "--local", "--get-regexp", `^merge\.`+wiring.MergeDriver+`\.`)
	if err != nil {
		return steps, err
	}
	if code == 0 {
		if _, code, err := runGit(repo, "config", "--local", "--remove-section", section); err != nil {
			return steps, err
		} else if code != 0 {
			return steps, fmt.Errorf("git config --remove-section %s failed (exit code %d)", section, code)
		}
	}
	steps = append(steps, gitStep{kind: gitConfigRemoved, what: section, changed: code == 0})

	path := filepath.Join(repo, ".gitattributes")
	before, exists, err := readOptional(path)
	if err != nil {
		return steps, fmt.Errorf("read .gitattributes: %w", err)
	}
	after, changed := wiring.RemoveGitAttributes(before)
	switch {
	case !exists || !changed:
	case len(after) == 0:
		if err := os.Remove(path); err != nil {
			return steps, fmt.Errorf("remove .gitattributes: %w", err)
		}
	default:
		if err := writeReplacing(path, after); err != nil {
			return steps, fmt.Errorf("write .gitattributes: %w", err)
		}
	}
	steps = append(steps, gitStep{kind: gitAttributesRemoved, what: path, changed: changed})
	return steps, nil
}
