package workspace

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/matryer/is"
)

// The bare name is given only when it was the name the program was started
// by and PATH's bimri-hook is this executable.
func TestStartedFromPath(t *testing.T) {
	is := is.New(t)
	onPath, elsewhere := t.TempDir(), t.TempDir()
	exe := filepath.Join(onPath, "bimri-hook")
	other := filepath.Join(elsewhere, "bimri-hook")
	for _, p := range []string{exe, other} {
		is.NoErr(os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755))
	}
	t.Setenv("PATH", onPath)
	is.True(StartedFromPath("bimri-hook", exe))
	is.True(!StartedFromPath(exe, exe))              // started by its path: give the path
	is.True(!StartedFromPath("bimri-hook", other))   // PATH's bimri-hook is another binary
	is.True(!StartedFromPath("bimri-hook-x", exe))   // another name
	link := filepath.Join(t.TempDir(), "bimri-hook") // PATH holds a symlink to exe
	is.NoErr(os.Symlink(exe, link))
	t.Setenv("PATH", filepath.Dir(link))
	is.True(StartedFromPath("bimri-hook", exe))
	t.Setenv("PATH", t.TempDir())
	is.True(!StartedFromPath("bimri-hook", exe)) // not on PATH at all
}

// bimri-hook-cli stands for the bimri-hook beside it, named as it is (the
// plugin's -linux-amd64, .exe), so the command line wires the program
// the hooks run; alone, or any other program, it is itself.
func TestRunsHooks(t *testing.T) {
	is := is.New(t)
	dir := t.TempDir()
	for _, n := range []string{"bimri-hook-cli-linux-amd64", "bimri-hook-linux-amd64", "bimri-hook-cli.exe", "bimri-hook.exe", "bimri-hook-mcp", "bimri-hook-cli"} {
		is.NoErr(os.WriteFile(filepath.Join(dir, n), nil, 0o755))
	}
	in := func(n string) string { return filepath.Join(dir, n) }
	is.Equal(runsHooks(in("bimri-hook-cli-linux-amd64")), in("bimri-hook-linux-amd64"))
	is.Equal(runsHooks(in("bimri-hook-cli.exe")), in("bimri-hook.exe"))
	is.Equal(runsHooks(in("bimri-hook-cli")), in("bimri-hook-cli")) // no bimri-hook beside it
	is.Equal(runsHooks(in("bimri-hook-mcp")), in("bimri-hook-mcp"))
	is.Equal(runsHooks(in("bimri-hook.exe")), in("bimri-hook.exe"))
}

// With a relative entry on PATH (. or an empty one) the bare name is
// never given: the agent's shell could find a bimri-hook the workspace
// holds through it (issue 34, item 7).
func TestOnPathRefusesRelativeEntries(t *testing.T) {
	is := is.New(t)
	dir := t.TempDir()
	exe := filepath.Join(dir, "bimri-hook")
	is.NoErr(os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755))
	sep := string(os.PathListSeparator)
	t.Setenv("PATH", dir)
	is.True(OnPath(exe))
	for _, path := range []string{"." + sep + dir, dir + sep + ".", sep + dir, dir + sep, "bin" + sep + dir} {
		t.Setenv("PATH", path)
		is.True(!OnPath(exe)) // a relative entry on PATH
	}
}
