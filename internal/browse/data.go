package browse

// What browse reads and changes: the memory and its archive, through the
// same store, lock and memfile operations as the commands.

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/internal/inspect"
	"github.com/bimri/bimri-hook/internal/record"
	"github.com/bimri/bimri-hook/internal/workspace"
	"github.com/bimri/bimri-hook/memfile"
)

// Source is the workspace browse pages through, opened as the commands
// open it.
type Source = *workspace.Opened

// tabNames name the lists: tier t's is t-1 (patterns are Tier 3), then
// the archive's.
var tabNames = []string{"Tier 1", "Tier 2", "Patterns", "Archive"}

// item is one line of a list: an entry or pattern of the file, or the
// newest archive record of an ID that is not back in the file.
type item struct {
	id      string
	tier    int // 1-3 in the file; 0 for the archive
	text    string
	tags    []string
	entry   *memfile.Entry
	pattern *memfile.Pattern
	record  *memfile.ArchiveRecord
}

// load reads the memory and the archive without the lock, as show and
// search do: a writer replaces the file atomically.
func load(s Source) (lists [4][]item, err error) {
	read, err := s.Store.Read()
	if err != nil {
		return lists, err
	}
	f := read.File
	for t := 1; t <= 2; t++ {
		for _, e := range f.Entries(t) {
			lists[t-1] = append(lists[t-1], item{id: e.ID, tier: t, text: e.Text, tags: e.Tags, entry: e})
		}
		// Heaviest first, as the view orders them.
		slices.SortStableFunc(lists[t-1], func(a, b item) int {
			return int(memfile.Score(*b.entry, t, s.Today, s.Config.Memory).Weight - memfile.Score(*a.entry, t, s.Today, s.Config.Memory).Weight)
		})
	}
	for _, p := range f.Patterns() {
		lists[2] = append(lists[2], item{id: p.ID, tier: 3, text: p.Text, tags: p.Tags, pattern: p})
	}
	recs, err := s.Store.ReadArchive()
	if err != nil {
		return lists, err
	}
	seen := map[string]bool{}
	for i := len(recs) - 1; i >= 0; i-- { // newest first, each ID once
		r := &recs[i]
		it := item{record: r}
		switch {
		case r.Entry != nil:
			it.id, it.text, it.tags = r.Entry.ID, r.Entry.Text, r.Entry.Tags
		case r.Pattern != nil:
			it.id, it.text, it.tags = r.Pattern.ID, r.Pattern.Text, r.Pattern.Tags
		default:
			continue
		}
		if e, _ := f.Find(it.id); seen[it.id] || e != nil || f.FindPattern(it.id) != nil {
			continue // older, or revived: it is in the file
		}
		seen[it.id] = true
		lists[3] = append(lists[3], it)
	}
	return lists, nil
}

// line is an item's row in its list, bidi controls escaped
// (memfile.ShowControls): a recorded U+202E would reorder the row.
func (it item) line(s Source) string {
	tags := inspect.Pick(len(it.tags) == 0, "", " ["+strings.Join(it.tags, ",")+"]")
	var row string
	switch {
	case it.entry != nil:
		w := memfile.Score(*it.entry, it.tier, s.Today, s.Config.Memory).Weight
		row = fmt.Sprintf("%s  imp %d  %s  w %s%s  %s", it.id, it.entry.Importance, it.entry.Date.Format(time.DateOnly), w, tags, it.entry.Text)
	case it.pattern != nil:
		row = fmt.Sprintf("%s  %-10s %2d obs%s  %s", it.id, it.pattern.Level, it.pattern.Observations, tags, it.pattern.Text)
	default:
		row = fmt.Sprintf("%s  left %s%s  %s", it.id, it.record.ArchivedOn.Format(time.DateOnly), tags, it.text)
	}
	return memfile.ShowControls(row)
}

// detail is what browse says of the selected item: why it weighs what it
// does and when it will leave (as why does), or why it left; bidi
// controls escaped, as in its row.
func (it item) detail(s Source) string {
	var b bytes.Buffer
	switch {
	case it.entry != nil:
		inspect.PrintWhy(&b, *it.entry, it.tier, s.Today, s.Config.Memory)
		if tags := it.entry.Tags; len(tags) > 0 {
			fmt.Fprintf(&b, "  tags: %s\n", strings.Join(tags, ", "))
		}
	case it.pattern != nil:
		inspect.PrintWhyPattern(&b, it.pattern)
	default:
		r := it.record
		fmt.Fprintf(&b, "%s (archived %s from Tier %d): %s\n", it.id, r.ArchivedOn.Format(time.DateOnly), r.Tier, it.text)
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

// change carries out the action of key (f, r, p or s, superseding with
// text) on id through the commands' own code (package record), so browse
// changes memory exactly as they do, and says what it did in their words.
func change(s Source, key, id, text string) (string, error) {
	var d record.Done
	var err error
	switch key {
	case "f":
		d, err = record.Forget(s.Store, id, "forgotten in browse", record.CLINames)
	case "r":
		d, err = record.Revive(s.Store, s.Today, s.Config.Memory, id, record.CLINames)
	case "p":
		d, err = record.Remember(s.Store, s.Today, s.Config.Memory, record.Request{Promote: id}, record.CLINames)
	default:
		d, err = record.Remember(s.Store, s.Today, s.Config.Memory, record.Request{Text: text, Supersedes: []string{id}}, record.CLINames)
	}
	if err != nil {
		return "", err
	}
	// The title names the memory file's path: the status line needs its name.
	said, _, _ := strings.Cut(d.Text(), "\n")
	return strings.ReplaceAll(said, d.Memory, filepath.Base(d.Memory)), nil
}
