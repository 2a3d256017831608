//go:build unix

package safefile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/matryer/is"
)

// Link makes the file its target without a copy.
func TestLinkReplacesWithTheSameFile(t *testing.T) {
	is := is.New(t)
	dir := t.TempDir()
	from, to := filepath.Join(dir, "bimri.md"), filepath.Join(dir, "bimri-backup.md")
	is.NoErr(os.WriteFile(from, []byte("memory"), 0o644))
	is.NoErr(os.WriteFile(to, []byte("older"), 0o644))
	is.NoErr(Link(from, to, Options{}))
	a, err := os.Stat(from)
	is.NoErr(err)
	b, err := os.Stat(to)
	is.NoErr(err)
	is.True(os.SameFile(a, b))
	left, _ := filepath.Glob(filepath.Join(dir, TempPrefix+"*"))
	is.Equal(len(left), 0)
}

// A file with another name is refused: an edit through that name would
// change what the link makes.
func TestLinkRefusesAFileWithOtherNames(t *testing.T) {
	is := is.New(t)
	dir := t.TempDir()
	from := filepath.Join(dir, "bimri.md")
	is.NoErr(os.WriteFile(from, []byte("memory"), 0o644))
	is.NoErr(os.Link(from, filepath.Join(dir, "other.md")))
	is.True(Link(from, filepath.Join(dir, "bimri-backup.md"), Options{}) != nil)
	left, _ := filepath.Glob(filepath.Join(dir, TempPrefix+"*"))
	is.Equal(len(left), 0) // nothing left behind
}

// A Pending that is aborted leaves the target and no temporary file.
func TestAbortLeavesNothing(t *testing.T) {
	is := is.New(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "bimri.md")
	is.NoErr(os.WriteFile(path, []byte("old"), 0o644))
	p, err := Write(path, []byte("new"), Options{})
	is.NoErr(err)
	p.Abort()
	got, err := os.ReadFile(path)
	is.NoErr(err)
	is.Equal(string(got), "old")
	left, _ := filepath.Glob(filepath.Join(dir, TempPrefix+"*"))
	is.Equal(len(left), 0)
}
