//go:build unix

package recall

import (
	"os"
	"path/filepath"
	"testing"

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
	defer x.Close()
	is.True(x.unmap != nil) // mapped, not read
	is.Equal(len(Rank("redis cache", Options{}, x)), 1)

	is.NoErr(os.Truncate(index, 0))
	is.Equal(Rank("redis cache", Options{}, x), nil)
}
