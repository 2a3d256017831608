package store

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store/safefile"
	"github.com/matryer/is"
)

// When the state folder is removed while a writer holds the lock (git
// clean -fdX), a second writer takes a new lock file and is let in too.
// It must leave the first writer's temporary files alone: swept as left
// over, the first writer's rename failed and its transaction ran again,
// and with such removals every 100 ms some remember calls gave up
// ("changed 5 times"). Both entries are kept.
func TestSecondWriterLeavesTheFirstsTemporaryFiles(t *testing.T) {
	is := is.New(t)
	s := backupStore(t)
	temps := func() []string {
		found, _ := filepath.Glob(filepath.Join(s.root, safefile.TempPrefix+"*"))
		return found
	}
	var before, after []string
	inside := false
	testStep = func() {
		if inside {
			return
		}
		inside = true
		before = temps() // the first writer's new bimri.md, written, not yet renamed
		is.NoErr(os.RemoveAll(s.StatePath()))
		remember(t, s, "Recorded by the second writer.")
		after = temps()
	}
	defer func() { testStep = nil }()
	remember(t, s, "Recorded by the first writer.")
	is.True(len(before) > 0)
	for _, p := range before {
		if !slices.Contains(after, p) {
			t.Errorf("the second writer removed the first writer's %s", filepath.Base(p))
		}
	}
	data := read(t, s.Path(memfile.MemoryName))
	is.True(strings.Contains(data, "Recorded by the first writer."))
	is.True(strings.Contains(data, "Recorded by the second writer."))
	is.Equal(len(temps()), 0) // and the first writer's went once it was done
}
