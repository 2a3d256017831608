package store

// Provenance: which of bimri.md's items this workspace's own sessions
// recorded, and so which came from elsewhere (a clone, a pull, a merge, an
// edit). The view marks those, since the model should not take a note a
// teammate committed for one it made itself. Nothing git carries can say
// so (anyone could forge it), so the list lives in the user's data folder
// (userdata.go): an item that appears within one of the store's own
// transactions was recorded here; one that appears between them came from
// elsewhere. An item is its ID and a hash of its text, so a text
// rewritten under a kept ID counts as elsewhere. It is bookkeeping:
// written atomically, not synced; lost, every item counts as elsewhere
// until recorded again.

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

// The lists, one a line, sorted: the items recorded here (of bimri.md and
// its backup, as itemKeys), which transactions read; and the IDs of the
// file's items that were not, which every view reads.
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

// beginProvenance reads the list for a transaction whose file, as read,
// is f. With no list yet, every item counts as recorded here outside git
// (a file a model kept by the BIMRI protocol); in a git work tree the
// file came with a clone, and none does.
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

// finishProvenance saves the list after a transaction that left f: the
// items that appeared during it were recorded here. It keeps those of f
// and of the file as read (the backup now, which restore can bring back).
func (s *Store) finishProvenance(p provenance, f *memfile.File, changed bool) {
	if p.off || (!changed && p.saved) {
		return // no data folder, or the same file: nothing appeared
	}
	read := set(p.asRead)
	now := itemKeys(f)
	var keep []string
	for _, k := range now {
		if p.here[k] || !read[k] {
			keep = append(keep, k)
		}
	}
	for _, k := range p.asRead {
		if p.here[k] {
			keep = append(keep, k)
		}
	}
	here := set(keep)
	var elsewhere []string
	for _, k := range now {
		if !here[k] {
			id, _, _ := strings.Cut(k, " ")
			elsewhere = append(elsewhere, id)
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
// sessions did not record, as last saved; nil when none (or no list).
// It reads without the lock.
func (s *Store) Foreign() func(id string) bool {
	path := s.dataPath(elsewhereName)
	if path == "" {
		return nil
	}
	data, err := safefile.Read(path, maxStateSize)
	if err != nil {
		return nil
	}
	return lookup(parseIDList(data))
}

func lookup(ids map[string]bool) func(string) bool {
	if len(ids) == 0 {
		return nil
	}
	return func(id string) bool { return ids[id] }
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
	n := 0
	for _, sec := range f.Tiers {
		n += len(sec.Blocks)
	}
	keys := make([]string, 0, n)
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

// itemKey is an item's ID and the first 16 hex digits of its text's
// SHA-256, too many for a teammate to find another text with the same.
func itemKey(id, text string) string {
	sum := sha256.Sum256([]byte(text))
	return id + " " + hex.EncodeToString(sum[:8])
}

// isGitWorkTree says whether the root holds .git (a folder, or a
// worktree's file).
func (s *Store) isGitWorkTree() bool {
	_, err := os.Lstat(filepath.Join(s.root, ".git"))
	return err == nil
}
