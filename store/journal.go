package store

// The journal undoes an editor's stale save over bimri.md, which no lock
// stops: each entry a transaction adds is appended to it (synced) first,
// and one of the branch checked out that is in neither bimri.md nor the
// archive, and was never restored, is restored. docs/design.md has why.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store/safefile"
)

const (
	journalName    = "journal"
	maxJournal     = 64 << 20 // the most read
	compactJournal = 1 << 20  // past it, only the entries bimri.md holds are kept
)

// journalRecord is one line: an entry "add"ed, or "restored" (ID alone).
type journalRecord struct {
	Op         string   `json:"op"`
	ID         string   `json:"id"`
	Tier       int      `json:"tier,omitempty"`
	Importance int      `json:"importance,omitempty"`
	Date       string   `json:"date,omitempty"`
	Tags       []string `json:"tags,omitempty"`
	Keywords   []string `json:"keywords,omitempty"`
	Text       string   `json:"text,omitempty"`
	Branch     string   `json:"branch,omitempty"` // the git HEAD: another branch's entries are not missing
}

// journal is the journal as a transaction read it and added to.
type journal struct {
	added    map[string]journalRecord // by ID, the latest
	order    []string                 // IDs in the order first added
	done     map[string]bool          // IDs restored before
	size     int64
	branch   string          // the git HEAD
	readIDs  map[string]bool // the entries of bimri.md as read
	restored []string        // IDs this transaction restored
}

// appendJournal appends records; a failure costs a restore, not memory.
func (s *Store) appendJournal(records []journalRecord) {
	path := s.dataPath(journalName)
	if len(records) == 0 || path == "" {
		return
	}
	_ = inFolder(func() error {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return err
		}
		defer f.Close()
		if _, err := f.Write(jsonLines(records)); err == nil && !s.noSync {
			_ = f.Sync()
		}
		return nil
	}, s.makeDataFolder)
}

func jsonLines(records []journalRecord) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, r := range records {
		_ = enc.Encode(r) // plain fields always marshal
	}
	return buf.Bytes()
}

func entryIDs(f *memfile.File) map[string]bool {
	ids := map[string]bool{}
	for _, e := range f.TierEntries() {
		ids[e.ID] = true
	}
	return ids
}

// beginJournal reads the journal, skipping a line cut by a crash, and
// restores what bimri.md lost.
func (s *Store) beginJournal(tx *Tx) {
	j := &tx.journal
	j.added, j.done, j.branch = map[string]journalRecord{}, map[string]bool{}, s.gitBranch()
	data, err := safefile.Read(s.dataPath(journalName), maxJournal)
	if err != nil {
		return // none yet, unreadable or no data folder: nothing to restore
	}
	j.size = int64(len(data))
	for line := range bytes.Lines(data) {
		var r journalRecord
		if json.Unmarshal(line, &r) != nil || r.ID == "" {
			continue
		}
		switch r.Op {
		case "add":
			if _, ok := j.added[r.ID]; !ok {
				j.order = append(j.order, r.ID)
			}
			j.added[r.ID] = r
		case "restored":
			j.done[r.ID] = true
		}
	}
	s.restoreJournaled(tx)
}

// journalNew journals the entries tx's file gained, before bimri.md is
// written.
func (s *Store) journalNew(tx *Tx) {
	j := &tx.journal
	var added []journalRecord
	for t, e := range tx.File.TierEntries() {
		if _, ok := j.added[e.ID]; !ok && !j.readIDs[e.ID] {
			r := journalRecord{Op: "add", ID: e.ID, Tier: t, Importance: e.Importance,
				Date: e.Date.Format("2006-01-02"), Tags: e.Tags, Keywords: e.Keywords, Text: e.Text, Branch: j.branch}
			added, j.added[e.ID], j.order = append(added, r), r, append(j.order, e.ID)
		}
	}
	if len(added) > 0 {
		s.appendJournal(added)
		s.pauseStep() // journaled, bimri.md not yet written
	}
}

// restoreJournaled adds back every journaled entry of the branch checked
// out that is in neither tx.File nor the archive and was never restored.
func (s *Store) restoreJournaled(tx *Tx) {
	j := &tx.journal
	present := entryIDs(tx.File)
	var missing []string
	for _, id := range j.order {
		if !present[id] && !j.done[id] && j.added[id].Branch == j.branch {
			missing = append(missing, id)
		}
	}
	if len(missing) == 0 {
		return
	}
	archived, err := s.ReadArchive()
	if err != nil {
		return // never restore what the archive may hold
	}
	for _, id := range missing {
		r := j.added[id]
		date, ok := memfile.ParseDate(r.Date)
		if !ok || slices.ContainsFunc(archived, func(a memfile.ArchiveRecord) bool { return a.Entry != nil && a.Entry.ID == id }) {
			continue
		}
		e, _, err := tx.File.Add(memfile.NewEntry{Tier: r.Tier, Importance: r.Importance, Date: date, Tags: r.Tags, Keywords: r.Keywords, Text: r.Text})
		if err == nil && e != nil {
			j.restored = append(j.restored, id)
		}
	}
	if n := len(j.restored); n > 0 {
		tx.Notice = joinNotices(tx.Notice, fmt.Sprintf("restored %d %s recorded here that had gone from %s without being forgotten (an editor saving an older copy?): %s; to drop one, forget it",
			n, map[bool]string{false: "entry", true: "entries"}[n > 1], s.names.Memory, strings.Join(j.restored, ", ")))
	}
}

// journalAfter marks the entries tx restored, once bimri.md holds them,
// and compacts a large journal.
func (s *Store) journalAfter(tx *Tx) {
	j := &tx.journal
	var done []journalRecord
	for _, id := range j.restored {
		done = append(done, journalRecord{Op: "restored", ID: id})
		j.done[id] = true
	}
	s.appendJournal(done)
	if j.size < compactJournal {
		return
	}
	present := entryIDs(tx.File)
	var keep []journalRecord
	for _, id := range j.order {
		if !present[id] {
			continue // archived, or deleted by hand after its restore
		}
		keep = append(keep, j.added[id])
		if j.done[id] {
			keep = append(keep, journalRecord{Op: "restored", ID: id})
		}
	}
	_ = safefile.WriteFile(s.dataPath(journalName), jsonLines(keep), safefile.Options{NoSync: s.noSync, NewPerm: 0o600})
}

// gitBranch is the workspace's git HEAD as written, following a
// worktree's .git file; "" outside git.
func (s *Store) gitBranch() string {
	dir := filepath.Join(s.root, ".git")
	if data, err := safefile.Read(dir, 4<<10); err == nil {
		gitdir, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir: ")
		if !ok {
			return ""
		}
		if !filepath.IsAbs(gitdir) {
			gitdir = filepath.Join(s.root, gitdir)
		}
		dir = gitdir
	}
	head, _ := safefile.Read(filepath.Join(dir, "HEAD"), 4<<10) // nil when it does not read
	return strings.TrimSpace(string(head))
}
