package install

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/bimri/bimri-hook/internal/workspace"
	"github.com/bimri/bimri-hook/store/safefile"
	"github.com/bimri/bimri-hook/wiring"
)

// IgnoreLocally gives a workspace in a git repository the ignore rules
// for its personal side files where a route with no install step can:
// the repository's .git/info/exclude, which git never commits. Nothing is
// written when the workspace's .gitignore (install) or the exclude file
// holds them already. path is the file written, "" when none was.
func IgnoreLocally(root string) (path string, err error) {
	repo := workspace.Repository(root)
	if repo == "" {
		return "", nil
	}
	if ignore, err := safefile.Read(filepath.Join(root, ".gitignore"), maxSettingsSize); err == nil {
		if _, missing := wiring.AddIgnoreLines(ignore, wiring.IgnoreLines); !missing {
			return "", nil
		}
	}
	rel, err := filepath.Rel(repo, root)
	if err != nil {
		return "", err
	}
	common, err := gitCommonDir(repo)
	if err != nil {
		return "", err
	}
	path = filepath.Join(common, "info", "exclude")
	before, _, err := ReadOptional(path)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	after, changed := wiring.AddIgnoreLines(before, wiring.IgnoreLinesUnder(filepath.ToSlash(rel)))
	if !changed {
		return "", nil
	}
	return path, writeReplacing(path, after)
}

// gitCommonDir is the folder holding the repository's info/exclude,
// found without running git: repo/.git, or for a linked worktree (.git
// is a file naming its own folder) the folder its commondir names.
func gitCommonDir(repo string) (string, error) {
	dotgit := filepath.Join(repo, ".git")
	info, err := os.Stat(dotgit)
	if err != nil {
		return "", err
	}
	if info.IsDir() {
		return dotgit, nil
	}
	data, err := safefile.Read(dotgit, 1<<16)
	if err != nil {
		return "", err
	}
	gitdir, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return "", fmt.Errorf("%s names no gitdir", dotgit)
	}
	dir := filepath.FromSlash(strings.TrimSpace(gitdir))
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(repo, dir)
	}
	common, err := safefile.Read(filepath.Join(dir, "commondir"), 1<<16)
	if err != nil {
		return dir, nil // a submodule's folder: its own info/exclude
	}
	c := filepath.FromSlash(strings.TrimSpace(string(common)))
	if !filepath.IsAbs(c) {
		c = filepath.Join(dir, c)
	}
	return filepath.Clean(c), nil
}

// unignore takes out of the workspace's .gitignore the lines Ignore
// added, and the line break it put after a last line that had none. A
// .gitignore left empty is removed only when git does not track it.
func unignore(root string) (path string, changed bool, err error) {
	repo := workspace.Repository(root)
	if repo == "" {
		return "", false, nil
	}
	path = filepath.Join(root, ".gitignore")
	before, exists, err := ReadOptional(path)
	if err != nil || !exists {
		return path, false, err
	}
	after, changed := wiring.RemoveGitIgnore(before)
	if !changed {
		return path, false, nil
	}
	r, _, _ := readReceipt(ignoreReceipt(root))
	if r.Made("line break") && bytes.HasPrefix(before, after) {
		after = bytes.TrimSuffix(bytes.TrimSuffix(after, []byte("\n")), []byte("\r"))
	}
	if err := putBackGit(repo, path, after, false); err != nil {
		return path, true, err
	}
	_ = os.Remove(ignoreReceipt(root))
	return path, true, nil
}

// ignoreReceipt is the file whose receipt says Ignore ended the last
// line of the .gitignore, which had no line break, before its own lines.
func ignoreReceipt(root string) string {
	return filepath.Join(root, ".claude", "gitignore.bimri-receipt")
}

// putBackGit writes a file uninstall edited, or removes it when uninstall
// left it empty and install made it: created says so, or else git does
// not track it (a file committed before install stays, edited back).
func putBackGit(repo, path string, after []byte, created bool) error {
	if len(after) == 0 && (created || !tracked(repo, path)) {
		if err := os.Remove(path); err != nil {
			return fmt.Errorf("remove %s: %w", path, err)
		}
		return nil
	}
	return writeReplacing(path, after)
}

// tracked says whether path is committed or staged in repo.
func tracked(repo, path string) bool {
	_, code, err := RunGit(repo, "ls-files", "--error-unmatch", "--", path)
	return err == nil && code == 0
}

// wiredHere says whether the workspace's own settings (project or local
// scope) still run bimri-hook, or cannot be read: then the side files
// still need ignoring.
func wiredHere(root string) bool {
	for _, s := range ReadScopes(root) {
		if s.File.Scope != ScopeUser && (s.Err != nil || len(s.Wiring.Handlers) > 0) {
			return true
		}
	}
	return false
}
