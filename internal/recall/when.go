package recall

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A prompt that names a time ("yesterday", "in October", "on 25 May,
// 2022", "three weeks ago") scopes its answer to those whole days, today
// being the day passed in; its other words say what of that time it asks.

// Span is a range of days, both ends included.
type Span struct{ From, To time.Time }

func (s Span) days() int { return dayNumber(s.To) - dayNumber(s.From) }

var weekdays, months = map[string]time.Weekday{}, map[string]time.Month{"sept": time.September}

func init() {
	for d := time.Sunday; d <= time.Saturday; d++ {
		weekdays[strings.ToLower(d.String())] = d
	}
	for m := time.January; m <= time.December; m++ {
		name := strings.ToLower(m.String())
		months[name], months[name[:3]] = m, m
	}
}

// counts are the number words "N weeks ago" may use.
var counts = map[string]int{
	"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
	"eight": 8, "nine": 9, "ten": 10, "few": 3, "couple": 2, "several": 3,
}

// PromptTime is the time prompt names relative to today, and the prompt's
// words outside the phrases naming it; ok is false when it names none. Of
// two times the wider is the answer: "on Monday through Friday last week"
// is last week.
func PromptTime(prompt string, today time.Time) (s Span, rest string, ok bool) {
	words := timeWords(prompt)
	day := time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, time.UTC)
	used := make([]bool, len(words))
	for i := 0; i < len(words); i++ {
		t, n := spanAt(words[i:], day)
		if n == 0 {
			continue
		}
		for j := i; j < i+n; j++ {
			used[j] = true
		}
		if !ok || t.days() > s.days() {
			s, ok = t, true
		}
		i += n - 1
	}
	if !ok {
		return Span{}, prompt, false
	}
	var kept []string
	for i, w := range words {
		if !used[i] {
			kept = append(kept, w)
		}
	}
	return s, strings.Join(kept, " "), true
}

// timeWords are a prompt's lower-case words, a date's dashes kept.
func timeWords(prompt string) []string {
	return strings.FieldsFunc(strings.ToLower(prompt), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-')
	})
}

// spanAt is the time the words w start with, today being day, and how
// many words name it (0: none).
func spanAt(w []string, day time.Time) (Span, int) {
	if s, n := dateAt(w, day); n > 0 {
		return s, n
	}
	monday := day.AddDate(0, 0, -((int(day.Weekday()) + 6) % 7)) // of this week
	pastWeek := Span{day.AddDate(0, 0, -7), day}
	weekday, isWeekday := weekdays[wordAt(w, 1)]
	first, next := wordAt(w, 0), wordAt(w, 1)
	switch {
	case first == "yesterday":
		return Span{day.AddDate(0, 0, -1), day.AddDate(0, 0, -1)}, 1
	case first == "today":
		return Span{day, day}, 1
	case first == "last" && next == "week":
		return Span{monday.AddDate(0, 0, -7), monday.AddDate(0, 0, -1)}, 2
	case first == "this" && next == "week":
		return Span{monday, day}, 2
	case first == "last" && next == "weekend":
		sat := monday.AddDate(0, 0, -2)
		return Span{sat, sat.AddDate(0, 0, 1)}, 2
	case first == "last" && next == "month":
		start := time.Date(day.Year(), day.Month(), 1, 0, 0, 0, 0, time.UTC)
		return Span{start.AddDate(0, -1, 0), start.AddDate(0, 0, -1)}, 2
	case first == "this" && next == "month":
		return Span{time.Date(day.Year(), day.Month(), 1, 0, 0, 0, 0, time.UTC), day}, 2
	case first == "last" && next == "year":
		return Span{time.Date(day.Year()-1, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(day.Year()-1, 12, 31, 0, 0, 0, 0, time.UTC)}, 2
	case first == "since" && isWeekday:
		return Span{day.AddDate(0, 0, -daysBack(day, weekday)), day}, 2
	case (first == "last" || first == "on" || first == "this" || first == "past") && isWeekday:
		// "last Wednesday", "on Friday": that day, the latest before today.
		d := day.AddDate(0, 0, -daysBack(day, weekday))
		return Span{d, d}, 2
	case (first == "in" || first == "during" || first == "since") && months[next] != 0 && (len(next) > 3 || next == "may"):
		if s, n := monthAt(w[1:], day); n > 0 {
			if first == "since" {
				s.To = day
			}
			return s, n + 1
		}
	case first == "recently" || first == "lately":
		return pastWeek, 1
	case first == "recent" && (next == "work" || next == "changes" || next == "days"):
		return pastWeek, 2
	case first == "past" && next == "week":
		return pastWeek, 2 // "last week" is the calendar week, above
	case (first == "past" || first == "last") && (next == "few" || next == "couple") && slices.Contains([]string{wordAt(w, 2), wordAt(w, 3)}, "days"):
		return pastWeek, 3 // "the last few days", "the past couple of days"
	}
	return agoAt(w, day)
}

// agoAt reads "N days/weeks/months/years ago" as the day, or the days
// around then for the longer units.
func agoAt(w []string, day time.Time) (Span, int) {
	if len(w) < 3 || w[2] != "ago" {
		return Span{}, 0
	}
	n, ok := counts[w[0]]
	if v, err := strconv.Atoi(w[0]); err == nil && v > 0 && v < 1000 {
		n, ok = v, true
	}
	if !ok {
		return Span{}, 0
	}
	switch strings.TrimSuffix(w[1], "s") {
	case "day":
		d := day.AddDate(0, 0, -n)
		return Span{d, d}, 3
	case "week":
		d := day.AddDate(0, 0, -7*n)
		return Span{d.AddDate(0, 0, -3), d.AddDate(0, 0, 3)}, 3
	case "month":
		d := day.AddDate(0, -n, 0)
		return Span{d.AddDate(0, 0, -15), d.AddDate(0, 0, 15)}, 3
	case "year":
		d := day.AddDate(-n, 0, 0)
		return Span{d.AddDate(0, -6, 0), d.AddDate(0, 6, 0)}, 3
	}
	return Span{}, 0
}

// dateAt reads a date at the start of w: "25 May, 2022", "May 8, 2023",
// "June 3rd", "3rd of June" (by "of" only an ordinal), "2026-11-05",
// "2026-11", "May 2023". A day without a year is the latest not after today.
func dateAt(w []string, day time.Time) (Span, int) {
	if len(w) == 0 {
		return Span{}, 0
	}
	if t, err := time.Parse(time.DateOnly, w[0]); err == nil {
		return Span{t, t}, 1
	}
	if t, err := time.Parse("2006-01", w[0]); err == nil {
		return Span{t, t.AddDate(0, 1, -1)}, 1
	}
	dayOf := func(s string) int {
		s = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(s, "st"), "nd"), "rd"), "th")
		if v, err := strconv.Atoi(s); err == nil && v >= 1 && v <= 31 {
			return v
		}
		return 0
	}
	on := func(y int, m time.Month, d, n int) (Span, int) {
		if y == 0 {
			y = day.Year()
			if time.Date(y, m, d, 0, 0, 0, 0, time.UTC).After(day) {
				y--
			}
		} else {
			n++
		}
		t := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
		return Span{t, t}, n
	}
	if d := dayOf(wordAt(w, 0)); d > 0 && months[wordAt(w, 1)] != 0 {
		return on(yearOf(wordAt(w, 2)), months[wordAt(w, 1)], d, 2) // "25 May, 2022"
	}
	if d := dayOf(wordAt(w, 0)); d > 0 && ordinal(wordAt(w, 0)) && wordAt(w, 1) == "of" && months[wordAt(w, 2)] != 0 {
		return on(yearOf(wordAt(w, 3)), months[wordAt(w, 2)], d, 3) // "the 3rd of June"
	}
	if m := months[wordAt(w, 0)]; m != 0 && len(wordAt(w, 0)) > 2 {
		if d := dayOf(wordAt(w, 1)); d > 0 {
			return on(yearOf(wordAt(w, 2)), m, d, 2) // "May 8, 2023"
		}
		if y := yearOf(wordAt(w, 1)); y > 0 {
			return monthAt(w, day) // "May 2023"
		}
	}
	return Span{}, 0
}

// wordAt is w[i], or "" past its end.
func wordAt(w []string, i int) string {
	if i < len(w) {
		return w[i]
	}
	return ""
}

// yearOf is the year s names, 0 for none.
func yearOf(s string) int {
	if v, err := strconv.Atoi(s); err == nil && v >= 1970 && v <= 2200 {
		return v
	}
	return 0
}

// ordinal says whether a day's number is written as one: "3rd".
func ordinal(s string) bool {
	return len(s) > 2 && s[0] >= '0' && s[0] <= '9' && slices.Contains([]string{"st", "nd", "rd", "th"}, s[len(s)-2:])
}

// monthAt reads a month at the start of w, with its year when one follows;
// without, the latest such month not after today's.
func monthAt(w []string, day time.Time) (Span, int) {
	m := months[w[0]]
	if m == 0 {
		return Span{}, 0
	}
	year, n := day.Year(), 1
	if m > day.Month() {
		year--
	}
	if y := yearOf(wordAt(w, 1)); y > 0 {
		year, n = y, 2
	}
	start := time.Date(year, m, 1, 0, 0, 0, 0, time.UTC)
	return Span{start, start.AddDate(0, 1, -1)}, n
}

// daysBack is how many days ago the latest weekday before day was: 1 to 7.
func daysBack(day time.Time, weekday time.Weekday) int {
	return cmp.Or((int(day.Weekday())-int(weekday)+7)%7, 7)
}

// vagueWord says w tells that something was done, not what: with a time,
// "what did we work on last week?" and "what did I miss last week?" ask
// for all of it.
func vagueWord(w string) bool {
	switch w {
	case "happen", "happened", "work", "worked", "working", "thing", "things", "stuff", "change", "changed",
		"changes", "going", "go", "went", "get", "got", "new", "anything", "everything", "something",
		"accomplish", "accomplished", "progress", "recap", "summary", "summarize", "summarise", "update",
		"updates", "team", "day", "days", "week", "weeks", "month", "months", "ago", "since", "during", "busy",
		"miss", "missed":
		return true
	}
	return false
}

// ByDays orders a time's items so the first few cover its days: each
// day's most important item (newest day first), then each day's second,
// and so on; one item per ID. One busy day must not fill the answer.
func ByDays(items []Item) []Item {
	slices.SortStableFunc(items, func(a, b Item) int {
		return cmp.Or(b.Date.Compare(a.Date), b.Importance-a.Importance, strings.Compare(a.ID, b.ID))
	})
	items = slices.CompactFunc(items, func(a, b Item) bool { return a.ID == b.ID })
	var rounds [][]Item // rounds[r]: each day's item r
	r := 0
	for i, it := range items {
		if r++; i == 0 || !it.Date.Equal(items[i-1].Date) {
			r = 0
		}
		if r == len(rounds) {
			rounds = append(rounds, nil)
		}
		rounds[r] = append(rounds[r], it)
	}
	return slices.Concat(rounds...)
}
