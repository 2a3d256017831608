package store

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

// Three broken files within one second leave three copies: a set-aside
// name is never reused, whatever the clock's resolution.
func TestSetAsideNeverOverwrites(t *testing.T) {
	is := is.New(t)
	frozen := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	s, err := OpenStore(t.TempDir(), memfile.DefaultConfig(), StoreOptions{LockTimeout: time.Second, NoSync: true,
		Clock: func() time.Time { return frozen }})
	is.NoErr(err)
	for _, junk := range []string{"\x00 first", "\x00 second", "\x00 third"} {
		writeLongAgo(t, s.Path(memfile.MemoryName), []byte(junk))
		_, err := s.Update(func(*Tx) error { return nil })
		is.NoErr(err)
	}
	copies, err := filepath.Glob(s.Path(memfile.MemoryName + ".broken-*"))
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
		if _, err := OpenStore(root, memfile.DefaultConfig(), StoreOptions{LockTimeout: time.Second}); err == nil {
			t.Errorf("%s was accepted as a workspace", root)
		}
	}
	is.New(t).True(!systemFolder("/home/dev/proj") && !systemFolder("/usr/local/src/proj") && !systemFolder("/var/tmp/proj"))
}
