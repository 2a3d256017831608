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

// IgnoreLocally puts the ignore rules, for a route with no install step,
// in .git/info/exclude, unless .gitignore or it has them; path is the file
// written, "" when none was.
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
	if _, changed, err := addIgnoreLines(path, wiring.IgnoreLinesUnder(filepath.ToSlash(rel))); err != nil || !changed {
		return "", err
	}
	return path, nil
}

// gitCommonDir is the folder of info/exclude, found without running git
// (a hook calls it): repo/.git, or a linked worktree's commondir.
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

// unignore takes out the lines Ignore added, and the line break it put
// after a last line that had none.
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

// ignoreReceipt records that Ignore ended the .gitignore's last line.
func ignoreReceipt(root string) string {
	return filepath.Join(root, ".claude", "gitignore.bimri-receipt")
}

// putBackGit writes a file uninstall edited, or removes it when left empty
// and install made it (created, or git does not track it).
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

// wiredHere says whether the workspace's own settings still run (or may
// run) bimri-hook: then the side files still need ignoring.
func wiredHere(root string) bool {
	for _, s := range readScopes(root) {
		if s.File.Scope != ScopeUser && (s.Err != nil || len(s.Handlers) > 0) {
			return true
		}
	}
	return false
}
