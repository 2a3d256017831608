package memfile

import (
	"errors"
	"fmt"
)

// SupersededPrefix starts the archive reason of an entry a newer one
// replaced: "superseded by NEWID".
const SupersededPrefix = "superseded by "

// Supersede moves the entries ids out of f, Tier 1 included, as replaced
// by the entry newID, which must be in f already (recorded in the same
// transaction): their removals, which the caller appends to the archive,
// carry the reason "superseded by NEWID". Nothing changes when any ID is
// not an entry of f, or is newID itself.
func (f *File) Supersede(ids []string, newID string) ([]Removal, error) {
	if e, _ := f.Find(newID); e == nil {
		return nil, fmt.Errorf("no entry %s in the memory file to supersede with", newID)
	}
	if len(ids) == 0 {
		return nil, errors.New("supersede: no entry to replace")
	}
	if _, _, err := f.namedEntries(ids, newID, "only entries are superseded"); err != nil {
		return nil, err
	}
	gone := make([]Removal, 0, len(ids))
	for _, id := range ids {
		r, _ := f.Remove(id, SupersededPrefix+newID)
		gone = append(gone, r)
	}
	return gone, nil
}
