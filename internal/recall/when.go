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

// fixedTimes are the phrases that name the same days whatever today's
// weekday: the first and the last, as days before today.
var fixedTimes = map[string][2]int{"today": {0, 0}, "tonight": {0, 0}, "this morning": {0, 0},
	"this afternoon": {0, 0}, "this evening": {0, 0}, "yesterday": {1, 1}, "last night": {1, 1},
	"day before yesterday": {2, 2}, "recently": {7, 0}, "lately": {7, 0}, "recent work": {7, 0},
	"recent changes": {7, 0}, "recent days": {7, 0}, "last few days": {7, 0}, "past few days": {7, 0},
	"last couple of days": {7, 0}, "past couple of days": {7, 0}, "the other day": {7, 0}} // a few days are the past week

// counts are the number words "N weeks ago" may use.
var counts = map[string]int{
	"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
	"eight": 8, "nine": 9, "ten": 10, "few": 3, "couple": 2, "several": 3,
}

// PromptTime is the time prompt names relative to today, and the prompt's
// words outside the phrases naming it; ok is false when it names none. Of
// two times a date written out is the answer ("recently, as we said on 3
// June" is 3 June), else the wider: "on Monday through Friday last week"
// is last week.
func PromptTime(prompt string, today time.Time) (s Span, rest string, ok bool) {
	words := timeWords(prompt)
	day := time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, time.UTC)
	used, dated := make([]bool, len(words)), false
	for i := 0; i < len(words); i++ {
		t, n := spanAt(words[i:], day)
		if n == 0 {
			continue
		}
		t, n = rangeAt(words, i, t, n, day)
		for j := i; j < i+n; j++ {
			used[j] = true
		}
		if (words[i] == "since" || i > 0 && words[i-1] == "since") && !t.From.After(day) {
			t.To = day // "since Friday", "since Nov 3", "since last Tuesday": to today
		}
		_, isDate := dateAt(words[i:], day)
		if isDate == 0 && n > 1 { // "since August 11", "in May 2023": a date after its preposition
			_, isDate = dateAt(words[i+1:], day)
		}
		if !ok || isDate > 0 && !dated || (isDate > 0) == dated && t.days() > s.days() {
			s, ok, dated = t, true, isDate > 0
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

// rangeAt reads the end of a range whose start, a, words[i:i+n] name
// ("between March and May", "from Nov 3 to Nov 10"): from a's first day
// to the end's last. An end without a year is the first after a's start,
// a start without one the latest before the end's, and a range past
// today is the year before's.
func rangeAt(words []string, i int, a Span, n int, day time.Time) (Span, int) {
	rest, opens := words[min(i+n+1, len(words)):], []string{"between", "from"}
	if !slices.Contains(opens, words[i]) && !slices.Contains(opens, words[max(i-1, 0)]) ||
		!slices.Contains([]string{"and", "to", "through", "until"}, wordAt(words, i+n)) {
		return a, n
	}
	end := func(ref time.Time) (Span, int) {
		if s, m := dateAt(rest, ref); m > 0 || len(rest) == 0 {
			return s, m
		}
		return monthAt(rest, ref)
	}
	b, m := end(day)
	switch endYear, startYear := hasYear(rest[:m]), hasYear(words[i:i+n]); {
	case m == 0:
		return a, n
	case endYear && !startYear:
		if s, k := spanAt(words[i:], b.To); k == n {
			a = s
		}
	case !endYear:
		if b, _ = end(a.From.AddDate(1, 0, -1)); b.To.After(day) && !startYear {
			a.From, b.To = a.From.AddDate(-1, 0, 0), b.To.AddDate(-1, 0, 0)
		}
	}
	if b.To.Before(a.From) {
		return a, n
	}
	return Span{a.From, b.To}, n + 1 + m
}

// hasYear says whether the words of a time write its year.
func hasYear(w []string) bool {
	return slices.ContainsFunc(w, func(s string) bool { return yearOf(s) > 0 || len(s) >= 7 && s[4] == '-' && yearOf(s[:4]) > 0 })
}

// timeWords are a prompt's lower-case words, a date's dashes kept.
func timeWords(prompt string) []string {
	return strings.FieldsFunc(strings.ReplaceAll(strings.ToLower(prompt), "mid-", "mid "), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-')
	})
}

// spanAt is the time the words w start with, today being day, and how
// many words name it (0: none).
func spanAt(w []string, day time.Time) (Span, int) {
	if s, n := dateAt(w, day); n > 0 {
		return s, n
	}
	var buf [24]byte // the phrase, on the stack: this runs at every word of every prompt
	key := buf[:0]
	for n := 0; n < min(4, len(w)) && len(key)+1+len(w[n]) <= len(buf); n++ {
		key = append(append(key, ' '), w[n]...)
		if back, ok := fixedTimes[string(key[1:])]; ok { // no phrase begins another
			return Span{day.AddDate(0, 0, -back[0]), day.AddDate(0, 0, -back[1])}, n + 1
		}
	}
	monday, first, next := mondayOf(day), wordAt(w, 0), wordAt(w, 1)
	weekday, isWeekday := weekdays[next]
	switch d, ok := weekdays[first]; {
	case first == "previous": // "the previous week" is last week
		first = "last"
	case ok && next == "s": // "Friday's deploy" was on Friday
		first, weekday, isWeekday = "on", d, true
	}
	switch {
	case first == "last" && next == "week":
		return Span{monday.AddDate(0, 0, -7), monday.AddDate(0, 0, -1)}, 2
	case first == "this" && next == "week":
		return Span{monday, day}, 2
	case first == "week" && next == "before" && wordAt(w, 2) == "last": // "the week before last"
		return Span{monday.AddDate(0, 0, -14), monday.AddDate(0, 0, -8)}, 3
	case first == "week" && next == "of": // "the week of Nov 16": its Monday to its Sunday
		if s, n := dateAt(w[2:], day); n > 0 && s.days() == 0 {
			return Span{mondayOf(s.From), mondayOf(s.From).AddDate(0, 0, 6)}, n + 2
		}
	case first == "last" && next == "weekend", first == "past" && next == "weekend",
		first == "over" && next == "the" && wordAt(w, 2) == "weekend": // the latest whole one
		return Span{monday.AddDate(0, 0, -2), monday.AddDate(0, 0, -1)}, slices.Index(w, "weekend") + 1
	case first == "last" && next == "month":
		start := time.Date(day.Year(), day.Month(), 1, 0, 0, 0, 0, time.UTC)
		return Span{start.AddDate(0, -1, 0), start.AddDate(0, 0, -1)}, 2
	case first == "this" && next == "month":
		return Span{time.Date(day.Year(), day.Month(), 1, 0, 0, 0, 0, time.UTC), day}, 2
	case first == "last" && next == "year":
		return Span{time.Date(day.Year()-1, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(day.Year()-1, 12, 31, 0, 0, 0, 0, time.UTC)}, 2
	case first == "this" && next == "year":
		return Span{time.Date(day.Year(), 1, 1, 0, 0, 0, 0, time.UTC), day}, 2
	case slices.Contains([]string{"last", "on", "this", "past", "since"}, first) && isWeekday:
		// "last Wednesday", "on Friday": that day, the latest before today.
		d := day.AddDate(0, 0, -daysBack(day, weekday))
		return Span{d, d}, 2
	case slices.Contains([]string{"in", "during", "since", "early", "mid", "late", "of", "between", "from"}, first) && months[next] != 0 &&
		(len(next) > 3 || next == "may" && first != "of"): // "2 of May's entries" names no time
		if s, n := dateAt(w[1:], day); n > 0 { // "since August 11"
			return s, n + 1
		}
		if s, n := monthAt(w[1:], day); n > 0 { // "in early November", "the first week of November": the month
			return s, n + 1
		}
	}
	if s, n := quarterAt(first, next, day); n > 0 {
		return s, n
	}
	if s, n := trailingAt(w, day); n > 0 {
		return s, n
	}
	return agoAt(w, day)
}

// quarterAt reads "this quarter", "last quarter", "Q3" and "Q3 2025" (a
// quarter without a year is the latest begun) from a phrase's first two
// words.
func quarterAt(first, next string, day time.Time) (Span, int) {
	named := len(first) == 2 && first[0] == 'q' && first[1] >= '1' && first[1] <= '4' // "q3"
	if !named && (next != "quarter" || first != "this" && first != "last") {
		return Span{}, 0 // most words: nothing built, as this runs at every word
	}
	start, n := time.Date(day.Year(), (day.Month()-1)/3*3+1, 1, 0, 0, 0, 0, time.UTC), 1 // this quarter's
	switch {
	case first == "this":
		return Span{start, day}, 2
	case first == "last":
		return Span{start.AddDate(0, -3, 0), start.AddDate(0, 0, -1)}, 2
	}
	start = time.Date(day.Year(), time.Month(first[1]-'1')*3+1, 1, 0, 0, 0, 0, time.UTC)
	if y := yearOf(next); y > 0 {
		start, n = start.AddDate(y-day.Year(), 0, 0), 2
	} else if start.After(day) {
		start = start.AddDate(-1, 0, 0)
	}
	return Span{start, start.AddDate(0, 3, -1)}, n
}

// trailingAt reads "the past week", "the past month", "the last 3 days",
// "the past couple of weeks": the days from that long ago to today;
// "last week" and "last month" are calendar ones (spanAt).
func trailingAt(w []string, day time.Time) (Span, int) {
	n, at := 1, 1
	if c, ok := countOf(wordAt(w, 1)); ok {
		n, at = c, 2
	}
	if wordAt(w, at) == "of" {
		at++
	}
	from, ok := unitsBack(day, n, wordAt(w, at))
	if first := wordAt(w, 0); !ok || first != "past" && (first != "last" && first != "previous" || at == 1 && !strings.HasPrefix(wordAt(w, at), "hour")) {
		return Span{}, 0
	}
	return Span{from, day}, at + 1
}

// agoAt reads "N days/weeks/months/years ago" (or "back") as the day, or
// for the longer units the days around then, half a unit either side;
// "N hours ago" as the days from then to today; "a week or two ago", the
// days of both, as "2 or 3 weeks ago" ("a week or so ago": a week ago).
func agoAt(w []string, day time.Time) (Span, int) {
	n, ok := countOf(wordAt(w, 0))
	m, at := n, 1
	if c, many := counts[wordAt(w, 1)]; (w[0] == "a" || w[0] == "an") && many && c > 1 { // "a few", "a couple"
		n, m, at = c, c, 2
	} else if c, more := countOf(wordAt(w, 2)); wordAt(w, 1) == "or" && more { // "2 or 3 weeks ago"
		n, m, at = min(n, c), max(n, c), 3
	}
	if wordAt(w, at) == "of" {
		at++
	}
	unit, end := wordAt(w, at), at+1
	if c, more := countOf(wordAt(w, end+1)); wordAt(w, end) == "or" && (more || wordAt(w, end+1) == "so") {
		m, end = max(m, c), end+2 // "or two": the larger; "or so": the one
	}
	newest, known := unitsBack(day, n, unit)
	if back := wordAt(w, end); !ok || !known || back != "ago" && back != "back" {
		return Span{}, 0
	}
	oldest, _ := unitsBack(day, m, unit)
	if strings.HasPrefix(unit, "hour") {
		return Span{oldest, day}, end + 1
	}
	before, _ := unitsBack(newest, 1, unit)
	half := (dayNumber(newest) - dayNumber(before)) / 2
	return Span{oldest.AddDate(0, 0, -half), newest.AddDate(0, 0, half)}, end + 1
}

// countOf is the number a word says: "3", "three", "a few".
func countOf(s string) (int, bool) {
	if v := number(s); v > 0 && v < 1000 {
		return v, true
	}
	n, ok := counts[s]
	return n, ok
}

// unitsBack is the day n days (weeks, months, years) before day; n hours
// before reach back whole days, at least to yesterday.
func unitsBack(day time.Time, n int, unit string) (time.Time, bool) {
	switch strings.TrimSuffix(unit, "s") {
	case "hour":
		return day.AddDate(0, 0, -(n+23)/24), true
	case "day":
		return day.AddDate(0, 0, -n), true
	case "week":
		return day.AddDate(0, 0, -7*n), true
	case "fortnight":
		return day.AddDate(0, 0, -14*n), true
	case "month":
		return day.AddDate(0, -n, 0), true
	case "year":
		return day.AddDate(-n, 0, 0), true
	}
	return time.Time{}, false
}

// dateAt reads a date at the start of w: "25 May, 2022", "May 8, 2023",
// "June 3rd", "3rd of June" (by "of" only an ordinal), "2026-11-05",
// "2026-11", "May 2023". A day without a year is the latest not after today.
func dateAt(w []string, day time.Time) (Span, int) {
	if len(w) > 0 && number(w[0][:min(4, len(w[0]))]) >= 0 { // a year first: "2026-11-05", "2026-11"
		if t, err := time.Parse(time.DateOnly, w[0]); err == nil {
			return Span{t, t}, 1
		}
		if t, err := time.Parse("2006-01", w[0]); err == nil {
			return Span{t, t.AddDate(0, 1, -1)}, 1
		}
	}
	dayOf := func(s string) int { // 0 for none
		if v := number(strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(s, "st"), "nd"), "rd"), "th")); v >= 1 && v <= 31 {
			return v
		}
		return 0
	}
	on := func(y int, m time.Month, d, n int) (Span, int) {
		if y != 0 {
			n++
		} else if y = day.Year(); time.Date(y, m, d, 0, 0, 0, 0, time.UTC).After(day) {
			y--
		}
		if t := time.Date(y, m, d, 0, 0, 0, 0, time.UTC); t.Day() == d { // 31 February is no day
			return Span{t, t}, n
		}
		return Span{}, 0
	}
	dayFirst := dayOf(wordAt(w, 0))
	if dayFirst > 0 && months[wordAt(w, 1)] != 0 {
		return on(yearOf(wordAt(w, 2)), months[wordAt(w, 1)], dayFirst, 2) // "25 May, 2022"
	}
	if dayFirst > 0 && number(wordAt(w, 0)) < 0 && wordAt(w, 1) == "of" && months[wordAt(w, 2)] != 0 { // an ordinal
		return on(yearOf(wordAt(w, 3)), months[wordAt(w, 2)], dayFirst, 3) // "the 3rd of June"
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
	if v := number(s); v >= 1970 && v <= 2200 {
		return v
	}
	return 0
}

// number is the value of s when it is one to four digits, else -1:
// strconv would build an error for each other word of every prompt.
func number(s string) int {
	if len(s) == 0 || len(s) > 4 || strings.Trim(s, "0123456789") != "" {
		return -1
	}
	v, _ := strconv.Atoi(s)
	return v
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

// mondayOf is the Monday of day's week, weeks running Monday to Sunday.
func mondayOf(day time.Time) time.Time {
	return day.AddDate(0, 0, -((int(day.Weekday()) + 6) % 7))
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
