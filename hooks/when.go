package hooks

import (
	"slices"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/internal/recall"
	"github.com/bimri/bimri-hook/memfile"
)

// Time in recall: a prompt that names a time ("yesterday", "last week",
// "since Monday", "in March") is answered from the entries of that time,
// most important first, beside what its words recall. The days are
// whole days of the workspace's calendar, today being env.Today.

// span is a range of days, both ends included.
type span struct{ from, to time.Time }

func (s span) holds(t time.Time) bool { return !t.Before(s.from) && !t.After(s.to) }

var weekdays = map[string]time.Weekday{
	"monday": time.Monday, "tuesday": time.Tuesday, "wednesday": time.Wednesday, "thursday": time.Thursday,
	"friday": time.Friday, "saturday": time.Saturday, "sunday": time.Sunday,
}

var months = map[string]time.Month{
	"january": time.January, "february": time.February, "march": time.March, "april": time.April,
	"may": time.May, "june": time.June, "july": time.July, "august": time.August,
	"september": time.September, "october": time.October, "november": time.November, "december": time.December,
}

// promptSpan is the time prompt names, relative to today; ok is false
// when it names none.
func promptSpan(prompt string, today time.Time) (s span, ok bool) {
	words := strings.FieldsFunc(strings.ToLower(prompt), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
	day := time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, time.UTC)
	// Monday of this week.
	monday := day.AddDate(0, 0, -((int(day.Weekday()) + 6) % 7))
	for i, w := range words {
		next := ""
		if i+1 < len(words) {
			next = words[i+1]
		}
		switch {
		case w == "yesterday":
			return span{day.AddDate(0, 0, -1), day.AddDate(0, 0, -1)}, true
		case w == "last" && next == "week":
			return span{monday.AddDate(0, 0, -7), monday.AddDate(0, 0, -1)}, true
		case w == "this" && next == "week":
			return span{monday, day}, true
		case w == "last" && next == "month":
			first := time.Date(day.Year(), day.Month(), 1, 0, 0, 0, 0, time.UTC)
			return span{first.AddDate(0, -1, 0), first.AddDate(0, 0, -1)}, true
		case w == "since" && weekdays[next] != 0 || w == "since" && next == "sunday":
			back := (int(day.Weekday()) - int(weekdays[next]) + 7) % 7
			if back == 0 {
				back = 7
			}
			return span{day.AddDate(0, 0, -back), day}, true
		case w == "in" && months[next] != 0:
			year := day.Year()
			if months[next] > day.Month() {
				year--
			}
			first := time.Date(year, months[next], 1, 0, 0, 0, 0, time.UTC)
			return span{first, first.AddDate(0, 1, -1)}, true
		}
	}
	return span{}, false
}

// spanItems are the entries of s that the session did not see whole:
// those of f that shown does not hold, and those archived, most
// important first, then newest; none that skip drops.
func spanItems(env Env, f *memfile.File, s span, shown map[string]bool, skip func(string) bool) []recall.Item {
	var items []recall.Item
	inFile := map[string]bool{}
	for t := 1; t <= 2; t++ {
		for _, e := range f.Entries(t) {
			inFile[e.ID] = true
			if s.holds(e.Date) && !shown[e.ID] && !skip(e.ID) {
				items = append(items, recall.FromEntry(e).Cleaned())
			}
		}
	}
	for _, r := range env.Store.RecentArchive(s.from) {
		if r.Entry == nil || inFile[r.Entry.ID] || !s.holds(r.Entry.Date) || skip(r.Entry.ID) {
			continue
		}
		it := recall.FromEntry(r.Entry)
		it.ArchivedOn, it.Reason = r.ArchivedOn, r.Reason
		if it.ArchivedOn.IsZero() {
			it.ArchivedOn = it.Date // an archive record always has one; be safe
		}
		items = append(items, it.Cleaned())
	}
	slices.SortStableFunc(items, func(a, b recall.Item) int {
		if a.Importance != b.Importance {
			return b.Importance - a.Importance
		}
		return b.Date.Compare(a.Date)
	})
	// One record per ID: an entry archived twice is its latest record.
	return slices.CompactFunc(items, func(a, b recall.Item) bool { return a.ID == b.ID })
}
