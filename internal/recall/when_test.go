package recall

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// The times a prompt names, read as the workspace's days, today being a
// Monday.
func TestPromptTime(t *testing.T) {
	today := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC) // a Monday
	d := func(s string) time.Time { t, _ := time.Parse(time.DateOnly, s); return t }
	for _, c := range []struct {
		prompt   string
		from, to string // "" for none
	}{
		{"What did we do yesterday?", "2026-11-29", "2026-11-29"},
		{"what did we do last week", "2026-11-23", "2026-11-29"},
		{"Anything this week on the API?", "2026-11-30", "2026-11-30"},
		{"What changed since Monday?", "2026-11-23", "2026-11-30"},
		{"What changed since Friday?", "2026-11-27", "2026-11-30"},
		{"What changed since Sunday?", "2026-11-29", "2026-11-30"},
		{"What did we decide in March?", "2026-03-01", "2026-03-31"},
		{"What did we decide in December?", "2025-12-01", "2025-12-31"},
		{"Remind me of last month's work", "2026-10-01", "2026-10-31"},
		{"last Monday there was a fix for double bookings", "2026-11-23", "2026-11-23"},
		{"the DB change last Wednesday, what did it add?", "2026-11-25", "2026-11-25"},
		{"What broke on Friday?", "2026-11-27", "2026-11-27"},
		{"what were we working on Monday through Friday last week?", "2026-11-23", "2026-11-29"},
		{"summary of recent work please", "2026-11-23", "2026-11-30"},
		{"what shipped recently", "2026-11-23", "2026-11-30"},
		{"recap of the past week's changes", "2026-11-23", "2026-11-30"},
		{"what changed in the last few days?", "2026-11-23", "2026-11-30"},
		{"anything new in the past couple of days", "2026-11-23", "2026-11-30"},
		{"The picker skips the last day of the month", "", ""},
		{"What is the most recent migration?", "", ""},
		{"How do I center a div in CSS?", "", ""},
		{"May I ask about the login form?", "", ""},
		// Dates written out, months with years, weekdays, "N ago".
		{"What did Caroline do on 25 May, 2022?", "2022-05-25", "2022-05-25"},
		{"the release of 8 May 2023", "2023-05-08", "2023-05-08"},
		{"what happened May 8, 2023 with the cache", "2023-05-08", "2023-05-08"},
		{"the outage on the 3rd of June", "2026-06-03", "2026-06-03"},
		{"what broke on June 3rd?", "2026-06-03", "2026-06-03"},
		{"the 21st of December, 2025 release", "2025-12-21", "2025-12-21"},
		{"the 1st of Dec deploy", "2025-12-01", "2025-12-01"},
		// A day the month does not have is no date, not the days after it.
		{"What broke on 31 February, 2023?", "2023-02-01", "2023-02-28"},
		{"what did we ship on 30 Feb 2024", "2024-02-01", "2024-02-29"},
		{"the 31st of April, what did we ship?", "2026-04-01", "2026-04-30"}, // its month, as above
		{"the leap day, 29 February 2024", "2024-02-29", "2024-02-29"},
		{"keep 2 of May's entries", "", ""},
		{"pick 2 of them for the release", "", ""},
		{"what did we decide in May 2025?", "2025-05-01", "2025-05-31"},
		{"what did we decide in May?", "2026-05-01", "2026-05-31"},
		{"what broke the deploy in October", "2026-10-01", "2026-10-31"},
		{"the deploy change three weeks ago", "2026-11-06", "2026-11-12"},
		{"what did we fix 2 days ago", "2026-11-28", "2026-11-28"},
		{"a month ago we picked a queue", "2026-10-15", "2026-11-14"},
		{"entries of 2026-11", "2026-11-01", "2026-11-30"},
		{"what happened on 2026-11-05", "2026-11-05", "2026-11-05"},
		{"What broke last Friday?", "2026-11-27", "2026-11-27"},
		// Everyday phrasings: parts of a day, the weekend, years, the
		// days up to today, a part of a month.
		{"what did we fix last night?", "2026-11-29", "2026-11-29"},
		{"what did we fix this morning?", "2026-11-30", "2026-11-30"},
		{"what did we do the day before yesterday?", "2026-11-28", "2026-11-28"},
		{"what did we do over the weekend?", "2026-11-28", "2026-11-29"},
		{"what changed since last Tuesday?", "2026-11-24", "2026-11-30"},
		{"what changed since Nov 3?", "2026-11-03", "2026-11-30"},
		{"what changed since 2026-11-05?", "2026-11-05", "2026-11-30"},
		{"what is planned since 2027-01-04?", "2027-01-04", "2027-01-04"}, // a later day is not stretched back
		{"what did we do this year?", "2026-01-01", "2026-11-30"},
		{"what did we do recently, as we said on 3 June?", "2026-06-03", "2026-06-03"},
		{"the weekend before 4th October, 2025", "2025-10-04", "2025-10-04"},
		{"what did we do in the past month?", "2026-10-30", "2026-11-30"},
		{"the cache changes of the last 3 days", "2026-11-27", "2026-11-30"},
		{"what broke in the past couple of weeks?", "2026-11-16", "2026-11-30"},
		{"what happened in early November?", "2026-11-01", "2026-11-30"},
		{"the deploys of mid-October", "2026-10-01", "2026-10-31"},
		// Weeks by name, counts in words, hours, ranges.
		{"what did we do the week before last?", "2026-11-16", "2026-11-22"},
		{"what happened the week of Nov 18?", "2026-11-16", "2026-11-22"},
		{"where was Tim in the second week of November?", "2026-11-01", "2026-11-30"},
		{"what did we do a couple of weeks ago?", "2026-11-13", "2026-11-19"},
		{"what did we decide a couple weeks back about logging?", "2026-11-13", "2026-11-19"},
		{"the fix from 3 days back", "2026-11-27", "2026-11-27"},
		{"we rolled the deploy back", "", ""},
		{"what came out of Tuesday's standup?", "2026-11-24", "2026-11-24"},
		{"the Fridays we deploy", "", ""},
		{"a few hours ago we broke the build", "2026-11-29", "2026-11-30"},
		// "A week or two" spans both; a fortnight is two weeks.
		{"what did we decide a week or two ago?", "2026-11-13", "2026-11-26"},
		{"the cache fix from a day or two ago", "2026-11-28", "2026-11-29"},
		{"a month or two ago we picked a queue", "2026-09-15", "2026-11-14"},
		{"the queue we picked 3 or 2 weeks ago", "2026-11-06", "2026-11-19"}, // either order: both
		{"the fix of two or three days ago", "2026-11-27", "2026-11-28"},
		{"a week or so ago we changed logging", "2026-11-20", "2026-11-26"},
		{"what changed in the past week or two?", "2026-11-23", "2026-11-30"}, // the past week; "or two" are stop words
		{"the logging change of a fortnight ago", "2026-11-09", "2026-11-23"}, // half a unit either side
		{"what did we ship in the past fortnight?", "2026-11-16", "2026-11-30"},
		{"pick one or two of the tests", "", ""},
		{"a week or two of work", "", ""},
		{"what changed in the past 48 hours?", "2026-11-28", "2026-11-30"},
		{"what did we do the other day on caching?", "2026-11-23", "2026-11-30"},
		{"this past weekend, what broke?", "2026-11-28", "2026-11-29"},
		{"what changed since August 11?", "2026-08-11", "2026-11-30"},
		{"from March to May, what did we ship?", "2026-03-01", "2026-05-31"},
		{"Where was John between August 11 and August 15 2023?", "2023-08-11", "2023-08-15"},
		{"between 25 May 2022 and June 2, what did we fix?", "2022-05-25", "2022-06-02"},
		{"what did we ship from November to January?", "2025-11-01", "2026-01-31"},
		{"from 2026-11-03 until 2026-11-10", "2026-11-03", "2026-11-10"},
		{"the email from March about billing", "2026-03-01", "2026-03-31"},
		{"pick between the cache and the queue", "", ""},
		{"what did we do the previous week?", "2026-11-23", "2026-11-29"},
		{"the previous 3 days of deploys", "2026-11-27", "2026-11-30"},
		{"what did we change in the last hour?", "2026-11-29", "2026-11-30"},
		{"recently, as the release of March 8, 2023 showed", "2023-03-08", "2023-03-08"},
		{"what did we do recently, in May 2023?", "2023-05-01", "2023-05-31"},
		{"yesterday, and on May 8", "2026-05-08", "2026-05-08"},
		{"what did we ship last quarter?", "2026-07-01", "2026-09-30"},
		{"the goals for this quarter", "2026-10-01", "2026-11-30"},
		{"what did we ship in Q3?", "2026-07-01", "2026-09-30"},
		{"the Q1 2025 roadmap", "2025-01-01", "2025-03-31"},
		{"what was planned for q4", "2026-10-01", "2026-12-31"},
		{"the q5 numbers", "", ""},
		{"the last day of the month", "", ""},
		{"the last mile of the delivery", "", ""},
		{"review the last 10 commits", "", ""},
	} {
		s, _, ok := PromptTime(c.prompt, today)
		if c.from == "" {
			if ok {
				t.Errorf("%q: span %v, want none", c.prompt, s)
			}
			continue
		}
		if !ok || !s.From.Equal(d(c.from)) || !s.To.Equal(d(c.to)) {
			t.Errorf("%q: span %v..%v (%v), want %s..%s", c.prompt, s.From, s.To, ok, c.from, c.to)
		}
	}
}

// The words of a time are not what the prompt asks of it: the rest is.
func TestPromptTimeRest(t *testing.T) {
	today := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	for prompt, want := range map[string]string{
		"Why did we switch the cache recently?": "why did we switch the cache",
		"What broke the deploy in October?":     "what broke the deploy",
		"What did Caroline do on 25 May, 2022?": "what did caroline do on",
		"what did we do last week?":             "what did we do",
		"the deploy change three weeks ago":     "the deploy change",
		"the outage on the 3rd of June":         "the outage on the",
		"what did we do a couple of weeks ago?": "what did we do",
		"the logging choice two weeks back":     "the logging choice",
		"why did Friday's deploy fail?":         "why did deploy fail",
		"the outage from Nov 3 to Nov 10":       "the outage from",
		"we moved the queue a week or two ago":  "we moved the queue",
	} {
		if _, rest, ok := PromptTime(prompt, today); !ok || rest != want {
			t.Errorf("%q: rest %q (%v), want %q", prompt, rest, ok, want)
		}
	}
	if topicWords("what did we do") != "" || topicWords("what happened") != "" || topicWords("what did the team work on") != "" {
		t.Error("a prompt of only a time and vague words has a topic")
	}
}

// FuzzPromptTime: any prompt reads as no time or as one span that starts
// no later than it ends, and the words left are words of the prompt.
func FuzzPromptTime(f *testing.F) {
	for _, s := range []string{"What did Caroline do on 25 May, 2022?", "since last Tuesday", "3 weeks ago",
		"in October 2023 and recently", "on Monday through Friday last week", "99999999999 years ago",
		"between August 11 and August 15 2023", "from November to January", "a couple of hours ago",
		"a week or two ago", "a day or 9999 ago", "3 weeks or 1 ago"} {
		f.Add(s)
	}
	today := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, prompt string) {
		s, rest, ok := PromptTime(prompt, today)
		if !ok {
			return
		}
		if s.From.After(s.To) {
			t.Fatalf("%q: from %s after to %s", prompt, s.From, s.To)
		}
		words := timeWords(prompt)
		for _, w := range strings.Fields(rest) {
			if !slices.Contains(words, w) {
				t.Fatalf("%q: %q left, not a word of the prompt %q", prompt, w, words)
			}
		}
	})
}
