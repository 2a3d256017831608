//go:build unix

package recall

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

// An index cut short while a prompt has it mapped makes reading it fault:
// recall finds nothing, and the process goes on.
func TestRankOnIndexCutWhileMapped(t *testing.T) {
	is := is.New(t)
	dir := t.TempDir()
	archive, index := filepath.Join(dir, memfile.ArchiveName), filepath.Join(dir, IndexName)
	appendArchive(t, archive, &memfile.Entry{ID: "0f3e2a11", Importance: 4, Date: date("2026-03-01"), Tags: []string{"cache", "redis"}, Text: "Decided to use Redis for the session cache."}, "weight 0.5 below threshold 1.5")
	_, err := Load(archive, index) // builds the index
	is.NoErr(err)
	x, err := Load(archive, index) // maps it
	is.NoErr(err)
	is.True(x.mapped) // mapped, not read
	is.Equal(len(Rank("redis cache", Query{}, x)), 1)

	is.NoErr(os.Truncate(index, 0))
	is.Equal(Rank("redis cache", Query{}, x), nil)
}

// An index is unmapped once it is collected.
func TestIndexUnmappedWhenCollected(t *testing.T) {
	is := is.New(t)
	if _, err := os.ReadFile("/proc/self/maps"); err != nil {
		t.Skip("no /proc/self/maps to see mappings in")
	}
	dir := t.TempDir()
	archive, index := filepath.Join(dir, memfile.ArchiveName), filepath.Join(dir, IndexName)
	appendArchive(t, archive, &memfile.Entry{ID: "0f3e2a11", Importance: 4, Date: date("2026-03-01"), Tags: []string{"cache"}, Text: "Decided to use Redis for the session cache."}, "weight 0.5 below threshold 1.5")
	_, err := Load(archive, index) // builds it
	is.NoErr(err)
	mapped := func() bool {
		data, err := os.ReadFile("/proc/self/maps")
		is.NoErr(err)
		return strings.Contains(string(data), index)
	}

	x, err := Load(archive, index)
	is.NoErr(err)
	is.Equal(len(Rank("redis cache", Query{}, x)), 1)
	is.True(mapped())
	x = nil
	// Cleanups run on their own goroutine after a collection; give it a
	// bounded number of chances.
	for i := 0; i < 200 && mapped(); i++ {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	is.True(!mapped())
}
