package inspect

import (
	"github.com/bimri/bimri-hook/internal/recall"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
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

type Revivable struct {
	Record   memfile.ArchiveRecord
	Recalled recall.Strength
}

// WorthReviving are the archived entries, not back in f, that recall
// brought back for recall.KeepPrompts prompts in recall.KeepAfter
// sessions, strongest first; none when the recall record does not read.
func WorthReviving(store *store.Store, f *memfile.File) []Revivable {
	recalls, err := recall.ParseRecalls(store.ReadState(recall.StateKey))
	if err != nil {
		return nil
	}
	ids := recalls.WorthReviving()
	if len(ids) == 0 {
		return nil
	}
	recs, err := store.ReadArchive()
	if err != nil {
		return nil
	}
	var out []Revivable
	for _, id := range ids {
		if e, _ := f.Find(id); e != nil {
			continue
		}
		if r, ok := LastRecord(recs, id); ok {
			out = append(out, Revivable{Record: r, Recalled: recalls.Strength(id)})
		}
	}
	return out
}
