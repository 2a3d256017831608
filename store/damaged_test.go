package store

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
	"golang.org/x/text/encoding/charmap"
)

// damagedFile is a bimri.md of six entries whose texts hold accented
// letters, typographic quotes and the euro sign.
func damagedFile(t *testing.T) (string, []string) {
	t.Helper()
	f := memfile.New(memfile.DefaultConfig())
	texts := []string{
		"Café menu: the résumé page uses “smart quotes” – and costs 5 €.",
		"Naïve Bayes was tried first; the façade pattern stays.",
		"Über-config lives in größe.toml; Ångström units in the physics crate.",
		"Señor García reviews the ‘español’ locale … every Friday.",
		"Œuvre: the “brochure” PDF uses Zürich’s ß-free font.",
		"Crème brûlée release: the déjà-vu bug is fixed — see #42.",
	}
	for i, text := range texts {
		_, _, err := f.Add(memfile.NewEntry{Tier: 2, Importance: 3, Date: time.Date(2026, 11, 20+i, 0, 0, 0, 0, time.UTC), Text: text})
		is.New(t).NoErr(err)
	}
	return string(memfile.Render(f)), texts
}

// A bimri.md an editor saved in Windows-1252 (or Latin-1) is read whole:
// every entry, every accented letter as it was meant; the next write puts
// it back in UTF-8, the file as it was is set aside first, and the user
// is told.
func TestWindows1252FileIsDecoded(t *testing.T) {
	is := is.New(t)
	s := backupStore(t)
	utf, texts := damagedFile(t)
	latin, err := charmap.Windows1252.NewEncoder().String(utf)
	is.NoErr(err)
	is.True(!utf8.ValidString(latin))
	is.NoErr(os.WriteFile(s.Path(memfile.MemoryName), []byte(latin), 0o644))

	got, err := s.Read()
	is.NoErr(err)
	is.Equal(len(got.File.Entries(2)), 6)
	is.True(strings.Contains(got.Warnings[0].Message, "Windows-1252"))

	res, err := s.Update(func(tx *Tx) error { return nil })
	is.NoErr(err)
	is.True(strings.Contains(res.Notice, "not UTF-8"))
	memory := read(t, s.Path(memfile.MemoryName))
	is.True(utf8.ValidString(memory))
	for _, text := range texts {
		if !strings.Contains(memory, text) {
			t.Errorf("bimri.md lost or garbled %q:\n%s", text, memory)
		}
	}
	aside, _ := filepath.Glob(s.Path(memfile.MemoryName) + ".broken-*")
	is.Equal(len(aside), 1)
	is.Equal(read(t, aside[0]), latin) // the original, byte for byte

	res, err = s.Update(func(tx *Tx) error { return nil })
	is.NoErr(err)
	is.Equal(res.Notice, "") // said once: the file is UTF-8 now
}

// A bimri.md whose END marker is gone (cut short by hand or a tool, and
// committed) keeps every entry it holds, gets the marker back, is set
// aside first, and the user is told. It is not taken for a broken file:
// the older backup does not replace it.
func TestFileWithoutEndMarkerKeepsItsEntries(t *testing.T) {
	is := is.New(t)
	s := backupStore(t)
	utf, texts := damagedFile(t)
	cut := utf[:strings.Index(utf, endMarker)]
	is.NoErr(os.WriteFile(s.Path(memfile.MemoryName), []byte(cut), 0o644))
	old := time.Now().Add(-time.Hour) // written long ago: no writer is at it
	is.NoErr(os.Chtimes(s.Path(memfile.MemoryName), old, old))

	res, err := s.Update(func(tx *Tx) error { return nil })
	is.NoErr(err)
	is.True(strings.Contains(res.Notice, "ended without its"))
	memory := read(t, s.Path(memfile.MemoryName))
	for _, text := range texts {
		is.True(strings.Contains(memory, text))
	}
	is.True(!strings.Contains(res.Notice, "from "+memfile.BackupName)) // the backup did not take its place
	// First., recorded here and in neither file nor archive, comes back
	// from the journal, once, and the user is told.
	is.Equal(strings.Count(memory, "First."), 1)
	is.True(strings.Contains(res.Notice, "restored 1 entry recorded here"))
	is.True(strings.HasSuffix(memory, endMarker+"\n"))
	aside, _ := filepath.Glob(s.Path(memfile.MemoryName) + ".broken-*")
	is.Equal(len(aside), 1)
	is.Equal(read(t, aside[0]), cut)
}

// A damaged file that cannot be replaced (read-only here; an immutable or
// bind-mounted one alike) is set aside once, not again on every run.
func TestDamagedFileIsSetAsideOnce(t *testing.T) {
	is := is.New(t)
	s := backupStore(t)
	utf, _ := damagedFile(t)
	latin, err := charmap.Windows1252.NewEncoder().String(utf)
	is.NoErr(err)
	is.NoErr(os.WriteFile(s.Path(memfile.MemoryName), []byte(latin), 0o644))
	is.NoErr(os.Chmod(s.Path(memfile.MemoryName), 0o444))
	for range 3 {
		_, err := s.Update(func(tx *Tx) error {
			_, _, err := tx.File.Add(memfile.NewEntry{Tier: 2, Importance: 3, Date: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC), Text: "More."})
			return err
		})
		is.True(err != nil) // read-only: refused
	}
	aside, _ := filepath.Glob(s.Path(memfile.MemoryName) + ".broken-*")
	is.Equal(len(aside), 1)
	is.True(bytes.Equal([]byte(read(t, aside[0])), []byte(latin)))
}

// endMarker is the line a whole memory file ends with.
const endMarker = "<!-- END BIMRI -->"
