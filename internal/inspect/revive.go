package inspect

import (
	"github.com/bimri/bimri-hook/internal/recall"
	"github.com/bimri/bimri-hook/memfile"
)

// LastRecord is the newest archive record of an entry: an entry archived,
// revived and archived again has two.
func LastRecord(recs []memfile.ArchiveRecord, id string) (memfile.ArchiveRecord, bool) {
	for i := len(recs) - 1; i >= 0; i-- {
		if recs[i].Entry != nil && recs[i].Entry.ID == id {
			return recs[i], true
		}
	}
	return memfile.ArchiveRecord{}, false
}

// WorthReviving are the newest archive records of the entries recall
// brought back in recall.KeepAfter different sessions and that are not
// back in f: memory that keeps being needed. show and forecast end with
// them (PrintWorthReviving).
func WorthReviving(store *memfile.Store, f *memfile.File) []memfile.ArchiveRecord {
	ids := recall.ParseRecalls(store.ReadState(recall.StateKey)).WorthKeeping()
	if len(ids) == 0 {
		return nil
	}
	recs, err := store.ReadArchive()
	if err != nil {
		return nil
	}
	var out []memfile.ArchiveRecord
	for _, id := range ids {
		if e, _ := f.Find(id); e != nil {
			continue
		}
		if r, ok := LastRecord(recs, id); ok {
			out = append(out, r)
		}
	}
	return out
}
