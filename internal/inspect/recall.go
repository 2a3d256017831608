package inspect

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/internal/recall"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/privacy"
	"github.com/bimri/bimri-hook/store"
)

// Recalled is one item a recall query found.
type Recalled struct {
	ID         string   `json:"id"`
	Where      string   `json:"where" jsonschema:"tier 1, tier 2, tier 3 (a pattern) or archive"`
	Date       string   `json:"date,omitempty" jsonschema:"the entry's date (a pattern's last observation), YYYY-MM-DD"`
	Importance int      `json:"importance,omitempty" jsonschema:"1-5; absent for a pattern"`
	Tags       []string `json:"tags"`
	Text       string   `json:"text"`
	ArchivedOn string   `json:"archived_on,omitempty" jsonschema:"when it left bimri.md, YYYY-MM-DD"`
	Reason     string   `json:"reason,omitempty" jsonschema:"why it was archived"`
}

// Recall finds what memory holds on q.Text, in bimri.md and the archive,
// best first, at most limit items: recall.Ask's hits as the prompt hook
// gets them, then the items that hold every word (parts of words and IDs
// too). An archived entry back in the file is given once, as the file has it.
func Recall(store *store.Store, f *memfile.File, q recall.Query, limit int) ([]Recalled, error) {
	// Read first: a damaged or odd archive (a named pipe) is refused in
	// the store's words, as search always did.
	recs, err := store.ReadArchive()
	if err != nil {
		return nil, err
	}
	q.Limit = 4 * limit
	found, err := recall.Ask(store, f, q, nil)
	if err != nil {
		return nil, err
	}
	inFile := func(id string) bool { e, _ := f.Find(id); return e != nil || f.FindPattern(id) != nil }
	out := []Recalled{}
	add := func(r Recalled) {
		if len(out) < limit && !slices.ContainsFunc(out, func(o Recalled) bool { return o.ID == r.ID }) {
			out = append(out, r)
		}
	}
	for _, h := range recall.Select(found, limit, math.MaxInt32, func(recall.Item) int { return 1 }) {
		it := h.Item
		if it.ArchivedOn.IsZero() {
			it = it.Cleaned() // the index's items are clean already
		}
		r := Recalled{ID: it.ID, Where: "tier 3", Date: memfile.Day(it.Date), Importance: it.Importance, Tags: nonNil(it.Tags), Text: it.Text, Reason: it.Reason}
		if _, tier := f.Find(it.ID); tier > 0 {
			r.Where = fmt.Sprint("tier ", tier)
		}
		if !it.ArchivedOn.IsZero() {
			r.Where, r.ArchivedOn = "archive", memfile.Day(it.ArchivedOn)
		}
		add(r)
	}
	// Newest first, as the ranked hits go.
	held := holding(f, recs, q.Text)
	for i := len(held) - 1; i >= 0 && len(out) < limit; i-- {
		r := held[i]
		if (r.Where == "archive" && inFile(r.ID)) || !inScope(q, r.Date) {
			continue
		}
		if rec, ok := LastRecord(recs, r.ID); ok && r.Where == "archive" {
			r.Importance = rec.Entry.Importance
		}
		r.Tags, r.Text, r.Reason = nonNil(r.Tags), privacy.Clean(r.Text), privacy.Clean(r.Reason)
		add(r)
	}
	return out, nil
}

// holding finds the entries and patterns, in the file and the archive,
// whose text, tags, keywords or ID hold every word of query (any case).
func holding(f *memfile.File, recs []memfile.ArchiveRecord, query string) []Recalled {
	words := strings.Fields(strings.ToLower(query))
	holds := func(id, text string, tags, keywords []string) bool {
		hay := strings.ToLower(id + " " + text + " " + strings.Join(tags, " ") + " " + strings.Join(keywords, " "))
		return len(words) > 0 && !slices.ContainsFunc(words, func(w string) bool { return !strings.Contains(hay, w) })
	}
	var held []Recalled
	for t, e := range f.TierEntries() {
		if holds(e.ID, e.Text, e.Tags, e.Keywords) {
			held = append(held, Recalled{ID: e.ID, Where: fmt.Sprint("tier ", t), Date: e.Date.Format(time.DateOnly), Importance: e.Importance, Tags: e.Tags, Text: e.Text})
		}
	}
	for _, p := range f.Patterns() {
		if holds(p.ID, p.Text, p.Tags, nil) {
			held = append(held, Recalled{ID: p.ID, Where: "tier 3", Date: memfile.Day(p.Last), Tags: p.Tags, Text: p.Text})
		}
	}
	for _, rec := range recs {
		r := Recalled{Where: "archive", ArchivedOn: memfile.Day(rec.ArchivedOn), Reason: rec.Reason}
		switch e, p := rec.Entry, rec.Pattern; {
		case e != nil && holds(e.ID, e.Text, e.Tags, e.Keywords):
			r.ID, r.Date, r.Tags, r.Text = e.ID, e.Date.Format(time.DateOnly), e.Tags, e.Text
		case p != nil && holds(p.ID, p.Text, p.Tags, nil):
			r.ID, r.Date, r.Tags, r.Text = p.ID, memfile.Day(p.Last), p.Tags, p.Text
		default:
			continue
		}
		held = append(held, r)
	}
	return held
}

func inScope(q recall.Query, date string) bool {
	if q.Since.IsZero() && q.Until.IsZero() {
		return true
	}
	t, err := time.Parse(time.DateOnly, date)
	return err == nil && !t.Before(q.Since) && (q.Until.IsZero() || !t.After(q.Until))
}

func nonNil(tags []string) []string {
	if tags == nil {
		return []string{}
	}
	return tags
}

func PrintRecalled(w io.Writer, items []Recalled, query string) {
	if len(items) == 0 {
		fmt.Fprintf(w, "nothing in memory matches %q\n", query)
		return
	}
	for _, r := range items {
		fmt.Fprintf(w, "- %s (%s", r.ID, r.Where)
		if r.Date != "" {
			fmt.Fprintf(w, ", %s", r.Date)
		}
		if r.Importance > 0 {
			fmt.Fprintf(w, ", importance %d", r.Importance)
		}
		if len(r.Tags) > 0 {
			fmt.Fprintf(w, ", tags %s", strings.Join(r.Tags, ","))
		}
		if r.ArchivedOn != "" {
			fmt.Fprintf(w, ", archived %s: %s", r.ArchivedOn, r.Reason)
		}
		fmt.Fprintf(w, "): %s\n", r.Text)
	}
}
