// Package install reads and writes what wires bimri-hook into Claude Code,
// the other clients and git; package wiring decides the bytes.
package install

import (
	"context"
	"encoding/json"
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

// maxSettingsSize caps a read: ~/.claude.json grows to megabytes.
const maxSettingsSize = 64 << 20

// ReadOptional reads a file that may not exist yet: then it is empty.
func ReadOptional(path string) ([]byte, bool, error) {
	data, err := safefile.Read(path, maxSettingsSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	return data, err == nil, err
}

// writeReplacing writes a file atomically, through a symlink (dotfiles).
func writeReplacing(path string, data []byte) error {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	err := os.MkdirAll(filepath.Dir(path), 0o755)
	if err == nil {
		err = safefile.WriteFile(path, data, safefile.Options{})
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// readReceipt reads the receipt at path of what an install added to a
// file (wiring.Receipt); nil when there is none. A damaged one only costs
// exactness: uninstall then removes bimri-hook's entries and the
// containers they leave empty.
func readReceipt(path string) (*wiring.Receipt, error) {
	var r wiring.Receipt
	data, exists, err := ReadOptional(path)
	if !exists || json.Unmarshal(data, &r) != nil {
		return nil, err
	}
	return &r, nil
}

func writeReceipt(path string, r wiring.Receipt) error {
	data, _ := json.Marshal(r) // a struct of strings
	return writeReplacing(path, append(data, '\n'))
}

// BinaryFor is the binary install writes at scope: --binary made absolute,
// else this executable, or at the shared project scope the bare name when
// PATH's bimri-hook is this one. Uninstall and doctor know our entries by
// the name, so a path without it is refused.
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

// readScopes reads every scope's Claude Code settings for root, in
// Scopes' order.
func readScopes(root string) []Status {
	var all []Status
	for _, scope := range Scopes {
		all = append(all, Check(wiring.Claude, scope, root))
	}
	return all
}

// warnTwice says what else would answer the events just wired: the
// plugin, or another scope running a different command (the client runs
// identical commands once).
func warnTwice(w io.Writer, root string, installed SettingsFile, command wiring.Command) {
	for _, s := range readScopes(root) {
		if s.Err != nil {
			continue
		}
		for _, p := range s.Plugins {
			fmt.Fprintf(w, "warning: the bimri-hook plugin %s is enabled in %s, so every event would run bimri-hook twice; keep one: disable the plugin (claude plugin disable %s), or run bimri-hook uninstall --scope %s\n",
				p, s.File.Path, p, installed.Scope)
		}
		var others []string
		for _, h := range s.Handlers {
			if h.Command != command.Hook() && !slices.Contains(others, h.Command) {
				others = append(others, h.Command)
			}
		}
		if len(others) > 0 && s.File.Scope != installed.Scope {
			fmt.Fprintf(w, "warning: %s (%s scope) also runs %s, so every event would run bimri-hook twice; run bimri-hook uninstall --scope %s unless you mean it\n",
				s.File.Path, s.File.Scope, strings.Join(others, " and "), s.File.Scope)
		}
	}
}

// WorkspaceTrusted tells whether the user accepted Claude Code's trust
// dialog for root, before which it ignores the workspace's rules; false
// also means "cannot tell".
func WorkspaceTrusted(root string) bool {
	data, err := safefile.Read(workspace.ClaudeState(), maxSettingsSize)
	if err != nil || !gjson.ValidBytes(data) {
		return false
	}
	names := []string{root, filepath.ToSlash(root)}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		names = append(names, real, filepath.ToSlash(real))
	}
	return slices.ContainsFunc(names, func(name string) bool {
		return gjson.GetBytes(data, "projects."+gjson.Escape(name)+".hasTrustDialogAccepted").Type == gjson.True
	})
}

// gitTimeout bounds every git command: a locked repository or a dead
// network filesystem must not hang install.
const gitTimeout = 10 * time.Second

// RunGit runs git in dir; err only when it could not run or finish.
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

// gitTop is the top of root's repository with --git; "" without.
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

// ignore adds wiring.IgnoreLines to the .gitignore of a workspace in a
// repository, and says so.
func ignore(w io.Writer, root string) error {
	if workspace.Repository(root) == "" {
		return nil
	}
	path := filepath.Join(root, ".gitignore")
	before, changed, err := addIgnoreLines(path, wiring.IgnoreLines)
	switch {
	case err != nil:
		return err
	case !changed:
		fmt.Fprintf(w, "  git: %s already keeps bimri-hook's personal side files out of git\n", path)
		return nil
	}
	fmt.Fprintf(w, "  git: %s now keeps bimri-hook's personal side files out of git (%s); bimri.md and bimri-archive.md are shared\n", path, strings.Join(wiring.IgnoreLines, " "))
	if len(before) > 0 && before[len(before)-1] != '\n' {
		return writeReceipt(ignoreReceipt(root), wiring.Receipt{Created: []string{"line break"}})
	}
	return nil
}

// addIgnoreLines adds the lines an ignore file lacks.
func addIgnoreLines(path string, lines []string) (before []byte, changed bool, err error) {
	if before, _, err = ReadOptional(path); err != nil {
		return nil, false, err
	}
	after, changed := wiring.AddIgnoreLines(before, lines)
	if changed {
		err = writeReplacing(path, after)
	}
	return before, changed, err
}

// createdAttributesKey records that install --git created .gitattributes.
var createdAttributesKey = "merge." + wiring.MergeDriver + ".bimricreated"

// Git gives bimri.md its merge driver in .gitattributes and the
// repository's config, saying each step.
func Git(w io.Writer, repo string, command wiring.Command) error {
	path := filepath.Join(repo, ".gitattributes")
	before, existed, err := ReadOptional(path)
	if err != nil {
		return err
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

// uninstallGit undoes Git; a .gitattributes left empty goes only when
// install made it or git does not track it.
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
		return err
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
