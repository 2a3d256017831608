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

type provenance struct {
	here   map[string]bool // the items recorded here, as the list says; nil: no data folder
	asRead []string        // the items in bimri.md as read
	saved  bool            // the list exists on disk
}

// beginProvenance reads the list for a transaction that read f. With no
// list yet, every item counts as recorded here outside git, none in a
// git work tree (the file came with a clone).
func (s *Store) beginProvenance(f *memfile.File) provenance {
	path := s.dataPath(recordedName)
	if path == "" {
		return provenance{}
	}
	p := provenance{asRead: itemKeys(f), here: map[string]bool{}}
	data, err := safefile.Read(path, maxStateSize)
	if err == nil {
		p.here, p.saved = idSet(data), true
	} else if _, err := os.Lstat(filepath.Join(s.root, ".git")); err != nil {
		p.here = set(p.asRead)
	}
	return p
}

// finishProvenance saves the list after a transaction that left f,
// keeping the items of f and of the file as read (now the backup).
func (s *Store) finishProvenance(p provenance, f *memfile.File, changed bool) {
	if p.here == nil || (!changed && p.saved) {
		return // no data folder, or the same file: nothing appeared
	}
	read := set(p.asRead)
	var keep, elsewhere []string
	for _, k := range itemKeys(f) {
		if p.here[k] || !read[k] {
			keep = append(keep, k) // appeared during the transaction, or recorded here before
		} else {
			id, _, _ := strings.Cut(k, " ")
			elsewhere = append(elsewhere, id)
		}
	}
	for _, k := range p.asRead {
		if p.here[k] {
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

// itemKeys are f's entries and patterns, in file order, as "ID HASH":
// 16 hex digits of the text's SHA-256, too many for a teammate to forge.
func itemKeys(f *memfile.File) []string {
	var keys []string
	for _, sec := range f.Tiers {
		for _, b := range sec.Blocks {
			id, text := "", ""
			switch {
			case b.Entry != nil:
				id, text = b.Entry.ID, b.Entry.Text
			case b.Pattern != nil:
				id, text = b.Pattern.ID, b.Pattern.Text
			default:
				continue
			}
			sum := sha256.Sum256([]byte(text))
			keys = append(keys, id+" "+hex.EncodeToString(sum[:8]))
		}
	}
	return keys
}
