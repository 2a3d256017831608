package wiring

import (
	"strings"
	"testing"

	"github.com/matryer/is"
)

func TestGitIgnore(t *testing.T) {
	is := is.New(t)
	for _, in := range []string{"", "node_modules/\n", "dist\r\n*.log", "/bimri-backup.md\n"} {
		out, changed := AddIgnoreLines([]byte(in), IgnoreLines)
		is.True(changed)
		is.True(strings.HasPrefix(string(out), strings.TrimSuffix(in, "*.log")))
		lines := strings.Split(strings.ReplaceAll(string(out), "\r", ""), "\n")
		for _, l := range IgnoreLines {
			n := 0
			for _, have := range lines {
				if have == l {
					n++
				}
			}
			is.Equal(n, 1) // each once
		}
		is.True(!strings.Contains(string(out), "\n/bimri.md\n"))         // the memory is shared
		is.True(!strings.Contains(string(out), "\n/bimri-archive.md\n")) // and its history
		again, changed := AddIgnoreLines(out, IgnoreLines)
		is.True(!changed)
		is.Equal(string(again), string(out))

		kept := in
		if in == "dist\r\n*.log" {
			kept = "dist\r\n*.log\r\n" // the missing newline is added
		}
		is.True(strings.HasPrefix(string(out), kept)) // what was there stays, first
	}
}

// The rules for .git/info/exclude, read from the repository's top, are
// IgnoreLines below the workspace's folder, and added once.
func TestIgnoreLinesUnder(t *testing.T) {
	is := is.New(t)
	is.Equal(IgnoreLinesUnder(""), IgnoreLines)
	is.Equal(IgnoreLinesUnder("."), IgnoreLines)
	under := IgnoreLinesUnder("apps/web/")
	is.Equal(under[0], "/apps/web/bimri-backup.md")
	exclude := []byte("# git ls-files --others --exclude-from=.git/info/exclude\n")
	out, changed := AddIgnoreLines(exclude, under)
	is.True(changed)
	_, missing := AddIgnoreLines(out, under)
	is.True(!missing)
	_, missing = AddIgnoreLines(out, IgnoreLines)
	is.True(missing)
	_, changed = AddIgnoreLines(out, under)
	is.True(!changed)
}

// RemoveGitIgnore gives back the .gitignore GitIgnore was given: its own
// lines, in their place, with their line endings.
func TestRemoveGitIgnore(t *testing.T) {
	is := is.New(t)
	for _, in := range []string{"", "node_modules/\n", "dist\r\n*.log\r\n", "a\n\n# mine\nb\n"} {
		out, _ := AddIgnoreLines([]byte(in), IgnoreLines)
		back, changed := RemoveGitIgnore(out)
		is.True(changed)
		is.Equal(string(back), in)
		_, changed = RemoveGitIgnore(back)
		is.True(!changed) // nothing of ours left
	}
}
