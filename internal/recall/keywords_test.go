package recall

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

// scheduleEntry is issue #25's example of a question in other words:
// "How did we make the daily schedule screen load faster?" shares no
// word with the entry's text, but the keywords the agent gave do.
func scheduleEntry() *memfile.Entry {
	return &memfile.Entry{ID: "a1b2c3d4", Importance: 4, Date: date("2026-03-01"), Tags: []string{"db"},
		Keywords: []string{"faster", "schedule"},
		Text:     "Index on appointments(clinic_id, starts_at) took the day view query from 180ms to 9ms."}
}

const otherWords = "How did we make the daily schedule screen load faster?"

// An entry's keywords are searched with its text and tags, in the file
// and in the archive's index, and weigh as its tags do.
func TestKeywordsAreSearched(t *testing.T) {
	is := is.New(t)
	e := scheduleEntry()
	it := FromEntry(e)
	is.Equal(it.Keywords, []string{"faster", "schedule"})
	items := append(corpusItems(), it)
	is.Equal(ids(Rank(otherWords, Query{MinShare: DefaultMinShare}, NewMemory(items))), []string{e.ID})

	noKeywords := *e
	noKeywords.Keywords = nil
	is.Equal(Rank(otherWords, Query{MinShare: DefaultMinShare}, NewMemory(append(corpusItems(), FromEntry(&noKeywords)))), nil) // without them, nothing

	// A keyword weighs as a tag: the same entry with them as tags scores the same.
	asTags := FromEntry(&noKeywords)
	asTags.Tags = append(slices.Clone(asTags.Tags), e.Keywords...)
	kw := Rank(otherWords, Query{}, NewMemory(append(corpusItems(), it)))
	tg := Rank(otherWords, Query{}, NewMemory(append(corpusItems(), asTags)))
	is.Equal(len(kw), 1)
	is.Equal(len(tg), 1)
	is.Equal(kw[0].Score, tg[0].Score)

	// The index ranks them as memory does.
	x := mustDecode(t, encode(items, indexKey{}))
	hits := Rank(otherWords, Query{MinShare: DefaultMinShare}, x)
	is.Equal(ids(hits), []string{e.ID})
	is.Equal(hits[0].Item.Keywords, e.Keywords) // kept with the item

	// Built from the archive, it has them too.
	dir := t.TempDir()
	archive, index := filepath.Join(dir, memfile.ArchiveName), filepath.Join(dir, IndexName)
	appendArchive(t, archive, e, "weight 0.5 below threshold 1.5")
	ax, err := Load(archive, index)
	is.NoErr(err)
	hits = Rank("schedule faster", Query{}, ax)
	is.Equal(ids(hits), []string{e.ID})
	is.Equal(hits[0].Item.Keywords, e.Keywords)
}

// An index of the layout before keywords is not read: Load rebuilds it.
func TestIndexBeforeKeywordsIsRebuilt(t *testing.T) {
	is := is.New(t)
	data := encode([]Item{FromEntry(scheduleEntry())}, indexKey{Size: 1, ModTime: 2})
	_, err := decode(data)
	is.NoErr(err)
	old := slices.Clone(data)
	copy(old, "BIMRIRX3")
	_, err = decode(old)
	is.Equal(err, errCorrupt)
}
