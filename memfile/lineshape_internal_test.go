package memfile

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// The fixed-shape lines are read by plain string code; the parser before
// it read them with regular expressions, kept in the oracle
// (parse_oracle_internal_test.go). Both must read every line alike.
func TestLineShapesMatchTheirPatterns(t *testing.T) {
	pieces := []string{"<!--", "-->", "<!-- ", "BIMRI", "bimri", "v", "2.0-cc", "|", " | ", ":", "Sessions: 3", " ", "\t", "\u00a0",
		"##", "#", "tier", "TIER", "Tier", "1", "2", "3", "4", "12", "x", "_", "é", "-", "*", "+", ".", ")", "(", "[", "]",
		"Permanent foundational", "Only IMPORTANCE", "EMERGING (", "Derived behavioral", "\r", "\n"}
	rng := rand.New(rand.NewPCG(1, 2))
	lines := []string{"", "<!-- BIMRI v2.0-cc | Last Maintained: 2026-11-29 | Sessions: 42 | Token Est: ~5836 -->",
		"<!-- BIMRI | x -->", "<!--BIMRI v|-->", "<!-- BIMRI v -->", "## Tier 2: Active Context", "##tier3", "## tier 2x", "## Tier 2_",
		"- item", "12. item", "3) x", "-x", "1.", "+\t", "<!-- Only IMPORTANCE:4 -->"}
	for range 200000 {
		var b strings.Builder
		for range rng.IntN(8) + 1 {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		lines = append(lines, b.String())
	}
	for _, l := range lines {
		m := oldHeaderPattern().FindStringSubmatch(l)
		version, fields, ok := headerParts(l)
		if ok != (m != nil) || ok && (version != m[1] || fields != m[2]) {
			t.Fatalf("headerParts(%q) = %q, %q, %v; the pattern: %q", l, version, fields, ok, m)
		}
		n := 0
		if strings.HasPrefix(l, "##") && oldTierPattern().MatchString(strings.ToLower(l)) {
			n = int(l[strings.IndexAny(l, "123")] - '0')
		}
		if got := tierHeading(l); got != n {
			t.Fatalf("tierHeading(%q) = %d, the pattern %d", l, got, n)
		}
		rest := l
		if m := oldListMarkPattern().FindStringIndex(l); m != nil {
			rest = l[m[1]:]
		}
		if got, ok := cutListMark(l); got != rest || ok != (rest != l) {
			t.Fatalf("cutListMark(%q) = %q, %v; the pattern %q", l, got, ok, rest)
		}
		if got := isTemplateComment(l); got != oldIsTemplateComment(l) {
			t.Fatalf("isTemplateComment(%q) = %v", l, got)
		}
	}
}
