//go:build bench

package main

import (
	_ "embed"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// The Clinicflow story (/work/notes/eval-story.md's project, see
// docs/recall.md): its items as the agent recorded them
// (testdata/clinicflow.tsv, written before the questions were read), and
// the routine work and the busy day around them, made from templates with
// the seed.

//go:embed testdata/clinicflow.tsv
var clinicflowTSV string

//go:embed testdata/same-words.tsv
var sameWordsTSV string

// storyItem is one entry the agent recorded about the story.
type storyItem struct {
	key        string // F1, D17, S1-old, S1-new, DL3, W2
	date       time.Time
	tier, imp  int
	tags       string
	keywords   []string
	text       string
	supersedes string // for S-new and DL moves: the key of the entry it overrides
}

// parseTSV splits a tab-separated file into rows of n fields, skipping
// comment lines.
func parseTSV(data string, n int) ([][]string, error) {
	var rows [][]string
	for i, line := range strings.Split(data, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != n {
			return nil, fmt.Errorf("line %d has %d fields, want %d: %q", i+1, len(f), n, line)
		}
		rows = append(rows, f)
	}
	return rows, nil
}

func storyItems() ([]storyItem, error) {
	rows, err := parseTSV(clinicflowTSV, 7)
	if err != nil {
		return nil, fmt.Errorf("clinicflow.tsv: %w", err)
	}
	var items []storyItem
	for _, r := range rows {
		day, err := time.Parse(time.DateOnly, r[1])
		if err != nil {
			return nil, fmt.Errorf("clinicflow.tsv: %s: %w", r[0], err)
		}
		tier, _ := strconv.Atoi(r[2])
		imp, _ := strconv.Atoi(r[3])
		it := storyItem{key: r[0], date: day, tier: tier, imp: imp, tags: r[4], keywords: strings.Split(r[5], ","), text: r[6]}
		if s, ok := strings.CutSuffix(it.key, "-new"); ok {
			it.supersedes = s + "-old"
		}
		if n, ok := strings.CutPrefix(it.key, "DL"); ok && n != "1" {
			prev, _ := strconv.Atoi(n)
			it.supersedes = "DL" + strconv.Itoa(prev-1)
		}
		items = append(items, it)
	}
	return items, nil
}

// The routine work: every working day, on the project's topics, in its
// words; the noise a question finds its answer through.
var routineAreas = []struct{ tag, name string }{
	{"calendar", "clinic calendar view"}, {"booking", "booking flow"}, {"reminders", "appointment reminders"},
	{"invoices", "invoice screen"}, {"admin", "admin screens"}, {"onboarding", "clinic onboarding"},
	{"search", "patient search"}, {"exports", "data exports"}, {"practitioners", "practitioner settings"},
	{"appointments", "appointment list"}, {"email", "email templates"}, {"sms", "SMS sender"},
	{"auth", "login page"}, {"api", "API handlers"}, {"ci", "CI pipeline"}, {"booking-portal", "patient booking portal"},
}

var routineWork = []string{
	"Fixed a bug in the %s: %s",
	"Reviewed a pull request for the %s: %s",
	"Refactored the %s; %s",
	"Fixed a flaky test in the %s: %s",
	"Small UI change in the %s: %s",
	"Added tests around the %s: %s",
	"Bumped dependencies used by the %s; %s",
	"Paired with the team on the %s: %s",
}

var routineDetail = []string{
	"an appointment showed the wrong practitioner after a reschedule",
	"the clinic filter was lost when paging",
	"the patient's phone number was not validated",
	"a cancelled appointment still counted in the totals",
	"the date picker skipped the last day of the month",
	"a missing loading state on slow networks",
	"error messages were not translated",
	"a button label overflowed on narrow screens",
	"the empty state now explains what to do next",
	"a query ran once per row instead of once",
	"the clinic's address was shown twice",
	"a timeout was too short on staging",
	"no behaviour change, smaller functions",
	"the tests now use the shared fixtures",
	"two handlers returned different status codes for the same error",
	"the sort order of practitioners was unstable",
}

// routineEntry is one routine entry's text, tags and importance.
func routineEntry(rng *rand.Rand) (text, tags string, imp int) {
	a := routineAreas[rng.IntN(len(routineAreas))]
	text = fmt.Sprintf(routineWork[rng.IntN(len(routineWork))], a.name, routineDetail[rng.IntN(len(routineDetail))]) +
		fmt.Sprintf(" (CF-%d).", 1000+rng.IntN(4000))
	imp = []int{1, 2, 2, 2, 3}[rng.IntN(5)]
	return text, a.tag, imp
}

// The busy day: about forty long entries while exploring and rewriting
// the clinic reports module, most routine, a few of importance 4.
var busyParts = []string{"CSV export", "PDF export", "occupancy statistics", "no-show chart", "revenue chart",
	"report filters", "report permissions", "scheduled report emails", "report caching", "practitioner utilisation table"}

var busySentences = []string{
	"Read through the old reports code: each report builds its own SQL string by hand and none of it is tested.",
	"The query scans every appointment of the clinic since it joined, so large clinics wait several seconds.",
	"Moved the date range into the query itself and bounded it to at most twelve months.",
	"Counted cancelled and no-show appointments separately, as the clinic managers asked in the feedback call.",
	"The numbers now match the spreadsheet the pilot clinic keeps by hand, to the appointment.",
	"Wrote a table test with three fake clinics, one of them in Vienna to check the time zone handling.",
	"The chart library redraws on every filter change; debounced it to 300 ms.",
	"Column names follow the German labels first, with the English ones as the second language.",
	"Large exports now stream row by row instead of building the whole file in memory.",
	"The download button shows progress and can be cancelled; before, a second click started a second export.",
	"Only clinic admins and managers may open the reports; receptionists see a short explanation instead.",
	"Left a note in the pull request about the weekly totals, which still count Sunday as the first day.",
	"Percentages round half up now, so the rows of a table add up to 100 in the cases we tried.",
	"Compared two ways to group by week; the one in SQL is four times faster than grouping in Go.",
	"Removed three report types nobody opened in the last six months, after asking the support team.",
	"Empty months show a zero instead of being left out, so the chart's axis no longer jumps.",
}

// busyEntry is one long entry of the busy day (500 to 600 characters).
func busyEntry(rng *rand.Rand, i int) (text, tags string, imp int) {
	part := busyParts[i%len(busyParts)]
	var b strings.Builder
	b.WriteString("Reports module, " + part + ":")
	for _, j := range rng.Perm(len(busySentences)) {
		s := busySentences[j]
		if b.Len()+1+len(s) > 600 {
			continue
		}
		b.WriteString(" " + s)
		if b.Len() >= 500 {
			break
		}
	}
	imp = 2 + rng.IntN(2)
	if i%10 == 3 {
		imp = 4
	}
	return b.String(), "reports," + strings.ReplaceAll(part, " ", "-"), imp
}
