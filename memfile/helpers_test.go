package memfile_test

// Helpers shared by the memfile tests. Their names start with fx so they
// cannot collide with helpers other test files of the package may define.

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
)

// fxToday is the fixed "today" of every test that needs one.
var fxToday = time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)

// fxDay reads YYYY-MM-DD or panics.
func fxDay(s string) time.Time {
	d, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return d
}

// fxAgo is the date n days before fxToday, as YYYY-MM-DD.
func fxAgo(n int) string {
	return fxToday.AddDate(0, 0, -n).Format("2006-01-02")
}

const fxHeader = "<!-- BIMRI v2.0-cc | Last Maintained: 2026-11-28 | Sessions: 4 | Token Est: ~300 -->\n" +
	"<!-- Maintenance Due: After 10 sessions or when token estimate exceeds 6,000 -->\n"

// fxDoc lays out a file with the protocol's headings around the three
// tiers' bodies (each body is raw text, ending in a newline or empty).
func fxDoc(t1, t2, t3 string) string {
	var b strings.Builder
	b.WriteString(fxHeader)
	b.WriteString("\n# BIMRI Memory\n\n")
	b.WriteString("## Tier 1: Core Intelligence\n\n")
	b.WriteString(t1)
	b.WriteString("\n## Tier 2: Active Context\n\n")
	b.WriteString(t2)
	b.WriteString("\n## Tier 3: Pattern Recognition\n\n")
	b.WriteString(t3)
	b.WriteString("\n<!-- END BIMRI -->\n")
	return b.String()
}

// fxEntry is one entry in the protocol's format: tag line, summary on the
// next line, no ID and no WEIGHT (an agent's first write).
func fxEntry(imp int, date, tags, text string) string {
	return fmt.Sprintf("[IMPORTANCE:%d] [TIMESTAMP:%s] [TAGS:%s]\n%s\n\n", imp, date, tags, text)
}

// fxParse parses s and returns its problems: the warnings that are not
// about a line read leniently (see fxParseAll for those).
func fxParse(tb testing.TB, s string) (*memfile.File, []memfile.Warning) {
	tb.Helper()
	f, w := fxParseAll(tb, s)
	return f, fxProblems(w)
}

func fxParseAll(tb testing.TB, s string) (*memfile.File, []memfile.Warning) {
	tb.Helper()
	f, w, err := memfile.Parse([]byte(s))
	if err != nil {
		tb.Fatalf("Parse: %v\n%s", err, s)
	}
	return f, w
}

// fxProblems drops the notices of lines read leniently.
func fxProblems(w []memfile.Warning) []memfile.Warning {
	var out []memfile.Warning
	for _, x := range w {
		if !x.Converted {
			out = append(out, x)
		}
	}
	return out
}

// fxTexts lists the summaries of a tier's entries in file order.
func fxTexts(f *memfile.File, tier int) []string {
	var out []string
	for _, e := range f.Entries(tier) {
		out = append(out, e.Text)
	}
	return out
}

// fxByText finds an entry by its summary in Tier 1 or 2.
func fxByText(f *memfile.File, text string) *memfile.Entry {
	for t := 1; t <= 2; t++ {
		for _, e := range f.Entries(t) {
			if e.Text == text {
				return e
			}
		}
	}
	return nil
}

// fxPatternByTag finds the single-tag pattern for a tag.
func fxPatternByTag(f *memfile.File, tag string) *memfile.Pattern {
	for _, p := range f.Patterns() {
		if len(p.Tags) == 1 && p.Tags[0] == tag {
			return p
		}
	}
	return nil
}

// fxTagPool is the generator's tag vocabulary: fifteen tags, as a real
// project's memory would carry.
var fxTagPool = []string{
	"api", "auth", "build", "ci", "db", "deploy", "docs", "frontend",
	"perf", "refactor", "release", "security", "testing", "ux", "infra",
}

var fxVerbs = []string{"Fixed", "Added", "Reviewed", "Refactored", "Documented", "Measured", "Planned", "Shipped"}
var fxThings = []string{"the login flow", "the CSV export", "the cache layer", "the deploy script", "the rate limiter", "the search page", "the billing job", "the onboarding docs"}

// fxGen writes a deterministic memory file of n entries in the protocol's
// format: a few Tier 1 entries, the rest in Tier 2 with mixed importance,
// dates spread over the 30 days before fxToday and one to three tags from
// fxTagPool. No IDs and no weights, as an agent writes them.
func fxGen(n int) []byte {
	r := rand.New(rand.NewPCG(uint64(n), 42))
	var t1, t2 strings.Builder
	core := min(5, max(1, n/50))
	for i := 0; i < n; i++ {
		imp := 1 + r.IntN(5)
		date := fxAgo(r.IntN(31))
		k := 1 + r.IntN(3)
		tags := make([]string, 0, k)
		for j := 0; j < k; j++ {
			tags = append(tags, fxTagPool[r.IntN(len(fxTagPool))])
		}
		text := fmt.Sprintf("Session %d: %s %s; outcome %d of %d checks passing.",
			i, fxVerbs[r.IntN(len(fxVerbs))], fxThings[r.IntN(len(fxThings))], r.IntN(100), 100)
		if i < core {
			t1.WriteString(fxEntry(4+r.IntN(2), date, strings.Join(tags, ","), text))
			continue
		}
		t2.WriteString(fxEntry(imp, date, strings.Join(tags, ","), text))
	}
	return []byte(fxDoc(t1.String(), t2.String(), ""))
}
