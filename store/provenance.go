package store

// Provenance: which of bimri.md's items (ID and text hash) appeared in
// this workspace's own transactions, so the view can mark the others (a
// clone, a pull, an edit). The lists live in the user's data folder, which
// git cannot forge; lost, every item counts as elsewhere until recorded.

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store/safefile"
)

// The lists, one item a line: those recorded here (of bimri.md and its
// backup), and the IDs of bimri.md's others, which views read.
const (
	recordedName  = "recorded-here"
	elsewhereName = "recorded-elsewhere"
)

// itemText is an item's ID and text, hashed only when the list is written.
type itemText struct{ id, text string }

// beginProvenance notes the items of f, the file a transaction read; nil
// when there is no data folder.
func (s *Store) beginProvenance(f *memfile.File) []itemText {
	if s.dataPath(recordedName) == "" {
		return nil
	}
	return itemTexts(f) // never nil
}

// finishProvenance saves the list after a transaction that read items
// and left f, keeping those of f and of the file as read (now the
// backup). With no list yet, every item counts as recorded here outside
// git, none in a git work tree (the file came with a clone).
func (s *Store) finishProvenance(items []itemText, f *memfile.File, changed bool) {
	if items == nil {
		return // no data folder
	}
	data, err := safefile.Read(s.dataPath(recordedName), maxStateSize)
	if !changed && err == nil {
		return // the same file: nothing appeared
	}
	asRead, here := itemKeys(items), idSet(data)
	if err != nil {
		here = map[string]bool{}
		if _, err := os.Lstat(filepath.Join(s.root, ".git")); err != nil {
			here = set(asRead)
		}
	}
	read := set(asRead)
	var keep, elsewhere []string
	for _, k := range itemKeys(itemTexts(f)) {
		if here[k] || !read[k] {
			keep = append(keep, k) // appeared during the transaction, or recorded here before
		} else {
			id, _, _ := strings.Cut(k, " ")
			elsewhere = append(elsewhere, id)
		}
	}
	for _, k := range asRead {
		if here[k] {
			keep = append(keep, k)
		}
	}
	// A failure costs marks, not memory. The short list goes last.
	_ = s.writeData(recordedName, idList(keep))
	_ = s.writeData(elsewhereName, idList(elsewhere))
}

func idList(ids []string) (list []byte) {
	slices.Sort(ids)
	for _, id := range slices.Compact(ids) {
		list = append(append(list, id...), '\n')
	}
	return list
}

// Foreign says, by ID, which of bimri.md's items this workspace's
// sessions did not record; nil when none (or no data folder). It reads
// without the lock.
func (s *Store) Foreign() func(id string) bool {
	data, err := safefile.Read(s.dataPath(elsewhereName), maxStateSize)
	if ids := idSet(data); err == nil && len(ids) > 0 {
		return func(id string) bool { return ids[id] }
	}
	return nil
}

func idSet(data []byte) map[string]bool { return set(strings.Split(string(data), "\n")) }

func set(keys []string) map[string]bool {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		if k = strings.TrimSpace(k); k != "" {
			m[k] = true
		}
	}
	return m
}

// itemTexts are f's entries and patterns, in file order.
func itemTexts(f *memfile.File) []itemText {
	items := make([]itemText, 0, len(f.Tiers[0].Blocks)+len(f.Tiers[1].Blocks)+len(f.Tiers[2].Blocks))
	for _, sec := range f.Tiers {
		for _, b := range sec.Blocks {
			switch {
			case b.Entry != nil:
				items = append(items, itemText{b.Entry.ID, b.Entry.Text})
			case b.Pattern != nil:
				items = append(items, itemText{b.Pattern.ID, b.Pattern.Text})
			}
		}
	}
	return items
}

// itemKeys are items as "ID HASH": 16 hex digits of the text's SHA-256,
// too many for a teammate to forge.
func itemKeys(items []itemText) []string {
	keys := make([]string, len(items))
	for i, it := range items {
		sum := sha256.Sum256([]byte(it.text))
		keys[i] = it.id + " " + hex.EncodeToString(sum[:8])
	}
	return keys
}
