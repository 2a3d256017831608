package store_test

import (
	"fmt"
	"strings"
	"time"
)

// Fixtures for the black-box tests: a day, and memory files written out
// as text (memfile's tests have the same).

var fxToday = time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)

// fxAgo is the date n days before fxToday, as YYYY-MM-DD.
func fxAgo(n int) string {
	return fxToday.AddDate(0, 0, -n).Format(time.DateOnly)
}

// fxDoc lays out a file with the protocol's headings around the three
// tiers' bodies (each body is raw text, ending in a newline or empty).
func fxDoc(t1, t2, t3 string) string {
	var b strings.Builder
	b.WriteString("<!-- BIMRI v2.0-cc | Last Maintained: 2026-11-28 | Sessions: 4 | Token Est: ~300 -->\n" +
		"<!-- Maintenance Due: After 10 sessions or when token estimate exceeds 6,000 -->\n")
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

// fxEntry is one entry's tag line and text.
func fxEntry(imp int, date, tags, text string) string {
	return fmt.Sprintf("[IMPORTANCE:%d] [TIMESTAMP:%s] [TAGS:%s]\n%s\n\n", imp, date, tags, text)
}
