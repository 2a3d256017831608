package workspace

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/bimri/bimri-hook/internal/inspect"
	"github.com/bimri/bimri-hook/memfile"
)

// projectDirVar is the client's project folder, set for the commands it
// runs (hooks, MCP servers).
const projectDirVar = "CLAUDE_PROJECT_DIR"

// Root is the workspace a command works on: $CLAUDE_PROJECT_DIR, else the
// first of given that is not empty (a hook input's cwd, --dir), else the
// one found from the current folder.
func Root(given ...string) (string, error) {
	for _, dir := range append([]string{os.Getenv(projectDirVar)}, given...) {
		if dir != "" {
			abs, err := filepath.Abs(dir)
			if err != nil {
				return "", fmt.Errorf("workspace %q: %w", dir, err)
			}
			return abs, nil
		}
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("current folder: %w", err)
	}
	return find(wd, stops())
}

// errNoWorkspace refuses home and the file system's root unless named
// with --dir: a bimri.md there would gather every project's memory.
var errNoWorkspace = errors.New("not a workspace")

// stops says whether a walk up stops at a folder: the file system's root,
// home, and $GIT_CEILING_DIRECTORIES, so a stray ~/bimri.md is never found.
func stops() func(dir string) bool {
	var list []string
	if h := Home(); h != "" {
		list = append(list, filepath.Clean(h))
	}
	for _, c := range filepath.SplitList(os.Getenv("GIT_CEILING_DIRECTORIES")) {
		if filepath.IsAbs(c) {
			list = append(list, filepath.Clean(c))
		}
	}
	return func(d string) bool { return isFSRoot(d) || slices.Contains(list, d) }
}

// find is the workspace of a command run in dir, found as git finds its
// repository: the nearest folder up holding bimri.md, else the
// repository's root, else dir itself.
func find(dir string, stopped func(string) bool) (string, error) {
	dir = filepath.Clean(dir)
	if stopped(dir) {
		return "", fmt.Errorf("%s is %s, %w: run bimri-hook in a project's folder, or name the workspace with --dir",
			dir, inspect.Pick(isFSRoot(dir), "the file system's root", "your home folder"), errNoWorkspace)
	}
	if found := walkUp(dir, stopped, holdsMemory); found != "" {
		return found, nil // the repository's walk, more stats, only when none holds it
	}
	return cmp.Or(walkUp(dir, stopped, isRepository), dir), nil
}

// Repository is the root of the git repository dir is in, found as Root
// finds it; "" when there is none.
func Repository(dir string) string {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	return walkUp(dir, stops(), isRepository)
}

// walkUp is the nearest folder from dir up that has, "" for none.
func walkUp(dir string, stopped func(string) bool, has func(dir string) bool) string {
	for d := filepath.Clean(dir); !stopped(d); d = filepath.Dir(d) {
		if has(d) {
			return d
		}
	}
	return ""
}

func holdsMemory(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, memfile.MemoryName))
	return err == nil
}

// isRepository says dir is a repository's root as git sees it: a .git
// file (a worktree's or a submodule's link), or a .git folder with a
// HEAD. A stray .git holding only info/exclude is not one, so nothing
// writes on into it.
func isRepository(dir string) bool {
	info, err := os.Lstat(filepath.Join(dir, ".git"))
	if err != nil || info.Mode().IsRegular() {
		return err == nil
	}
	_, err = os.Lstat(filepath.Join(dir, ".git", "HEAD"))
	return info.IsDir() && err == nil
}

func isFSRoot(dir string) bool { return filepath.Dir(dir) == dir }
