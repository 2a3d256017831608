package memfile

import (
	"cmp"
	"errors"
	"slices"
)

// Both hold: the agent's answer, "no", to whether a new lasting entry
// supersedes older ones it looks like, kept on the newer as
// [HOLDS_WITH:id,id]; neither the mark nor the question pairs them again.

// HoldTogether records that the entries ids all still hold: each gets the
// IDs of the older ones (as the supersession search orders them). It
// returns them newest first; nothing changes for fewer than two IDs, a
// pattern, an unknown or a repeated one.
func (f *File) HoldTogether(ids []string) ([]*Entry, error) {
	if len(ids) < 2 {
		return nil, errors.New("name two or more entries that all still hold")
	}
	es, _, err := f.namedEntries(ids, "", "only entries supersede one another")
	if err != nil {
		return nil, err
	}
	order := fileOrder(f)
	slices.SortFunc(es, func(a, b *Entry) int {
		return cmp.Or(b.Date.Compare(a.Date), order[b]-order[a])
	})
	for i, e := range es {
		for _, older := range es[i+1:] {
			e.HoldsWith = append(e.HoldsWith, older.ID)
		}
		e.HoldsWith = normalIDs(e.HoldsWith)
	}
	return es, nil
}

// fileOrder numbers the entries of Tier 1, then Tier 2, in file order.
func fileOrder(f *File) map[*Entry]int {
	order := map[*Entry]int{}
	for t := range 2 {
		for _, b := range f.Tiers[t].Blocks {
			if b.Entry != nil {
				order[b.Entry] = len(order)
			}
		}
	}
	return order
}

// holdTogether says whether a and b were answered as both holding.
func holdTogether(a, b *Entry) bool {
	return slices.Contains(a.HoldsWith, b.ID) || slices.Contains(b.HoldsWith, a.ID)
}

// normalIDs is a list of IDs sorted, each once.
func normalIDs(ids []string) []string {
	if len(ids) == 0 {
		return nil
	}
	ids = slices.Clone(ids)
	slices.Sort(ids)
	return slices.Compact(ids)
}

// renameEntries makes both-hold answers and patterns' evidence naming an
// entry another took the place of name that one; an entry's own ID leaves
// its answers.
func renameEntries(f *File, renamed map[string]string) {
	if len(renamed) == 0 {
		return
	}
	rename := func(ids []string) {
		for i, id := range ids {
			if to, ok := renamed[id]; ok {
				ids[i] = to
			}
		}
	}
	for _, e := range f.tierEntries() {
		if len(e.HoldsWith) > 0 {
			rename(e.HoldsWith)
			e.HoldsWith = normalIDs(slices.DeleteFunc(e.HoldsWith, func(id string) bool { return id == e.ID }))
		}
	}
	for _, p := range f.Patterns() {
		rename(p.Evidence)
		p.Evidence = mergeEvidence(nil, p.Evidence)
	}
}
