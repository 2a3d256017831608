package memfile

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
)

// The week's digest, a line a day, answers "what did we do last week?"
// at session start, also for work that has left the file since.
const (
	weekDays      = 7 // looked back from the last pass
	digestEntries = 2 // a day's most important entries, each in a few words
	digestRunes   = 70
	digestTags    = 3
)

// WeekStart is the first day the week's digest of f covers: the records
// archived since are those it may count (View.Archived).
func WeekStart(f *File) time.Time {
	if f.Header.LastMaintained.IsZero() {
		return time.Time{}
	}
	return civil(f.Header.LastMaintained).AddDate(0, 0, -weekDays)
}

// weekGroup is a line for each day with work of the seven before the
// last pass that the latest work (from latestFrom) does not cover, newest
// first, counting the entries of f and of v.Archived dated that day.
func weekGroup(g *viewGroup, f *File, v View, latestFrom time.Time) {
	today := f.Header.LastMaintained
	if today.IsZero() {
		return
	}
	from := civil(today).AddDate(0, 0, -weekDays)
	to := civil(today) // the days before it
	if !latestFrom.IsZero() && latestFrom.Before(to) {
		to = civil(latestFrom)
	}
	if !from.Before(to) {
		return
	}
	days := map[time.Time][]*Entry{}
	seen := map[string]bool{}
	note := func(e *Entry) {
		d := civil(e.Date)
		if d.Before(from) || !d.Before(to) || seen[e.ID] {
			return
		}
		seen[e.ID] = true
		days[d] = append(days[d], e)
	}
	for t := 0; t < 2; t++ {
		for _, b := range f.Tiers[t].Blocks {
			if b.Entry != nil {
				note(b.Entry)
			}
		}
	}
	for _, r := range v.Archived {
		if r.Entry != nil {
			note(r.Entry)
		}
	}
	for d := to.AddDate(0, 0, -1); !d.Before(from); d = d.AddDate(0, 0, -1) {
		if es := days[d]; len(es) > 0 {
			g.add(viewLine{text: digestLine(d, es, v)})
		}
	}
}

// digestLine is one day's line; an entry v.Foreign names is marked.
func digestLine(day time.Time, es []*Entry, v View) string {
	slices.SortFunc(es, func(a, b *Entry) int {
		return cmp.Or(cmp.Compare(b.Importance, a.Importance), cmp.Compare(a.ID, b.ID))
	})
	count := map[string]int{}
	var tags []string
	for _, e := range es {
		for _, t := range e.Tags {
			if count[t] == 0 {
				tags = append(tags, t)
			}
			count[t]++
		}
	}
	slices.SortStableFunc(tags, func(a, b string) int { return cmp.Compare(count[b], count[a]) })
	tags = tags[:min(len(tags), digestTags)]
	var b strings.Builder
	word := "entries"
	if len(es) == 1 {
		word = "entry"
	}
	fmt.Fprintf(&b, "- %s %s, %d %s", day.Format("Mon"), day.Format(dateLayout), len(es), word)
	if len(tags) > 0 {
		b.WriteString(" [" + strings.Join(tags, ",") + "]")
	}
	b.WriteString(": ")
	for i, e := range es[:min(len(es), digestEntries)] {
		if i > 0 {
			b.WriteString("; ")
		}
		short, _ := shorten(Inert(e.Text), digestRunes)
		b.WriteString(short)
		b.WriteString(v.mark(e.ID))
	}
	if len(es) > digestEntries {
		fmt.Fprintf(&b, "; and %d more", len(es)-digestEntries)
	}
	return b.String()
}
