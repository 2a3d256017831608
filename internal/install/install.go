// Package install reads and writes what wires bimri-hook into Claude Code,
// the other clients and git; package wiring decides the bytes.
package install

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/internal/workspace"
	"github.com/bimri/bimri-hook/store/atomicfile"
	"github.com/bimri/bimri-hook/store/safefile"
	"github.com/bimri/bimri-hook/wiring"
	"github.com/tidwall/gjson"
)

// Settings scopes, as Claude Code names them.
const (
	ScopeProject = "project" // <workspace>/.claude/settings.json, shared through the repository
	scopeLocal   = "local"   // <workspace>/.claude/settings.local.json, this machine only
	ScopeUser    = "user"    // ~/.claude/settings.json, every workspace
)

// Scopes are every scope, in the order doctor reports them.
var Scopes = []string{ScopeProject, scopeLocal, ScopeUser}

// SettingsFile is one of the Claude Code settings files install can edit.
type SettingsFile struct {
	Scope string
	Path  string
}

// maxSettingsSize caps a settings file read. ~/.claude.json, which keeps
// every project's history, grows to megabytes; nothing of Claude Code's
// reaches this.
const maxSettingsSize = 64 << 20

// ReadOptional reads a file that may not exist yet: then it is empty.
func ReadOptional(path string) ([]byte, bool, error) {
	data, err := safefile.Read(path, maxSettingsSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	return data, err == nil, err
}

// writeReplacing writes a configuration file atomically, through a
// symlink (a dotfiles checkout, say), which stays one.
func writeReplacing(path string, data []byte) error {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	err := os.MkdirAll(filepath.Dir(path), 0o755)
	if err == nil {
		err = atomicfile.WriteFile(path, data, atomicfile.Options{})
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// BinaryFor is the binary install writes into the settings of scope: the
// one given (--binary), made absolute, or else this executable; at project
// scope, whose file teams share, the bare name when nothing was given and
// PATH's bimri-hook is this binary (the hook started by that name gives
// the agent the bare name too, which the rule install writes matches).
// Uninstall and doctor recognise bimri-hook's entries by the name in the
// command, so a path without it is refused.
func BinaryFor(scope, given string) (string, error) {
	binary := given
	if binary == "" {
		binary = workspace.Binary()
		if scope == ScopeProject && workspace.OnPath(binary) {
			binary = wiring.Name
		}
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

// Scoped is what the settings file of one scope holds of bimri-hook's.
type Scoped struct {
	File   SettingsFile // Path is "" when the scope has no place (no home folder)
	Exists bool
	Wiring wiring.Wiring
	Err    error // the file has no place, cannot be read, or is not settings
}

// ReadScopes reads every scope's settings for root, in Scopes' order.
func ReadScopes(root string) []Scoped {
	var all []Scoped
	for _, scope := range Scopes {
		s := Scoped{File: SettingsFile{Scope: scope}}
		var data []byte
		var p Places
		if p, s.Err = PlacesFor(wiring.Claude, scope, root); s.Err == nil {
			s.File = p.File
			if data, s.Exists, s.Err = ReadOptional(s.File.Path); s.Err != nil {
				s.Err = fmt.Errorf("%s cannot be read: %w", s.File.Path, s.Err)
			} else if s.Wiring, s.Err = wiring.Inspect(data); s.Err != nil {
				s.Err = fmt.Errorf("%s: %w", s.File.Path, s.Err)
			}
		}
		all = append(all, s)
	}
	return all
}

// twiceWarnings say what else would answer the events just wired into
// installed, and how to end it: the bimri-hook plugin, or another scope's
// settings running a different command. (Claude Code runs identical hook
// commands once, so the same command in two scopes is harmless.)
func twiceWarnings(root string, installed SettingsFile, command wiring.Command) []string {
	var warnings []string
	for _, s := range ReadScopes(root) {
		if s.Err != nil {
			continue
		}
		for _, p := range s.Wiring.Plugins {
			warnings = append(warnings, fmt.Sprintf("the bimri-hook plugin %s is enabled in %s, so every event would run bimri-hook twice; keep one: disable the plugin (claude plugin disable %s), or run bimri-hook uninstall --scope %s",
				p, s.File.Path, p, installed.Scope))
		}
		var others []string
		for _, h := range s.Wiring.Handlers {
			if h.Command != command.Hook() && !slices.Contains(others, h.Command) {
				others = append(others, h.Command)
			}
		}
		if len(others) > 0 && s.File.Scope != installed.Scope {
			warnings = append(warnings, fmt.Sprintf("%s (%s scope) also runs %s, so every event would run bimri-hook twice; run bimri-hook uninstall --scope %s unless you mean it",
				s.File.Path, s.File.Scope, strings.Join(others, " and "), s.File.Scope))
		}
	}
	return warnings
}

// enabledPlugins are the bimri-hook plugins some settings file of root's
// enables, each once.
func enabledPlugins(root string) []string {
	var plugins []string
	for _, s := range ReadScopes(root) {
		for _, p := range s.Wiring.Plugins {
			if !slices.Contains(plugins, p) {
				plugins = append(plugins, p)
			}
		}
	}
	return plugins
}

// WorkspaceTrusted tells whether the user accepted Claude Code's trust
// dialog for root (recorded in its .claude.json), before which it ignores
// the workspace's permission rules. false also means "cannot tell".
func WorkspaceTrusted(root string) bool {
	data, err := safefile.Read(workspace.ClaudeState(), maxSettingsSize)
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

// RunGit runs git in dir and returns its stdout and exit code; err is set
// only when git could not run or did not finish in time.
func RunGit(dir string, args ...string) (stdout string, code int, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.WaitDelay = time.Second
	out, err := cmd.Output()
	if ctx.Err() != nil {
		return "", -1, fmt.Errorf("git %s: no answer after %s", args[0], gitTimeout)
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return string(out), exit.ExitCode(), nil
	}
	if err != nil {
		return "", -1, fmt.Errorf("run git: %w", err)
	}
	return string(out), 0, nil
}

// gitTop is the top folder of the repository holding root, with --git;
// "" without.
func gitTop(git bool, root string) (string, error) {
	if !git {
		return "", nil
	}
	out, code, err := RunGit(root, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", fmt.Errorf("--git: %w", err)
	}
	top := strings.TrimSpace(out)
	if code != 0 || top == "" {
		return "", fmt.Errorf("--git: %s is not in a git repository (run git init first, or leave out --git)", root)
	}
	return filepath.FromSlash(top), nil
}

// Ignore adds wiring.IgnoreLines to the workspace's .gitignore, so that
// `git add .` stages bimri.md and its archive but not the personal side
// files. path is "" when there is no repository.
func Ignore(root string) (path string, changed bool, err error) {
	if workspace.Repository(root) == "" {
		return "", false, nil
	}
	path = filepath.Join(root, ".gitignore")
	before, _, err := ReadOptional(path)
	if err != nil {
		return path, false, fmt.Errorf("read .gitignore: %w", err)
	}
	after, changed := wiring.AddIgnoreLines(before, wiring.IgnoreLines)
	if !changed {
		return path, false, nil
	}
	if err := writeReplacing(path, after); err != nil {
		return path, false, err
	}
	if len(before) > 0 && before[len(before)-1] != '\n' {
		if err := writeReceipt(ignoreReceipt(root), wiring.Receipt{Created: []string{"line break"}}); err != nil {
			return path, true, err
		}
	}
	return path, true, nil
}

// createdAttributesKey says in the repository's config that install --git
// created .gitattributes, which uninstall --git may then remove; it goes
// with the section.
var createdAttributesKey = "merge." + wiring.MergeDriver + ".bimricreated"

// Git gives bimri.md the bimri merge driver in .gitattributes and
// defines the driver in the repository's own git config, saying each step.
func Git(w io.Writer, repo string, command wiring.Command) error {
	path := filepath.Join(repo, ".gitattributes")
	before, existed, err := ReadOptional(path)
	if err != nil {
		return fmt.Errorf("read .gitattributes: %w", err)
	}
	if after, changed := wiring.GitAttributes(before); !changed {
		fmt.Fprintf(w, "git: %s already gives bimri.md and bimri-archive.md their merge drivers\n", path)
	} else if err := writeReplacing(path, after); err != nil {
		return err
	} else {
		fmt.Fprintf(w, "git: %s now gives bimri.md the %s merge driver and bimri-archive.md the union driver\n", path, wiring.MergeDriver)
	}
	settings := [][2]string{
		{"merge." + wiring.MergeDriver + ".name", "bimri-hook memory merge"},
		{"merge." + wiring.MergeDriver + ".driver", wiring.MergeDriverCommand(command)},
	}
	if !existed {
		settings = append([][2]string{{createdAttributesKey, "true"}}, settings...)
	}
	for _, kv := range settings {
		out, code, err := RunGit(repo, "config", "--local", "--get-all", kv[0])
		if err != nil {
			return err
		}
		verb := "already set"
		if code != 0 || out != kv[1]+"\n" {
			if err := runGitOK(repo, "config", "--local", "--replace-all", kv[0], kv[1]); err != nil {
				return err
			}
			verb = "set"
		}
		if kv[0] != createdAttributesKey {
			fmt.Fprintf(w, "git: %s %s = %s\n", verb, kv[0], kv[1])
		}
	}
	return nil
}

// runGitOK runs git, and an exit code other than 0 is an error.
func runGitOK(repo string, args ...string) error {
	_, code, err := RunGit(repo, args...)
	if err == nil && code != 0 {
		err = fmt.Errorf("git %s failed (exit code %d)", strings.Join(args, " "), code)
	}
	return err
}

// uninstallGit undoes Git: the merge.bimri section of the repository's
// config and bimri-hook's lines in .gitattributes. A .gitattributes left
// empty is removed only when install made it (or git does not track it):
// one committed before install is edited back.
func uninstallGit(w io.Writer, repo string) error {
	created, _, err := RunGit(repo, "config", "--local", "--get", createdAttributesKey)
	if err != nil {
		return err
	}
	section := "merge." + wiring.MergeDriver
	_, code, err := RunGit(repo, "config", "--local", "--get-regexp", `^merge\.`+wiring.MergeDriver+`\.`)
	switch {
	case err != nil:
		return err
	case code != 0:
		fmt.Fprintf(w, "git: no %s section in the repository's config\n", section)
	default:
		if err := runGitOK(repo, "config", "--local", "--remove-section", section); err != nil {
			return err
		}
		fmt.Fprintf(w, "git: removed the %s section from the repository's config\n", section)
	}
	path := filepath.Join(repo, ".gitattributes")
	before, exists, err := ReadOptional(path)
	if err != nil {
		return fmt.Errorf("read .gitattributes: %w", err)
	}
	after, changed := wiring.RemoveGitAttributes(before)
	if !exists || !changed {
		fmt.Fprintf(w, "git: no merge lines of bimri-hook's in %s\n", path)
		return nil
	}
	if err := putBackGit(repo, path, after, strings.TrimSpace(created) == "true"); err != nil {
		return err
	}
	fmt.Fprintf(w, "git: removed bimri-hook's merge lines from %s\n", path)
	return nil
}
