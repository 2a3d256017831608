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
		return !((r >= 'a' && r <= 'z') || (r >= '0' && r <= '9'))
	})
	day := time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, time.UTC)
	// The widest time named: "on Monday through Friday last week" is
	// last week, not its Monday.
	for i := range words {
		if t, found := spanAt(words[i:], day); found && (!ok || t.to.Sub(t.from) > s.to.Sub(s.from)) {
			s, ok = t, true
		}
	}
	return s, ok
}

// spanAt is the time the words w start with, if any, today being day.
func spanAt(w []string, day time.Time) (span, bool) {
	at := func(i int) string {
		if i < len(w) {
			return w[i]
		}
		return ""
	}
	monday := day.AddDate(0, 0, -((int(day.Weekday()) + 6) % 7)) // of this week
	lastWeek := span{day.AddDate(0, 0, -7), day}
	weekday, isWeekday := weekdays[at(1)]
	switch first, next := at(0), at(1); {
	case first == "yesterday":
		return span{day.AddDate(0, 0, -1), day.AddDate(0, 0, -1)}, true
	case first == "last" && next == "week":
		return span{monday.AddDate(0, 0, -7), monday.AddDate(0, 0, -1)}, true
	case first == "this" && next == "week":
		return span{monday, day}, true
	case first == "last" && next == "month":
		first := time.Date(day.Year(), day.Month(), 1, 0, 0, 0, 0, time.UTC)
		return span{first.AddDate(0, -1, 0), first.AddDate(0, 0, -1)}, true
	case first == "since" && isWeekday:
		return span{day.AddDate(0, 0, -daysBack(day, weekday)), day}, true
	case (first == "last" || first == "on") && isWeekday:
		// "last Wednesday", "on Friday": that day, the latest before today.
		d := day.AddDate(0, 0, -daysBack(day, weekday))
		return span{d, d}, true
	case first == "in" && months[next] != 0:
		year := day.Year()
		if months[next] > day.Month() {
			year--
		}
		first := time.Date(year, months[next], 1, 0, 0, 0, 0, time.UTC)
		return span{first, first.AddDate(0, 1, -1)}, true
	case first == "recently" || first == "lately":
		return lastWeek, true
	case first == "recent" && (next == "work" || next == "changes" || next == "days"):
		return lastWeek, true
	case first == "past" && next == "week":
		return lastWeek, true // "last week" is the calendar week, above
	case (first == "past" || first == "last") && (next == "few" || next == "couple") && slices.Contains([]string{at(2), at(3)}, "days"):
		return lastWeek, true // "the last few days", "the past couple of days"
	}
	return span{}, false
}

// daysBack is how many days ago the latest weekday before day was: 1 to 7.
func daysBack(day time.Time, weekday time.Weekday) int {
	back := (int(day.Weekday()) - int(weekday) + 7) % 7
	if back == 0 {
		back = 7
	}
	return back
}

// spanItems are the entries of s that the session did not see whole:
// those of f that shown does not hold, and those archived; none that
// skip drops. They come a day at a time (see byDays).
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
	return byDays(items)
}

// askedFirst puts the entries of a time that share words with the
// prompt (beside the words of the time itself) ahead of the others, the
// most shared first, when they are at most few: words that single out a
// few entries of the time ("last week's toolchain upgrade") say which
// the prompt wants; words that many share ("the past week's changes")
// say nothing of which, and the day order stays.
func askedFirst(prompt string, items []recall.Item, few int) []recall.Item {
	counts := recall.Shared(prompt, items, timeWords())
	shared := make(map[string]int, len(items))
	n := 0
	for i, it := range items {
		if shared[it.ID] = counts[i]; counts[i] > 0 {
			n++
		}
	}
	if n == 0 || n > few {
		return items
	}
	slices.SortStableFunc(items, func(a, b recall.Item) int { return shared[b.ID] - shared[a.ID] })
	return items
}

// timeWords are the words that name a time, which say nothing of what
// was done then.
func timeWords() []string {
	words := []string{"yesterday", "today", "week", "month", "day", "past", "few", "couple", "since", "recent", "recently", "lately", "work"}
	for w := range weekdays {
		words = append(words, w)
	}
	for m := range months {
		words = append(words, m)
	}
	return words
}

// byDays orders a time's items so that the first few cover its days: the
// most important item of each day (newest day first), then the second of
// each, and so on; within a day, most important first, then newest, then
// ID. "What did we do last week?" is asked of a whole week, and one busy
// day's entries must not fill the answer (recall takes the first that
// fit). One record per ID: an entry archived twice is its latest record.
func byDays(items []recall.Item) []recall.Item {
	slices.SortStableFunc(items, func(a, b recall.Item) int {
		if c := b.Date.Compare(a.Date); c != 0 {
			return c
		}
		if a.Importance != b.Importance {
			return b.Importance - a.Importance
		}
		return strings.Compare(a.ID, b.ID)
	})
	items = slices.CompactFunc(items, func(a, b recall.Item) bool { return a.ID == b.ID })
	rank := make([]int, len(items)) // the item's place within its day
	for i := 1; i < len(items); i++ {
		if items[i].Date.Equal(items[i-1].Date) {
			rank[i] = rank[i-1] + 1
		}
	}
	order := make([]int, len(items))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return rank[a] - rank[b] })
	out := make([]recall.Item, len(items))
	for i, j := range order {
		out[i] = items[j]
	}
	return out
}
