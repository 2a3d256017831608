package store

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

// An archive past what its readers take is kept under a dated name and a
// new one is started, and the user is told; before, recall silently gave
// nothing once the archive passed 64 MiB.
func TestFullArchiveIsRolledOver(t *testing.T) {
	is := is.New(t)
	defer func(n int64) { archiveRollover = n }(archiveRollover)
	archiveRollover = 1 << 10
	s := backupStore(t)
	full := memfile.ArchiveHeading + strings.Repeat("- an old archived line that fills the archive\n", 40)
	is.NoErr(os.WriteFile(s.Path(memfile.ArchiveName), []byte(full), 0o644))

	var seen string
	res, err := s.Update(func(tx *Tx) error {
		seen = tx.Notice
		e := tx.File.Entries(2)[0]
		tx.Archive = append(tx.Archive, memfile.Removal{Tier: 2, Entry: e, Reason: "forgotten on request"})
		return nil
	})
	is.NoErr(err)
	is.True(strings.Contains(seen, "reached")) // the hooks tell the user from the transaction
	is.Equal(res.Notice, seen)
	kept, _ := filepath.Glob(filepath.Join(s.Root(), "bimri-archive-*.md"))
	is.Equal(len(kept), 1)
	is.True(strings.Contains(seen, filepath.Base(kept[0])))
	is.Equal(read(t, kept[0]), full) // whole, as it was
	fresh := read(t, s.Path(memfile.ArchiveName))
	is.True(strings.HasPrefix(fresh, memfile.ArchiveHeading)) // a new archive, with the record the write archived
	is.True(strings.Contains(fresh, "First."))
	recs, err := s.ReadArchive()
	is.NoErr(err)
	is.Equal(len(recs), 1)

	res, err = s.Update(func(tx *Tx) error { return nil })
	is.NoErr(err)
	is.Equal(res.Notice, "") // once

	// Full again the same day: kept beside the first, under a name of its own.
	is.NoErr(os.WriteFile(s.Path(memfile.ArchiveName), []byte(full), 0o644))
	res, err = s.Update(func(tx *Tx) error { return nil })
	is.NoErr(err)
	again, _ := filepath.Glob(filepath.Join(s.Root(), "bimri-archive-*.md"))
	is.Equal(len(again), 2)
	is.True(regexp.MustCompile(`^bimri-archive-\d{8}\.md$`).MatchString(filepath.Base(kept[0])))
	is.True(strings.Contains(res.Notice, strings.TrimSuffix(filepath.Base(kept[0]), ".md")+"-2.md"))
	is.Equal(read(t, kept[0]), full) // the first, untouched
}
