package store

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

// The archive is appended to: the first append writes its heading, later
// ones only their records, after what is there.
func TestArchiveIsAppendedTo(t *testing.T) {
	is := is.New(t)
	s, err := OpenStore(t.TempDir(), memfile.DefaultConfig(), StoreOptions{LockTimeout: time.Second, NoSync: true})
	is.NoErr(err)
	day := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	forget := func(text string) {
		_, err := s.Update(func(tx *Tx) error {
			e, _, err := tx.File.Remember(memfile.NewEntry{Tier: 2, Importance: 3, Date: day, Text: text}, memfile.DefaultConfig())
			is.NoErr(err)
			r, ok := tx.File.Remove(e.ID, "test")
			is.True(ok)
			tx.Archive = append(tx.Archive, r)
			return nil
		})
		is.NoErr(err)
	}
	forget("Chose SQLite.")
	first, err := os.ReadFile(s.Path(memfile.ArchiveName))
	is.NoErr(err)
	is.True(strings.HasPrefix(string(first), memfile.ArchiveHeading))

	forget("Chose Postgres.")
	both, err := os.ReadFile(s.Path(memfile.ArchiveName))
	is.NoErr(err)
	is.True(strings.HasPrefix(string(both), string(first))) // appended after
	is.Equal(strings.Count(string(both), memfile.ArchiveHeading), 1)
	recs, _ := memfile.ParseArchive(both)
	is.Equal(len(recs), 2)
	var texts []string // what deep maintenance recounts patterns from
	for _, e := range s.ArchivedEntries() {
		texts = append(texts, e.Text)
	}
	is.Equal(texts, []string{"Chose SQLite.", "Chose Postgres."})
}
