package store

// Which of bimri.md's entries and patterns this workspace's own sessions
// recorded, and so which came from elsewhere: a clone, a pull or a merge
// brings a teammate's entries in, and an edit anyone's text. The view
// marks those (View.Foreign), since the model should not take a note a
// teammate committed for one it made itself.
//
// bimri.md cannot say so itself: anyone who can commit it could forge
// such a mark. So the store keeps the list in the state folder, which is
// never committed: every ID that appears in bimri.md within one of its
// own transactions was recorded here; one that appears between them came
// from elsewhere. It is bookkeeping like the session state: written
// atomically, not synced, and when lost, every entry then in the file
// counts as recorded elsewhere until recorded again.

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store/safefile"
)

// The lists, in the state folder, one ID a line, sorted: what was
// recorded here (of bimri.md and its backup), which transactions read,
// and what the file holds that was not, which every view reads and is
// short or empty. (Not .json: PruneState removes state files of old
// sessions.)
const (
	recordedName  = "recorded-here"
	elsewhereName = "recorded-elsewhere"
)

// provenance is what a transaction knows of it.
type provenance struct {
	here   map[string]bool // the IDs recorded here, as the list says
	asRead []string        // the IDs in bimri.md when the transaction read it
	saved  bool            // the list exists on disk
}

// beginProvenance reads the list for a transaction whose file, as read,
// is f. With no list yet, every entry now in the file counts as recorded
// here when a pass ran here before (an older bimri-hook kept this
// workspace) or the workspace is not a git work tree (a file a model
// kept by the BIMRI protocol); otherwise the file came with git, a clone
// or a new machine's checkout, and none does.
func (s *Store) beginProvenance(f *memfile.File) provenance {
	p := provenance{asRead: itemIDs(f)}
	data, err := safefile.Read(s.statePathNamed(recordedName), maxStateSize)
	switch {
	case err == nil:
		p.here, p.saved = parseIDList(data), true
	case s.hasPassStamp() || !s.isGitWorkTree():
		p.here = make(map[string]bool, len(p.asRead))
		for _, id := range p.asRead {
			p.here[id] = true
		}
	default:
		p.here = map[string]bool{}
	}
	return p
}

// finishProvenance saves the list after a transaction that left f: the
// IDs that appeared during it were recorded here. It keeps the IDs of f
// and of the file as read (the backup now, which restore can bring back).
func (s *Store) finishProvenance(p provenance, f *memfile.File, changed bool) {
	if !changed && p.saved {
		return // the same file: nothing appeared
	}
	read := make(map[string]bool, len(p.asRead))
	for _, id := range p.asRead {
		read[id] = true
	}
	var keep []string
	for _, id := range itemIDs(f) {
		if p.here[id] || !read[id] {
			keep = append(keep, id)
		}
	}
	for _, id := range p.asRead {
		if p.here[id] {
			keep = append(keep, id)
		}
	}
	here := make(map[string]bool, len(keep))
	for _, id := range keep {
		here[id] = true
	}
	var elsewhere []string
	for _, id := range itemIDs(f) {
		if !here[id] {
			elsewhere = append(elsewhere, id)
		}
	}
	// Bookkeeping: a failure costs marks, not memory. The short list goes
	// last, so a reader never sees it name what the long one lacks.
	_ = s.writeState(s.statePathNamed(recordedName), idList(keep))
	_ = s.writeState(s.statePathNamed(elsewhereName), idList(elsewhere))
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
	data, err := safefile.Read(s.statePathNamed(elsewhereName), maxStateSize)
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

// itemIDs are the IDs of f's entries and patterns, in file order.
func itemIDs(f *memfile.File) []string {
	n := 0
	for _, sec := range f.Tiers {
		n += len(sec.Blocks)
	}
	ids := make([]string, 0, n)
	for _, sec := range f.Tiers {
		for _, b := range sec.Blocks {
			switch {
			case b.Entry != nil:
				ids = append(ids, b.Entry.ID)
			case b.Pattern != nil:
				ids = append(ids, b.Pattern.ID)
			}
		}
	}
	return ids
}

func (s *Store) statePathNamed(name string) string { return filepath.Join(s.StatePath(), name) }

// isGitWorkTree says whether the workspace's root holds .git (a folder,
// or the file a worktree or submodule has).
func (s *Store) isGitWorkTree() bool {
	_, err := os.Lstat(filepath.Join(s.root, ".git"))
	return err == nil
}

// hasPassStamp says whether an older bimri-hook ran a pass here: it
// left a pass stamp, a file of this name, in the state folder.
func (s *Store) hasPassStamp() bool {
	_, err := os.Stat(s.statePathNamed("pass"))
	return err == nil
}
