package browse

// What browse reads and changes: the memory and its archive, through the
// same store, lock and memfile operations as the commands.

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/internal/inspect"
	"github.com/bimri/bimri-hook/internal/recall"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
)

// Source is the workspace browse shows and acts on.
type Source struct {
	Store  *store.Store
	Config memfile.Config
	Today  time.Time
}

// tabNames are the lists browse pages through, in order.
var tabNames = []string{"Tier 1", "Tier 2", "Patterns", "Archive"}

const (
	tabTier1 = iota
	tabTier2
	tabPatterns
	tabArchive
)

// item is one line of a list: an entry or pattern of the file, or the
// newest archive record of an ID that is not back in the file.
type item struct {
	id      string
	tier    int // 1-3 in the file; 0 for the archive
	entry   *memfile.Entry
	pattern *memfile.Pattern
	record  *memfile.ArchiveRecord
}

// snapshot is the memory as browse last read it.
type snapshot struct {
	path  string
	lists [4][]item
}

// load reads the memory and the archive without the lock, as show and
// search do: a writer replaces the file atomically.
func (s Source) load() (snapshot, error) {
	snap := snapshot{path: s.Store.Path(s.Store.Names().Memory)}
	read, err := s.Store.Read()
	if err != nil {
		return snap, err
	}
	f := read.File
	for t := 1; t <= 2; t++ {
		for _, e := range f.Entries(t) {
			snap.lists[t-1] = append(snap.lists[t-1], item{id: e.ID, tier: t, entry: e})
		}
		// Heaviest first, as the view orders them.
		slices.SortStableFunc(snap.lists[t-1], func(a, b item) int {
			return int(memfile.Score(*b.entry, t, s.Today, s.Config).Weight - memfile.Score(*a.entry, t, s.Today, s.Config).Weight)
		})
	}
	for _, p := range f.Patterns() {
		snap.lists[tabPatterns] = append(snap.lists[tabPatterns], item{id: p.ID, tier: 3, pattern: p})
	}
	recs, err := s.Store.ReadArchive()
	if err != nil {
		return snap, err
	}
	seen := map[string]bool{}
	for i := len(recs) - 1; i >= 0; i-- { // newest first, each ID once
		r := &recs[i]
		id := ""
		switch {
		case r.Entry != nil:
			id = r.Entry.ID
		case r.Pattern != nil:
			id = r.Pattern.ID
		default:
			continue
		}
		if seen[id] {
			continue
		}
		seen[id] = true
		if e, _ := f.Find(id); e != nil || f.FindPattern(id) != nil {
			continue // revived: it is in the file
		}
		snap.lists[tabArchive] = append(snap.lists[tabArchive], item{id: id, record: r})
	}
	return snap, nil
}

// recallItem is it as recall's engine searches it.
func (it item) recallItem() (recall.Item, bool) {
	switch {
	case it.entry != nil:
		return recall.FromEntry(it.entry), true
	case it.pattern != nil:
		return recall.FromPattern(it.pattern), true
	case it.record != nil && it.record.Entry != nil:
		ri := recall.FromEntry(it.record.Entry)
		ri.ArchivedOn, ri.Reason = it.record.ArchivedOn, it.record.Reason
		return ri, true
	case it.record != nil && it.record.Pattern != nil:
		ri := recall.FromPattern(it.record.Pattern)
		ri.ArchivedOn, ri.Reason = it.record.ArchivedOn, it.record.Reason
		return ri, true
	}
	return recall.Item{}, false
}

// text is what an item says, for its line and for search.
func (it item) text() string {
	switch {
	case it.entry != nil:
		return it.entry.Text
	case it.pattern != nil:
		return it.pattern.Text
	case it.record.Entry != nil:
		return it.record.Entry.Text
	}
	return it.record.Pattern.Text
}

func (it item) tags() []string {
	switch {
	case it.entry != nil:
		return it.entry.Tags
	case it.pattern != nil:
		return it.pattern.Tags
	case it.record.Entry != nil:
		return it.record.Entry.Tags
	}
	return it.record.Pattern.Tags
}

// matches says whether it holds every word of query in its ID, text or
// tags, in any case: search's rule (memfile.Search).
func (it item) matches(query string) bool {
	hay := strings.ToLower(it.id + " " + it.text() + " " + strings.Join(it.tags(), " "))
	for _, w := range strings.Fields(strings.ToLower(query)) {
		if !strings.Contains(hay, w) {
			return false
		}
	}
	return true
}

// line is an item's row in its list, bidi controls escaped
// (memfile.ShowControls): a recorded U+202E would reorder the row.
func (it item) line(s Source) string {
	return memfile.ShowControls(it.row(s))
}

func (it item) row(s Source) string {
	tags := ""
	if len(it.tags()) > 0 {
		tags = " [" + strings.Join(it.tags(), ",") + "]"
	}
	switch {
	case it.entry != nil:
		w := memfile.Score(*it.entry, it.tier, s.Today, s.Config).Weight
		return fmt.Sprintf("%s  imp %d  %s  w %s%s  %s", it.id, it.entry.Importance, it.entry.Date.Format(time.DateOnly), w, tags, it.entry.Text)
	case it.pattern != nil:
		return fmt.Sprintf("%s  %-10s %2d obs%s  %s", it.id, it.pattern.Level, it.pattern.Observations, tags, it.pattern.Text)
	}
	return fmt.Sprintf("%s  left %s%s  %s", it.id, it.record.ArchivedOn.Format(time.DateOnly), tags, it.text())
}

// detail is what browse says of the selected item: why it weighs what it
// does and when it will leave (as why does), or why it left; bidi
// controls escaped, as in its row.
func (it item) detail(s Source) string {
	var b bytes.Buffer
	switch {
	case it.entry != nil:
		inspect.PrintWhy(&b, inspect.Explain(*it.entry, it.tier, s.Today, s.Config))
		if tags := it.entry.Tags; len(tags) > 0 {
			fmt.Fprintf(&b, "  tags: %s\n", strings.Join(tags, ", "))
		}
	case it.pattern != nil:
		inspect.PrintWhyPattern(&b, it.pattern)
	default:
		r := it.record
		fmt.Fprintf(&b, "%s (archived %s from Tier %d): %s\n", it.id, r.ArchivedOn.Format(time.DateOnly), r.Tier, it.text())
		if r.Entry != nil {
			fmt.Fprintf(&b, "  importance %d, recorded %s\n", r.Entry.Importance, r.Entry.Date.Format(time.DateOnly))
		}
		fmt.Fprintf(&b, "  left because: %s\n", r.Reason)
		if r.Entry != nil {
			b.WriteString("  revive brings it back into Tier 2, dated today\n")
		}
	}
	return memfile.ShowControls(strings.TrimRight(b.String(), "\n"))
}

// The actions, each one transaction of the store, as the commands do it:
// forget as `forget`, revive as `revive`, promote as `remember --promote`,
// supersede as `remember --supersedes` (memfile.Supersede). Each returns
// the line browse shows after it.

func (s Source) forget(id string) (string, error) {
	_, err := s.Store.Update(func(tx *store.Tx) error {
		r, ok := tx.File.Remove(id, "forgotten in browse")
		if !ok {
			return fmt.Errorf("no entry or pattern %s in %s (changed meanwhile?)", id, s.Store.Names().Memory)
		}
		tx.Archive = append(tx.Archive, r)
		return nil
	})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("moved %s to %s", id, s.Store.Names().Archive), nil
}

func (s Source) revive(id string) (string, error) {
	recs, err := s.Store.ReadArchive()
	if err != nil {
		return "", err
	}
	rec, ok := inspect.LastRecord(recs, id)
	if !ok {
		return "", fmt.Errorf("no archived entry %s in %s", id, s.Store.Names().Archive)
	}
	_, err = s.Store.Update(func(tx *store.Tx) error {
		e, err := tx.File.Revive(rec, s.Today)
		if err != nil {
			return err
		}
		e.Weigh(2, s.Today, s.Config)
		return nil
	})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("revived %s into Tier 2, dated %s", id, s.Today.Format(time.DateOnly)), nil
}

func (s Source) promote(id string) (string, error) {
	_, err := s.Store.Update(func(tx *store.Tx) error {
		_, err := tx.File.Promote(id)
		return err
	})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("moved %s to Tier 1, where it never decays", id), nil
}

// supersede records text as a new entry in old's tier, with its
// importance and tags, dated today, and moves old to the archive as
// "superseded by NEW".
func (s Source) supersede(id, text string) (string, error) {
	if strings.TrimSpace(text) == "" {
		return "", fmt.Errorf("the new entry needs its text")
	}
	var newID string
	_, err := s.Store.Update(func(tx *store.Tx) error {
		old, tier := tx.File.Find(id)
		if old == nil {
			return fmt.Errorf("no entry %s in %s (changed meanwhile?)", id, s.Store.Names().Memory)
		}
		e, _, err := tx.File.Remember(memfile.NewEntry{Tier: tier, Importance: old.Importance, Date: s.Today,
			Tags: slices.Clone(old.Tags), Text: text}, s.Config)
		if err != nil {
			return err
		}
		newID = e.ID
		gone, err := tx.File.Supersede([]string{id}, e.ID)
		if err != nil {
			return err
		}
		tx.Archive = append(tx.Archive, gone...)
		return nil
	})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("recorded %s; %s is in %s as superseded by %s", newID, id, s.Store.Names().Archive, newID), nil
}
