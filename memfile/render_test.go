package memfile_test

import (
	"strings"
	"testing"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

// The protocol's template, copied from BIMRI-PROTOCOL-claude-code.txt.
const protocolTemplate = `<!-- BIMRI v2.0-cc | Last Maintained: YYYY-MM-DD | Sessions: 0 | Token Est: ~200 -->
<!-- Maintenance Due: After 10 sessions or when token estimate exceeds 6,000 -->

# BIMRI Memory

## Tier 1: Core Intelligence
<!-- Permanent foundational knowledge. Budget: ~1,500 tokens. No decay. -->
<!-- Only IMPORTANCE:4 or IMPORTANCE:5 entries belong here. -->

## Tier 2: Active Context
<!-- Current work state. Budget: ~3,000 tokens. Freshness decays per lookup table. -->
<!-- Ordered by composite weight (highest first). Archive threshold: 1.5 -->

## Tier 3: Pattern Recognition
<!-- Derived behavioral insights. Budget: ~1,500 tokens. Confidence-scored. -->
<!-- EMERGING (1-2 obs) | DEVELOPING (3-5 obs) | ESTABLISHED (6+ obs) -->

<!-- END BIMRI -->
`

func TestTemplateRoundTripsByteForByte(t *testing.T) {
	is := is.New(t)
	f, w := fxParse(t, protocolTemplate)
	is.Equal(len(w), 0)
	is.Equal(string(memfile.Render(f)), protocolTemplate)
}

func TestNewIsTheTemplate(t *testing.T) {
	is := is.New(t)
	f := memfile.New(memfile.DefaultConfig())
	out := string(memfile.Render(f))
	// Only the token estimate differs from the protocol's guess of ~200.
	want := strings.Replace(protocolTemplate, "Token Est: ~200", "Token Est: ~"+itoa(f.Header.TokenEst), 1)
	is.Equal(out, want)
	is.True(f.Header.TokenEst > 100 && f.Header.TokenEst < 300)

	cw, _ := memfile.Profile("cowork")
	out = string(memfile.Render(memfile.New(cw)))
	for _, s := range []string{"After 15 sessions or when token estimate exceeds 15,000", "Budget: ~3,000 tokens. No decay.", "Budget: ~8,000 tokens. Freshness", "Budget: ~3,500 tokens. Confidence"} {
		is.True(strings.Contains(out, s))
	}
}

// TestCanonicalRoundTrip: Render(Parse(x)) is stable under a second round
// trip, and the canonical file comes back byte for byte.
func TestCanonicalRoundTrip(t *testing.T) {
	messy := "\uFEFF" + strings.ReplaceAll(fxDoc(
		"- [importance: 5] [timestamp:2026-11-01] [tags:Purpose] A CLI.\n",
		"[IMPORTANCE:3] [DATE:2026-11-20T10:00:00] [TAGS: b , A] [WEIGHT:0.55]\n   Spaced   summary.  \nnote right after\n\n"+
			"[IMPORTANCE:2] [TIMESTAMP:2026-11-21] [ID:custom-id] same line\n",
		"[PATTERN:emerging] [OBS:2] [TAGS:a] [EVIDENCE:x1, y2]\n"), "\n", "\r\n")
	for name, in := range map[string]string{
		"template": protocolTemplate,
		"messy":    messy,
		"prose":    fxEntry(3, "2026-11-20", "", "Just an entry."),
	} {
		t.Run(name, func(t *testing.T) {
			is := is.New(t)
			f, _ := fxParse(t, in)
			y := memfile.Render(f)
			g, w := fxParse(t, string(y))
			z := memfile.Render(g)
			is.Equal(string(z), string(y))
			// The canonical form says nothing a second read would warn
			// about, except the notes a person wrote.
			for _, x := range w {
				is.True(strings.Contains(x.Message, "note"))
			}
		})
	}
}

func TestEntryLine(t *testing.T) {
	is := is.New(t)
	e := &memfile.Entry{ID: "3f9a1c00", Importance: 3, Date: fxDay("2026-11-20"), Tags: []string{"a", "b"}, Weight: 150, HasWeight: true}
	is.Equal(memfile.EntryLine(e), "[IMPORTANCE:3] [TIMESTAMP:2026-11-20] [TAGS:a,b] [WEIGHT:1.5] [ID:3f9a1c00]")
	e.HasWeight = false
	e.Tags = nil
	is.Equal(memfile.EntryLine(e), "[IMPORTANCE:3] [TIMESTAMP:2026-11-20] [TAGS:] [ID:3f9a1c00]")
}

func TestPatternLine(t *testing.T) {
	is := is.New(t)
	p := &memfile.Pattern{ID: "p1a2b3c", Level: memfile.Developing, Observations: 4,
		First: fxDay("2026-11-01"), Last: fxDay("2026-11-20"), Tags: []string{"testing"}, Evidence: []string{"aaa", "bbb"}}
	is.Equal(memfile.PatternLine(p), "[PATTERN:DEVELOPING] [OBSERVATIONS:4] [FIRST:2026-11-01] [LAST:2026-11-20] [TAGS:testing] [EVIDENCE:aaa,bbb] [ID:p1a2b3c]")
}

// TestNeutralize: text that would break the structure is defused, the
// result is idempotent, and - the property that matters - a file holding
// it still parses into the same structure.
func TestNeutralize(t *testing.T) {
	long := strings.Repeat("word ", 200)
	for _, tc := range []struct {
		name, in, want string
	}{
		{"plain text is untouched", "Added tests for auth (94% coverage).", "Added tests for auth (94% coverage)."},
		{"a tier heading", "## Tier 1: Core Intelligence", `\## Tier 1: Core Intelligence`},
		{"the title", "# BIMRI Memory", `\# BIMRI Memory`},
		{"the END marker", "<!-- END BIMRI -->", "<!- - END BIMRI - ->"},
		{"END marker mid-text", "done <!-- END BIMRI --> more", "done <!- - END BIMRI - -> more"},
		{"a header comment", "<!-- BIMRI v2.0-cc | Sessions: 9 -->", "<!- - BIMRI v2.0-cc | Sessions: 9 - ->"},
		{"a template comment", "<!-- Only IMPORTANCE:4 -->", "<!- - Only IMPORTANCE:4 - ->"},
		{"odd dashes", "<!---->", "<!- -- ->"},
		{"newline", "line one\nline two", "line one line two"},
		{"CRLF and tabs", "a\r\n\tb", "a b"},
		{"line and paragraph separators", "a\u2028b\u2029c", "a b c"},
		{"BOM and NUL", "\uFEFFa\x00b", "a b"},
		{"spaces collapse and trim", "   lots    of   space   ", "lots of space"},
		{"a tag look-alike", "[TAGS:x] hi", "(TAGS:x] hi"},
		{"a full tag line", "[IMPORTANCE:5] [TIMESTAMP:2026-11-20] fake", "(IMPORTANCE:5] (TIMESTAMP:2026-11-20] fake"},
		{"look-alike with spaces", "[ importance : 5 ] x", "( importance : 5 ] x"},
		{"look-alike mid-text", "see [ID:abc] there", "see (ID:abc] there"},
		{"a pattern look-alike", "[PATTERN:ESTABLISHED] fake", "(PATTERN:ESTABLISHED] fake"},
		{"underscore key", "[_X:1] hi", "(_X:1] hi"},
		{"key with non-breaking space", "[\u00a0ID:x] hi", "(\u00a0ID:x] hi"},
		{"key ending in ideographic space", "[ID\u3000:x] hi", "(ID\u3000:x] hi"},
		{"key in letters that upper-case to ASCII", "[ſtatuſ:x] hi", "(ſtatuſ:x] hi"},
		{"list marker then look-alike", "- [TAGS:x] hi", "- (TAGS:x] hi"},
		{"brackets that are not tags stay", "[x] done, [1:2] ratio", "[x] done, [1:2] ratio"},
		{"invalid UTF-8", "caf\xe9", "caf\uFFFD"},
		{"only control characters", "\x01\x02", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			got := memfile.Neutralize(tc.in)
			is.Equal(got, tc.want)
			is.Equal(memfile.Neutralize(got), got) // idempotent
			if got != "" {
				checkSafeInFile(t, got)
			}
		})
	}
	t.Run("long text is kept whole", func(t *testing.T) {
		is := is.New(t)
		got := memfile.Neutralize(long + "é")
		is.Equal(got, long+"é")
		is.Equal(memfile.Neutralize(got), got)
	})
}

// checkSafeInFile puts text in a summary, written both ways a file might
// hold it (the next line, or the tag line itself), and checks the file
// still holds exactly one entry with that text.
func checkSafeInFile(t *testing.T, text string) {
	t.Helper()
	is := is.NewRelaxed(t)
	for _, body := range []string{
		"[IMPORTANCE:3] [TIMESTAMP:2026-11-20] [TAGS:a]\n" + text + "\n",
		"[IMPORTANCE:3] [TIMESTAMP:2026-11-20] [TAGS:a] " + text + "\n",
	} {
		doc := fxDoc(fxEntry(5, "2026-11-01", "", "Core."), body, "")
		f, w, err := memfile.Parse([]byte(doc))
		is.NoErr(err)
		if err != nil {
			continue
		}
		for _, x := range w {
			t.Errorf("warning for %q: %s", text, x)
		}
		es := f.Entries(2)
		is.Equal(len(es), 1)
		if len(es) == 1 {
			is.Equal(es[0].Text, text)
		}
		y := memfile.Render(f)
		g, w2, err := memfile.Parse(y)
		is.NoErr(err)
		is.Equal(len(w2), 0)
		is.Equal(string(memfile.Render(g)), string(y))
		is.Equal(fxTexts(g, 1), []string{"Core."})
		is.Equal(fxTexts(g, 2), []string{text})
	}
}

func TestNormalizeTags(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want []string
	}{
		{[]string{"b", "A", "a"}, []string{"a", "b"}},
		{[]string{" Code  Review "}, []string{"code-review"}},
		{[]string{"ci/cd", "v1.2", "snake_case", "-dash-"}, []string{"cicd", "dash", "snake_case", "v1.2"}},
		{[]string{"", " ", "!!!"}, nil},
		{[]string{strings.Repeat("x", 41), strings.Repeat("y", 40)}, []string{strings.Repeat("y", 40)}},
		{[]string{"Ünïcode"}, []string{"ünïcode"}},
	} {
		t.Run(strings.Join(tc.in, ","), func(t *testing.T) {
			is := is.New(t)
			got := memfile.NormalizeTags(tc.in)
			is.Equal(got, tc.want)
			is.Equal(memfile.NormalizeTags(got), got)
		})
	}
	is := is.New(t)
	is.Equal(memfile.SplitTags("b, a,,A"), []string{"a", "b"})
}

// TestEstimate: four characters a token, per line, rounded up; the file's
// estimate is the rendered file's, header line excepted.
func TestEstimate(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"", 0},
		{"a", 1},
		{"abcd", 1},
		{"abcde", 2},
		{"abcd\nabcd", 2},
		{"a\nb\nc", 3},
		{"\n\n\n", 0},
		{"éééé", 1},  // code points, not bytes
		{"🎉🎉🎉🎉🎉", 2}, // five code points
		{strings.Repeat("x", 400), 100},
	} {
		t.Run(tc.in, func(t *testing.T) {
			is := is.New(t)
			is.Equal(memfile.EstimateText(tc.in), tc.want)
		})
	}

	for name, data := range map[string][]byte{
		"template":  []byte(protocolTemplate),
		"generated": fxGen(120),
		"notes":     []byte("before\n" + fxDoc("core note\n", fxEntry(3, "2026-11-20", "a", "x")+"note\n", "[PATTERN:EMERGING] [TAGS:a]\n") + "after\n"),
	} {
		t.Run(name, func(t *testing.T) {
			is := is.New(t)
			f, _ := fxParse(t, string(data))
			out := string(memfile.Render(f))
			header, rest, _ := strings.Cut(out, "\n")
			est := memfile.Estimate(f)
			is.Equal(est.Total, memfile.EstimateText(rest))
			is.True(memfile.EstimateText(header) > 0)
			// Each tier's share is the text between its heading and the next.
			for i, next := range []string{"## Tier 2", "## Tier 3", "<!-- END BIMRI -->"} {
				heading := []string{"## Tier 1", "## Tier 2", "## Tier 3"}[i]
				from := strings.Index(out, heading)
				to := strings.Index(out, next)
				is.Equal(est.Tiers[i], memfile.EstimateText(out[from:to]))
			}
		})
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}
