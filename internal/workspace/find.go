package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/bimri/bimri-hook/memfile"
)

// projectDirVar is the variable Claude Code sets to the project's folder
// for the commands it runs (hooks, MCP servers).
const projectDirVar = "CLAUDE_PROJECT_DIR"

// Root is the workspace a command works on: $CLAUDE_PROJECT_DIR when set
// (the client's project folder), else the first of given that is not
// empty (a hook input's cwd, --dir), taken as it is; else the workspace
// findWorkspace finds from the current folder.
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
	return findWorkspace(wd)
}

// errNoWorkspace is findWorkspace's error when the folder it is asked about is
// the home folder or the file system's root, which are never taken as a
// workspace unless named with --dir: a bimri.md there would gather every
// project's memory.
var errNoWorkspace = errors.New("not a workspace")

// findWorkspace is the workspace of a command run in dir, found as git finds its
// repository: from dir up to the nearest folder holding bimri.md, else
// the root of the git repository dir is in (the nearest folder holding
// .git), else dir itself. The walk never looks at or above the user's
// home folder, the file system's root, or a folder of
// $GIT_CEILING_DIRECTORIES, so a stray ~/bimri.md is never found.
func findWorkspace(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("workspace %q: %w", dir, err)
	}
	return find(dir, stops())
}

// stops says whether a walk up stops at a folder: the file system's root,
// home, and git's ceilings.
func stops() func(dir string) bool {
	var list []string
	if h := Home(); h != "" {
		list = append(list, filepath.Clean(h))
	}
	for _, c := range filepath.SplitList(os.Getenv("GIT_CEILING_DIRECTORIES")) {
		if c != "" && filepath.IsAbs(c) {
			list = append(list, filepath.Clean(c))
		}
	}
	return func(d string) bool { return isFSRoot(d) || slices.Contains(list, d) }
}

func find(dir string, stopped func(string) bool) (string, error) {
	dir = filepath.Clean(dir)
	if stopped(dir) {
		what := "the file system's root"
		if !isFSRoot(dir) {
			what = "your home folder"
		}
		return "", fmt.Errorf("%s is %s, %w: run bimri-hook in a project's folder, or name the workspace with --dir", dir, what, errNoWorkspace)
	}
	for d := dir; !stopped(d); d = filepath.Dir(d) {
		if exists(filepath.Join(d, memfile.MemoryName)) {
			return d, nil
		}
	}
	if repo := repository(dir, stopped); repo != "" {
		return repo, nil
	}
	return dir, nil
}

// Repository is the root of the git repository dir is in, found as findWorkspace
// finds it (the nearest folder holding .git, not looking in the home
// folder, / or $GIT_CEILING_DIRECTORIES); "" when there is none.
func Repository(dir string) string {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	return repository(filepath.Clean(dir), stops())
}

func repository(dir string, stopped func(string) bool) string {
	for d := dir; !stopped(d); d = filepath.Dir(d) {
		if exists(filepath.Join(d, ".git")) {
			return d
		}
	}
	return ""
}

// isFSRoot tells whether dir is a file system root: / or a volume's.
func isFSRoot(dir string) bool { return filepath.Dir(dir) == dir }

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
