package store

// Provenance: which of bimri.md's items this workspace's sessions
// recorded, and so which came from elsewhere (a clone, a pull, an edit),
// for the view to mark. Git could forge it, so the list is kept in the
// user's data folder: an item (ID and text hash) that appears within the
// store's own transaction was recorded here. It is bookkeeping, not
// synced; lost, every item counts as elsewhere until recorded again.

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

// The lists, one a line: the items recorded here (of bimri.md and its
// backup), and the IDs of bimri.md's other items, which views read.
const (
	recordedName  = "recorded-here"
	elsewhereName = "recorded-elsewhere"
)

type provenance struct {
	here   map[string]bool // the items recorded here, as the list says
	asRead []string        // the items in bimri.md as read
	saved  bool            // the list exists on disk
	off    bool            // no data folder: no list is kept
}

// beginProvenance reads the list for a transaction that read f. With no
// list yet, every item counts as recorded here outside git, none in a
// git work tree (the file came with a clone).
func (s *Store) beginProvenance(f *memfile.File) provenance {
	p := provenance{asRead: itemKeys(f)}
	path := s.dataPath(recordedName)
	if path == "" {
		return provenance{off: true}
	}
	data, err := safefile.Read(path, maxStateSize)
	switch {
	case err == nil:
		p.here, p.saved = parseIDList(data), true
	case !s.isGitWorkTree():
		p.here = set(p.asRead)
	default:
		p.here = map[string]bool{}
	}
	return p
}

// finishProvenance saves the list after a transaction that left f,
// keeping the items of f and of the file as read (now the backup).
func (s *Store) finishProvenance(p provenance, f *memfile.File, changed bool) {
	if p.off || (!changed && p.saved) {
		return // no data folder, or the same file: nothing appeared
	}
	read := set(p.asRead)
	now := itemKeys(f)
	var keep, elsewhere []string
	for _, k := range now {
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

func set(keys []string) map[string]bool {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		m[k] = true
	}
	return m
}

func idList(ids []string) []byte {
	slices.Sort(ids)
	ids = slices.Compact(ids)
	if len(ids) == 0 {
		return []byte{}
	}
	return []byte(strings.Join(ids, "\n") + "\n")
}

// Foreign says, by ID, which of bimri.md's items this workspace's
// sessions did not record; nil when none. It reads without the lock.
func (s *Store) Foreign() func(id string) bool {
	path := s.dataPath(elsewhereName)
	if path == "" {
		return nil
	}
	data, err := safefile.Read(path, maxStateSize)
	if ids := parseIDList(data); err == nil && len(ids) > 0 {
		return func(id string) bool { return ids[id] }
	}
	return nil
}

func parseIDList(data []byte) map[string]bool {
	lines := strings.Split(string(data), "\n")
	ids := make(map[string]bool, len(lines))
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" {
			ids[l] = true
		}
	}
	return ids
}

// itemKeys are f's entries and patterns, in file order, as "ID HASH".
func itemKeys(f *memfile.File) []string {
	var keys []string
	for _, sec := range f.Tiers {
		for _, b := range sec.Blocks {
			switch {
			case b.Entry != nil:
				keys = append(keys, itemKey(b.Entry.ID, b.Entry.Text))
			case b.Pattern != nil:
				keys = append(keys, itemKey(b.Pattern.ID, b.Pattern.Text))
			}
		}
	}
	return keys
}

// itemKey is an item's ID and 16 hex digits of its text's SHA-256, too
// many for a teammate to forge.
func itemKey(id, text string) string {
	sum := sha256.Sum256([]byte(text))
	return id + " " + hex.EncodeToString(sum[:8])
}

func (s *Store) isGitWorkTree() bool {
	_, err := os.Lstat(filepath.Join(s.root, ".git"))
	return err == nil
}
