package store

// The journal: what was recorded here, so that recording is lossless
// whatever else writes bimri.md. No lock stops an editor that keeps
// saving a stale buffer, or a tool that writes an older copy: the entries
// recorded since it read the file vanish from bimri.md without ever
// reaching the archive. So every transaction first appends each entry it
// adds to the journal, in the user's data folder (userdata.go, where git
// cannot reach it), one record per write to a file opened O_APPEND, and
// synced before bimri.md is written. Every transaction then restores a
// journaled entry that is in neither bimri.md nor the archive and was
// never restored before (so forgotten, pruned, superseded, replaced and
// merged entries, which the archive holds, stay gone, and one a person
// deleted after its restore stays deleted), and tells the user once.
// docs/design.md has the recovery rules.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store/atomicfile"
	"github.com/bimri/bimri-hook/store/safefile"
)

const (
	journalName = "journal"
	// maxJournal bounds the journal read; past compactJournal bytes, a
	// transaction rewrites it with only the entries bimri.md still holds
	// (every other journaled entry is by then in the archive, or restored).
	maxJournal     = 64 << 20
	compactJournal = 1 << 20
)

// journalRecord is one line of the journal: an entry added ("add", with
// what restores it) or restored ("restored", its ID alone).
type journalRecord struct {
	Op         string   `json:"op"`
	ID         string   `json:"id"`
	Tier       int      `json:"tier,omitempty"`
	Importance int      `json:"importance,omitempty"`
	Date       string   `json:"date,omitempty"`
	Tags       []string `json:"tags,omitempty"`
	Keywords   []string `json:"keywords,omitempty"`
	Text       string   `json:"text,omitempty"`
	// Branch is the git branch the workspace had checked out (its HEAD)
	// when the entry was added: checking out another branch takes its
	// entries out of bimri.md, and that is no loss.
	Branch string `json:"branch,omitempty"`
}

// journal is what a transaction read of the journal.
type journal struct {
	added    map[string]journalRecord // by ID, the latest
	order    []string                 // IDs in the order first added
	restored map[string]bool
	size     int64
}

// readJournal reads the journal; a missing one is empty, and a line that
// does not decode (a record cut by a crash) is skipped.
func (s *Store) readJournal() (journal, error) {
	j := journal{added: map[string]journalRecord{}, restored: map[string]bool{}}
	path := s.dataPath(journalName)
	if path == "" {
		return j, nil
	}
	data, err := safefile.Read(path, maxJournal)
	if errors.Is(err, fs.ErrNotExist) {
		return j, nil
	}
	if err != nil {
		return j, err
	}
	j.size = int64(len(data))
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), maxJournal)
	for sc.Scan() {
		var r journalRecord
		if json.Unmarshal(sc.Bytes(), &r) != nil || r.ID == "" {
			continue
		}
		switch r.Op {
		case "add":
			if _, ok := j.added[r.ID]; !ok {
				j.order = append(j.order, r.ID)
			}
			j.added[r.ID] = r
		case "restored":
			j.restored[r.ID] = true
		}
	}
	return j, nil
}

// appendJournal appends records, one write each, to the journal opened
// O_APPEND, and syncs it unless the store does without.
func (s *Store) appendJournal(records []journalRecord) error {
	if len(records) == 0 || s.dataFolder() == "" {
		return nil
	}
	path := s.dataPath(journalName)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if errors.Is(err, fs.ErrNotExist) {
		if err = s.makeDataFolder(); err == nil {
			f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		}
	}
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	for _, r := range records {
		line, _ := json.Marshal(r) // plain fields always marshal
		if _, err = f.Write(append(line, '\n')); err != nil {
			break
		}
	}
	if err == nil {
		err = syncFile(f, !s.noSync)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

// entryIDs are the IDs of f's entries.
func entryIDs(f *memfile.File) map[string]bool {
	ids := map[string]bool{}
	for t := 1; t <= 2; t++ {
		for _, b := range f.Tiers[t-1].Blocks {
			if b.Entry != nil {
				ids[b.Entry.ID] = true
			}
		}
	}
	return ids
}

// newEntries are the journal records of the entries f holds that were
// not in the file as read (read: their IDs) and are not journaled yet.
func newEntries(f *memfile.File, read map[string]bool, j journal, branch string) []journalRecord {
	var out []journalRecord
	for t := 1; t <= 2; t++ {
		for _, b := range f.Tiers[t-1].Blocks {
			e := b.Entry
			if e == nil || read[e.ID] {
				continue
			}
			if _, ok := j.added[e.ID]; ok {
				continue
			}
			out = append(out, journalRecord{Op: "add", ID: e.ID, Tier: t, Importance: e.Importance,
				Date: e.Date.Format("2006-01-02"), Tags: e.Tags, Keywords: e.Keywords, Text: e.Text, Branch: branch})
		}
	}
	return out
}

// restoreJournaled adds back to tx.File every journaled entry of the
// branch checked out that is in neither it nor the archive and was never
// restored, and says so in the transaction's notice. The archive is read
// only when one is missing.
func (s *Store) restoreJournaled(tx *Tx) {
	j := tx.journal
	present := entryIDs(tx.File)
	var missing []string
	for _, id := range j.order {
		if !present[id] && !j.restored[id] && j.added[id].Branch == tx.branch {
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
	gone := map[string]bool{}
	for _, r := range archived {
		if r.Entry != nil {
			gone[r.Entry.ID] = true
		}
	}
	for _, id := range missing {
		r := j.added[id]
		if gone[id] {
			continue
		}
		date, ok := memfile.ParseDate(r.Date)
		if !ok {
			continue
		}
		e, _, err := tx.File.Add(memfile.NewEntry{Tier: r.Tier, Importance: r.Importance, Date: date, Tags: r.Tags, Keywords: r.Keywords, Text: r.Text})
		if err != nil || e == nil {
			continue
		}
		tx.restored = append(tx.restored, id)
	}
	if len(tx.restored) > 0 {
		tx.Notice = joinNotices(tx.Notice, fmt.Sprintf("restored %d entr%s recorded here that had gone from %s without being forgotten (an editor saving an older copy?): %s; to drop one, forget it",
			len(tx.restored), plural(len(tx.restored), "y", "ies"), s.names.Memory, strings.Join(tx.restored, ", ")))
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// journalAfter records, once bimri.md holds them, the entries this
// transaction restored, so that none is restored twice; and compacts a
// journal grown past compactJournal to the entries f holds.
func (s *Store) journalAfter(tx *Tx, f *memfile.File) {
	var done []journalRecord
	for _, id := range tx.restored {
		done = append(done, journalRecord{Op: "restored", ID: id})
	}
	_ = s.appendJournal(done) // a record lost costs one restore more, never an entry
	if tx.journal.size < compactJournal {
		return
	}
	present := entryIDs(f)
	added := maps.Clone(tx.journal.added)
	order := slices.Clone(tx.journal.order)
	for _, r := range tx.journaled {
		added[r.ID] = r
		order = append(order, r.ID)
	}
	var buf bytes.Buffer
	for _, id := range order {
		if !present[id] {
			continue // archived, or deleted by hand after its restore
		}
		r := added[id]
		line, _ := json.Marshal(r)
		buf.Write(append(line, '\n'))
		if tx.journal.restored[id] || slices.Contains(tx.restored, id) {
			line, _ = json.Marshal(journalRecord{Op: "restored", ID: id})
			buf.Write(append(line, '\n'))
		}
	}
	_ = atomicfile.WriteFile(s.dataPath(journalName), buf.Bytes(), atomicfile.Options{NoSync: s.noSync, NewPerm: 0o600})
}

// gitBranch is what the workspace's git HEAD names: "ref: refs/heads/X"
// for a branch, a commit for a detached HEAD; "" outside git. A worktree
// or submodule's .git file names the folder that holds its HEAD.
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
	head, err := safefile.Read(filepath.Join(dir, "HEAD"), 4<<10)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(head))
}
