package install

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bimri/bimri-hook/internal/workspace"
	"github.com/bimri/bimri-hook/store/safefile"
	"github.com/bimri/bimri-hook/wiring"
)

// IgnoreLocally puts the ignore rules, for a route with no install step,
// in .git/info/exclude, unless .gitignore or it has them.
func IgnoreLocally(root string) error {
	repo := workspace.Repository(root)
	if repo == "" {
		return nil
	}
	if ignore, err := safefile.Read(filepath.Join(root, ".gitignore"), maxSettingsSize); err == nil {
		if _, missing := wiring.AddIgnoreLines(ignore, wiring.IgnoreLines); !missing {
			return nil
		}
	}
	rel, err := filepath.Rel(repo, root)
	if err != nil {
		return err
	}
	common, err := gitCommonDir(repo)
	if err == nil {
		_, _, err = addIgnoreLines(filepath.Join(common, "info", "exclude"), wiring.IgnoreLinesUnder(filepath.ToSlash(rel)))
	}
	return err
}

// gitCommonDir is the folder of info/exclude, found without running git
// (a hook calls it): repo/.git, or a linked worktree's commondir.
func gitCommonDir(repo string) (string, error) {
	dotgit := filepath.Join(repo, ".git")
	if info, err := os.Stat(dotgit); err != nil || info.IsDir() {
		return dotgit, err
	}
	dir, err := gitPath(dotgit, repo, "gitdir:")
	if err != nil {
		return "", err
	}
	if common, err := gitPath(filepath.Join(dir, "commondir"), dir, ""); err == nil {
		return common, nil
	}
	return dir, nil // a submodule's folder: its own info/exclude
}

// gitPath reads the path git keeps in file after prefix, relative to dir.
func gitPath(file, dir, prefix string) (string, error) {
	data, err := safefile.Read(file, 1<<16)
	path, ok := strings.CutPrefix(strings.TrimSpace(string(data)), prefix)
	if err == nil && !ok {
		err = fmt.Errorf("%s names no %s", file, prefix)
	}
	if err != nil {
		return "", err
	}
	if path = filepath.FromSlash(strings.TrimSpace(path)); !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	return filepath.Clean(path), nil
}

// unignore takes out the lines ignore added, and the line break it put
// after a last line that had none, and says so.
func unignore(w io.Writer, root string) error {
	repo := workspace.Repository(root)
	if repo == "" {
		return nil
	}
	path := filepath.Join(root, ".gitignore")
	before, _, err := ReadOptional(path)
	if err != nil {
		return err
	}
	after, changed := wiring.RemoveGitIgnore(before)
	if !changed {
		return nil
	}
	r, _ := readReceipt(ignoreReceipt(root))
	if r.Made("line break") && bytes.HasPrefix(before, after) {
		after = bytes.TrimSuffix(bytes.TrimSuffix(after, []byte("\n")), []byte("\r"))
	}
	if err := putBackGit(repo, path, after, false); err != nil {
		return err
	}
	_ = os.Remove(ignoreReceipt(root))
	fmt.Fprintf(w, "  git: removed bimri-hook's ignore lines from %s\n", path)
	return nil
}

// ignoreReceipt records that ignore ended the .gitignore's last line.
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
	return slices.ContainsFunc(readScopes(root), func(s Status) bool {
		return s.File.Scope != ScopeUser && (s.Err != nil || len(s.Handlers) > 0)
	})
}
