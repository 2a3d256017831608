package safefile

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

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
	is.NoErr(WriteFile(path, []byte("{}"), Options{NoSync: true}))
	got, err := os.ReadFile(path)
	is.NoErr(err)
	is.Equal(string(got), "{}")
}

// RemoveTemps removes what a writer that is gone left, and never a live
// writer's file: one of this process, or of another that still runs (a
// writer let in when the lock's file was removed), unless it is older
// than any write takes.
func TestRemoveTemps(t *testing.T) {
	is := is.New(t)
	dir := t.TempDir()
	gone := exec.Command(os.Args[0], "-test.run=^$")
	is.NoErr(gone.Run()) // a process that ran and ended
	temp := func(name string) string {
		p := filepath.Join(dir, TempPrefix+name)
		is.NoErr(os.WriteFile(p, nil, 0o600))
		return p
	}
	mine := temp(fmt.Sprint(os.Getpid(), "-a1"))
	parent := temp(fmt.Sprint(os.Getppid(), "-b2")) // go test, running
	old := temp(fmt.Sprint(os.Getppid(), "-c3"))
	long := time.Now().Add(-staleAfter - time.Minute)
	is.NoErr(os.Chtimes(old, long, long))
	temp(fmt.Sprint(gone.Process.Pid, "-d4"))
	temp("abc") // an older bimri-hook's name, without a process ID
	temp("x-e5")
	is.NoErr(os.WriteFile(filepath.Join(dir, "bimri.md"), nil, 0o600))

	RemoveTemps(dir)
	left, err := os.ReadDir(dir)
	is.NoErr(err)
	var names []string
	for _, e := range left {
		names = append(names, e.Name())
	}
	want := []string{filepath.Base(mine), filepath.Base(parent), "bimri.md"}
	slices.Sort(want)
	is.Equal(names, want) // ReadDir sorts by name

	// A temporary file this package makes names this process.
	p, err := Write(filepath.Join(dir, "new.md"), nil, Options{NoSync: true})
	is.NoErr(err)
	defer p.Abort()
	is.True(strings.HasPrefix(filepath.Base(p.f.Name()), fmt.Sprint(TempPrefix, os.Getpid(), "-")))
	RemoveTemps(dir)
	_, err = os.Stat(p.f.Name())
	is.NoErr(err) // still there: its writer is live
}
