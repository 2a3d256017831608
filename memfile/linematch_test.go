package memfile

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The expressions the matchers replaced, kept here as their definition.
var (
	headerRegexp   = regexp.MustCompile(`^<!--\s*BIMRI\s+v?([^\s|]*)\s*\|(.*?)-->$`)
	tierRegexp     = regexp.MustCompile(`^##\s*tier\s*([123])\b`)
	listMarkRegexp = regexp.MustCompile(`^(?:[-*+]|\d+[.)])\s+`)
)

// checkLineMatchers reports where a matcher and its expression disagree
// on s.
func checkLineMatchers(t *testing.T, s string) {
	t.Helper()
	if got, want := matchHeader(s), headerRegexp.FindStringSubmatch(s); !slices.Equal(got, want) {
		t.Errorf("matchHeader(%q) = %q, the regexp gives %q", s, got, want)
	}
	if got, want := matchTier(s), tierRegexp.FindStringSubmatch(s); !slices.Equal(got, want) {
		t.Errorf("matchTier(%q) = %q, the regexp gives %q", s, got, want)
	}
	if got, want := stripListMark(s), listMarkRegexp.ReplaceAllString(s, ""); got != want {
		t.Errorf("stripListMark(%q) = %q, the regexp gives %q", s, got, want)
	}
}

var lineMatcherSeeds = []string{
	"",
	"<!-- BIMRI v4.0 | Last Maintained: 2026-11-29 | Sessions: 12 -->",
	"<!--BIMRI 4|-->",
	"<!-- BIMRI v | x -->",
	"<!-- BIMRI vv4 | a -->",
	"<!-- BIMRI v4.0 x | a -->",
	"<!-- BIMRI\tv4.0\t|\ta\t-->",
	"<!-- BIMRI v4 | a\nb -->",
	"<!-- BIMRI v4 | a --> ",
	"<!-- BIMRI v4 |-->-->",
	"<!-- BIMRI v4 |->",
	"<!-- BIMRI\vv4 | a -->",
	"<!-- BIMRIv4 | a -->",
	"<!-- bimri v4 | a -->",
	"<!-- BIMRI v4é\xff | \xfe -->",
	"## tier 1: core intelligence",
	"##tier2",
	"## tier 3x",
	"## tier 3_",
	"## tier 3é",
	"## tier 3-a",
	"## tier\n\t 2",
	"## tier 4",
	"## tier\v1",
	"### tier 1",
	"## tiers 1",
	"- entry",
	"* entry",
	"+ entry",
	"-entry",
	"--  entry",
	"12. entry",
	"3) entry",
	"3.entry",
	".  entry",
	"1.\t\n entry",
	"- ",
	"-\v entry",
	"١. arabic-indic digit",
}

// TestLineMatchersAgreeWithRegexps: on every line of the testdata, its
// lower-cased and trimmed forms, the seeds and random lines built from
// the pieces the expressions care about, each matcher gives what its
// expression gives.
func TestLineMatchersAgreeWithRegexps(t *testing.T) {
	lines := slices.Clone(lineMatcherSeeds)
	files, err := filepath.Glob(filepath.Join("testdata", "*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			continue // a folder
		}
		for _, l := range strings.Split(string(data), "\n") {
			lines = append(lines, l, strings.TrimSpace(l), strings.ToLower(strings.TrimSpace(l)))
		}
	}
	rng := rand.New(rand.NewPCG(14, 2026))
	pieces := []string{"<!--", "-->", "->", "BIMRI", "bimri", "v", "4.0", "|", " ", "\t", "\n", "\v", "\r", "\f", "##", "#", "tier", "1", "2", "3", "4", "9", "_", "x", "é", "\xff", "-", "*", "+", ".", ")", ":", "\u00a0"}
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		lines = append(lines, b.String())
	}
	// Lines shaped like a header, a tier heading or an item, each part
	// sometimes swapped for a random piece, so matches and near misses
	// are both common.
	shapes := [][][]string{
		{{"<!--"}, {"", " ", "  ", "\t"}, {"BIMRI"}, {" ", "\t ", ""}, {"v", "", "vv"}, {"4.0", "", "4 x", "é"}, {"", " ", "\n"}, {"|"}, {"", " Last Maintained: 2026-11-29 ", "a|b", "\n", "-->"}, {"-->"}, {"", " ", "\n"}},
		{{"##", "###", "#"}, {"", " ", "\t\n"}, {"tier", "tiers"}, {"", " ", "\r"}, {"1", "2", "3", "4"}, {"", ":", "x", "_", "é", " core"}},
		{{"-", "*", "+", "12.", "3)", "7", "."}, {" ", "", "\t\t", "\v"}, {"entry", "", "- nested"}},
	}
	matched := 0
	for range 20000 {
		var b strings.Builder
		for _, slot := range shapes[rng.IntN(len(shapes))] {
			if rng.IntN(10) == 0 {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			} else {
				b.WriteString(slot[rng.IntN(len(slot))])
			}
		}
		l := b.String()
		if matchHeader(l) != nil || matchTier(l) != nil || listMarkEnd(l) > 0 {
			matched++
		}
		lines = append(lines, l)
	}
	if matched < 2000 {
		t.Fatalf("only %d of the shaped lines match: the generator no longer tests matches", matched)
	}
	for _, l := range lines {
		checkLineMatchers(t, l)
		if t.Failed() {
			return
		}
	}
}

func FuzzLineMatchers(f *testing.F) {
	for _, s := range lineMatcherSeeds {
		f.Add(s)
	}
	f.Fuzz(checkLineMatchers)
}
