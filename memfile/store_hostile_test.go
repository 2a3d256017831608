package memfile

import (
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/matryer/is"
)

// Three broken files within one second leave three copies: a set-aside
// name is never reused, whatever the clock's resolution.
func TestSetAsideNeverOverwrites(t *testing.T) {
	is := is.New(t)
	frozen := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	s, err := OpenStore(t.TempDir(), DefaultConfig(), StoreOptions{LockTimeout: time.Second, NoSync: true,
		Clock: func() time.Time { return frozen }})
	is.NoErr(err)
	for _, junk := range []string{"\x00 first", "\x00 second", "\x00 third"} {
		is.NoErr(os.WriteFile(s.Path(MemoryName), []byte(junk), 0o644))
		_, err := s.Update(func(*Tx) error { return nil })
		is.NoErr(err)
	}
	copies, err := filepath.Glob(s.Path(MemoryName + ".broken-*"))
	is.NoErr(err)
	is.Equal(len(copies), 3)
	got := map[string]bool{}
	for _, c := range copies {
		data, err := os.ReadFile(c)
		is.NoErr(err)
		got[string(data)] = true
	}
	is.Equal(got, map[string]bool{"\x00 first": true, "\x00 second": true, "\x00 third": true})
}

// A workspace is a project folder: the filesystem's root and the
// system's own folders are refused, whatever a hook's cwd says.
func TestSystemFolderRefused(t *testing.T) {
	for _, root := range []string{"/", "/dev", "/dev/shm", "/proc/self", "/sys", "/etc", "/usr"} {
		if _, err := OpenStore(root, DefaultConfig(), StoreOptions{LockTimeout: time.Second}); err == nil {
			t.Errorf("%s was accepted as a workspace", root)
		}
	}
	is.New(t).True(!systemFolder("/home/dev/proj") && !systemFolder("/usr/local/src/proj") && !systemFolder("/var/tmp/proj"))
}

// Session counts stop at the largest int; they never wrap to a negative
// count, which would read back as no count at all.
func TestSessionCountsSaturate(t *testing.T) {
	is := is.New(t)
	is.Equal(addCounts(math.MaxInt, 1), math.MaxInt)
	is.Equal(addCounts(math.MaxInt-1, 1, 5), math.MaxInt)
	is.Equal(addCounts(3, 4), 7)
	f := New(DefaultConfig())
	f.Header.Sessions = math.MaxInt
	next, _ := Maintain(f, time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC), DefaultConfig(), Options{CountSession: true})
	is.Equal(next.Header.Sessions, math.MaxInt)
}
