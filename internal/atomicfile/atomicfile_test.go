package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/matryer/is"
)

func TestWriteFileReplacesAndKeepsTheMode(t *testing.T) {
	for _, perm := range []fs.FileMode{0o600, 0o640, 0o644} {
		t.Run(perm.String(), func(t *testing.T) {
			is := is.New(t)
			path := filepath.Join(t.TempDir(), "settings.json")
			is.NoErr(os.WriteFile(path, []byte("old"), perm))
			is.NoErr(os.Chmod(path, perm)) // whatever the umask made of it

			is.NoErr(WriteFile(path, []byte("new\n"), Options{NewPerm: 0o666}))
			got, err := os.ReadFile(path)
			is.NoErr(err)
			is.Equal(string(got), "new\n")
			info, err := os.Stat(path)
			is.NoErr(err)
			is.Equal(info.Mode().Perm(), perm) // keeps its own mode, not NewPerm
			left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), TempPrefix+"*"))
			is.Equal(len(left), 0) // no temporary file left
		})
	}
}

func TestWriteFileWithoutSync(t *testing.T) {
	is := is.New(t)
	path := filepath.Join(t.TempDir(), "state.json")
	called := false
	is.NoErr(WriteFile(path, []byte("{}"), Options{NoSync: true, Between: func() { called = true }}))
	got, err := os.ReadFile(path)
	is.NoErr(err)
	is.Equal(string(got), "{}")
	is.True(called) // the mid-write hook ran
}

func TestRemoveTemps(t *testing.T) {
	is := is.New(t)
	dir := t.TempDir()
	is.NoErr(os.WriteFile(filepath.Join(dir, TempPrefix+"abc"), nil, 0o600))
	is.NoErr(os.WriteFile(filepath.Join(dir, "bimri.md"), nil, 0o600))
	RemoveTemps(dir)
	left, err := os.ReadDir(dir)
	is.NoErr(err)
	is.Equal(len(left), 1)
	is.Equal(left[0].Name(), "bimri.md") // only the temporary file went
}
