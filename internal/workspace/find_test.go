package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/matryer/is"
)

func TestFind(t *testing.T) {
	is := is.New(t)
	top := t.TempDir()
	home := filepath.Join(top, "home")
	mk := func(parts ...string) string {
		p := filepath.Join(append([]string{top}, parts...)...)
		is.NoErr(os.MkdirAll(p, 0o755))
		return p
	}
	touch := func(parts ...string) {
		is.NoErr(os.WriteFile(filepath.Join(append([]string{top}, parts...)...), nil, 0o644))
	}
	stops := func(d string) bool { return isFSRoot(d) || d == top || d == home } // top stands for the file system's root
	found := func(dir string) string {
		root, err := find(dir, stops)
		is.NoErr(err)
		return root
	}

	// The nearest bimri.md wins, even above a repository's root.
	deep := mk("home", "work", "repo", "src", "pkg")
	mk("home", "work", "repo", "src", ".git", "info") // a stray .git with no HEAD is no repository
	is.Equal(found(deep), deep)
	mk("home", "work", "repo", ".git")
	touch("home", "work", "repo", ".git", "HEAD")
	is.Equal(found(deep), filepath.Join(home, "work", "repo")) // no bimri.md: the repository
	touch("home", "work", "bimri.md")
	is.Equal(found(deep), filepath.Join(home, "work"))
	touch("home", "work", "repo", "src", "bimri.md")
	is.Equal(found(deep), filepath.Join(home, "work", "repo", "src"))

	// Neither: the folder itself. A stray ~/bimri.md is never found.
	touch("home", "bimri.md")
	plain := mk("home", "plain", "a")
	is.Equal(found(plain), plain)

	// Home and the stops themselves are refused.
	_, err := find(home, stops)
	is.True(errors.Is(err, errNoWorkspace))
	_, err = find(string(filepath.Separator), stops)
	is.True(errors.Is(err, errNoWorkspace))
}

// Root takes CLAUDE_PROJECT_DIR, then the first folder given, as they are.
func TestRoot(t *testing.T) {
	is := is.New(t)
	a, b := t.TempDir(), t.TempDir()
	t.Setenv(projectDirVar, a)
	root, err := Root(b)
	is.NoErr(err)
	is.Equal(root, a)
	t.Setenv(projectDirVar, "")
	root, err = Root("", b)
	is.NoErr(err)
	is.Equal(root, b)
}
