package safefile

import (
	"errors"
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

// CommitOver puts the new file in place only while path holds what the
// caller read, even when it changed after the caller's last look (an
// editor saving without the lock): the swap hands back what it replaced.
func TestCommitOverKeepsAFileChangedMeanwhile(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	is.New(t).NoErr(os.WriteFile(a, []byte("a"), 0o644))
	is.New(t).NoErr(os.WriteFile(b, []byte("b"), 0o644))
	if err := swap(a, b, false); errors.Is(err, errNoSwap) {
		t.Skip("names cannot be swapped on this file system; CommitOver renames after the caller's look")
	} else if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name        string
		before      []byte // at path when CommitOver runs; nil: no file
		want        []byte // what the caller read
		replaced    bool
		wantErrText string
	}{
		{name: "unchanged", before: []byte("read\n"), want: []byte("read\n"), replaced: true},
		{name: "edited", before: []byte("read\nedited by hand\n"), want: []byte("read\n")},
		{name: "cut short", before: []byte("re"), want: []byte("read\n")},
		{name: "created meanwhile", before: []byte("new by hand\n"), want: nil},
		{name: "removed meanwhile", before: nil, want: []byte("read\n")},
		{name: "still none", before: nil, want: nil, replaced: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			dir := t.TempDir()
			path := filepath.Join(dir, "bimri.md")
			if tc.before != nil {
				is.NoErr(os.WriteFile(path, tc.before, 0o644))
			}
			p, err := Write(path, []byte("new\n"), Options{NoSync: true})
			is.NoErr(err)
			err = p.CommitOver(tc.want)
			got, rerr := os.ReadFile(path)
			if tc.replaced {
				is.NoErr(err)
				is.Equal(string(got), "new\n")
			} else {
				is.True(errors.Is(err, ErrChanged))
				if tc.before == nil {
					is.True(errors.Is(rerr, fs.ErrNotExist)) // still no file
				} else {
					is.Equal(string(got), string(tc.before)) // the edit, as it was
				}
			}
			left, err := os.ReadDir(dir)
			is.NoErr(err)
			is.True(len(left) <= 1) // no temporary or swapped file left
		})
	}
}

// A file CommitOver swaps back is never removed: not when bimri.md went
// between the two swaps (it is put back), nor when a third writer saved
// there (its file is kept beside bimri.md, and the caller hears so).
func TestCommitOverNeverRemovesAnotherWritersFile(t *testing.T) {
	for _, tc := range []struct {
		name      string
		meanwhile func(path string) error // between the swap and its check
		wantErr   string                  // "": ErrChanged
		conflict  string                  // what is kept beside bimri.md
	}{
		{name: "removed", meanwhile: os.Remove},
		{name: "saved in place", meanwhile: func(path string) error {
			return os.WriteFile(path, []byte("third\n"), 0o644) // the new file, changed
		}, wantErr: "changed twice", conflict: "third\n"},
		{name: "saved by rename", meanwhile: func(path string) error {
			if err := os.WriteFile(path+".swp", []byte("third\n"), 0o644); err != nil {
				return err
			}
			return os.Rename(path+".swp", path)
		}, wantErr: "changed twice", conflict: "third\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			dir := t.TempDir()
			path := filepath.Join(dir, "bimri.md")
			is.NoErr(os.WriteFile(path, []byte("edited\n"), 0o644))
			p, err := Write(path, []byte("new\n"), Options{NoSync: true})
			is.NoErr(err)
			testSwapped = func() { is.NoErr(tc.meanwhile(path)) }
			defer func() { testSwapped = nil }()
			err = p.CommitOver([]byte("read\n"))
			if err != nil && errors.Is(err, errNoSwap) {
				t.Skip("names cannot be swapped on this file system")
			}
			got, rerr := os.ReadFile(path)
			is.NoErr(rerr)
			is.Equal(string(got), "edited\n") // the edit, back in place
			kept, _ := filepath.Glob(path + ".conflict-*")
			if tc.wantErr == "" {
				is.True(errors.Is(err, ErrChanged))
				is.Equal(len(kept), 0)
				return
			}
			is.True(err != nil && strings.Contains(err.Error(), tc.wantErr))
			is.Equal(len(kept), 1)
			is.True(strings.HasSuffix(err.Error(), "kept a version as "+filepath.Base(kept[0]))) // names the file it kept
			other, rerr := os.ReadFile(kept[0])
			is.NoErr(rerr)
			is.Equal(string(other), tc.conflict)
			swaps, _ := filepath.Glob(filepath.Join(dir, SwapPrefix+"*"))
			is.Equal(len(swaps), 0)
		})
	}
}
