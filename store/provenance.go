package store

// Which of bimri.md's entries and patterns this workspace's own sessions
// recorded, and so which came from elsewhere: a clone, a pull or a merge
// brings a teammate's entries in, and an edit anyone's text. The view
// marks those (View.Foreign), since the model should not take a note a
// teammate committed for one it made itself.
//
// bimri.md cannot say so itself: anyone who can commit it could forge
// such a mark. Nor can any file in the workspace: a teammate can commit
// the state folder too (git add -f). So the store keeps the list in the
// user's data folder, outside the repository (userdata.go), where no
// clone, pull or checkout reaches: every entry that appears in bimri.md
// within one of the store's own transactions was recorded here; one that
// appears between them came from elsewhere. An entry is its ID and a
// hash of its text: a teammate who rewrites the text under a kept [ID:...]
// (IDs come from the date and the text) brings an entry recorded
// elsewhere. It is bookkeeping like the session state: written
// atomically, not synced, and when lost, every entry then in the file
// counts as recorded elsewhere until recorded again.

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

// The lists, in the workspace's data folder, one a line, sorted: what
// was recorded here (of bimri.md and its backup), each as its ID and
// text hash (itemKeys), which transactions read; and the IDs of what the
// file holds that was not, which every view reads and is short or empty.
const (
	recordedName  = "recorded-here"
	elsewhereName = "recorded-elsewhere"
)

// provenance is what a transaction knows of it.
type provenance struct {
	here   map[string]bool // the items recorded here, as the list says (itemKeys)
	asRead []string        // the items in bimri.md when the transaction read it
	saved  bool            // the list exists on disk
	off    bool            // no data folder: no list is kept
}

// beginProvenance reads the list for a transaction whose file, as read,
// is f. With no list yet, every entry now in the file counts as recorded
// here when the workspace is not a git work tree (a file a model kept by
// the BIMRI protocol); otherwise the file came with git, a clone or a new
// machine's checkout, and none does. Nothing in the workspace can say
// otherwise, since git can carry anything in it.
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
		p.here = make(map[string]bool, len(p.asRead))
		for _, k := range p.asRead {
			p.here[k] = true
		}
	default:
		p.here = map[string]bool{}
	}
	return p
}

// finishProvenance saves the list after a transaction that left f: the
// items that appeared (or changed) during it were recorded here. It keeps
// the items of f and of the file as read (the backup now, which restore
// can bring back).
func (s *Store) finishProvenance(p provenance, f *memfile.File, changed bool) {
	if p.off || (!changed && p.saved) {
		return // no data folder, or the same file: nothing appeared
	}
	read := make(map[string]bool, len(p.asRead))
	for _, k := range p.asRead {
		read[k] = true
	}
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
	here := make(map[string]bool, len(keep))
	for _, k := range keep {
		here[k] = true
	}
	var elsewhere []string
	for _, k := range now {
		if !here[k] {
			id, _, _ := strings.Cut(k, " ")
			elsewhere = append(elsewhere, id)
		}
	}
	// Bookkeeping: a failure costs marks, not memory. The short list goes
	// last, so a reader never sees it name what the long one lacks.
	_ = s.writeData(recordedName, idList(keep))
	_ = s.writeData(elsewhereName, idList(elsewhere))
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
// sessions did not record, as the list last saved says; nil when none
// did, or there is no list yet. It reads without the lock.
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

// itemKeys are f's entries and patterns, in file order, each as its ID
// and a hash of its text, "ID HASH": the same ID with another text is
// another item.
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
// SHA-256: enough that no teammate finds another text with the same.
func itemKey(id, text string) string {
	sum := sha256.Sum256([]byte(text))
	return id + " " + hex.EncodeToString(sum[:8])
}

// isGitWorkTree says whether the workspace's root holds .git (a folder,
// or the file a worktree or submodule has).
func (s *Store) isGitWorkTree() bool {
	_, err := os.Lstat(filepath.Join(s.root, ".git"))
	return err == nil
}
