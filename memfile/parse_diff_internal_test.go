package memfile

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
)

// The parser was rewritten; parse_oracle_internal_test.go keeps the one it
// replaced. Every input we have, and thousands of mutations of them, must
// read the same through both: the same File, warnings, error and damage,
// and the same archive records.

// diffInputs is every memory-file-like text in the repository: the
// golden files, the reliability fixture, the files of the command's
// scripts, the fuzz seeds, and files Render and Maintain write.
// BIMRI_PARSE_EXTRA adds files matching a glob (the protocol seeds).
func diffInputs(t testing.TB) [][]byte {
	var out [][]byte
	globs := []string{"testdata/*", "../reliability/testdata/*.md"}
	if g := os.Getenv("BIMRI_PARSE_EXTRA"); g != "" {
		globs = append(globs, g)
	}
	for _, g := range globs {
		paths, _ := filepath.Glob(g)
		for _, p := range paths {
			if data, err := os.ReadFile(p); err == nil {
				out = append(out, data)
			}
		}
	}
	scripts, _ := filepath.Glob("../cmd/bimri-hook/testdata/script/*.txtar")
	for _, p := range scripts {
		a, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, a.Comment)
		for _, f := range a.Files {
			out = append(out, f.Data)
		}
	}
	if len(out) < 30 {
		t.Fatalf("only %d inputs", len(out))
	}
	for _, s := range []string{
		"", "# BIMRI Memory\n", "\uFEFF# BIMRI Memory\r\n## tier 2\r\n[importance:3] x\r\n",
		"[IMPORTANCE:3] [TIMESTAMP:2026-11-20]\n\nsome text\n# BIMRI Memory\n",
		"# BIMRI Memory\n## Tier 2\n[IMPORTANCE:3] [TIMESTAMP:2026-11-20]\n[_X:1] hi\n",
		"# BIMRI Memory\nnote\r\r\n",
		"<!-- BIMRI v2 | Sessions: 1 -->\n<!-- END BIMRI -->\n\n\n",
		"# BIMRI Memory\n## Tier 2\n- **[IMPORTANCE:3]** [TIMESTAMP:Nov 4, 2026]\n  body\n  more\n- [IMPORTANCE:2] x\n",
		"# BIMRI Memory\n## Tier 3\n- EMERGING (2 obs): a\n**DEVELOPING (3 obs)** b #c\n[CONFIDENCE:ESTABLISHED] d\n",
		"<!-- BIMRI v2 | Last Maintained: YYYY-MM-DD | Session: 3 (x) -->\n# BIMRI Memory\n## Tier 1\n✅ [IMPORTANCE:4] undated\n\x01ESTABLISHED: x\n<!-- END BIMRI -->\n",
		"<!-- BIMRI v2 | Last Maintained: Nov 3, 2026 | Sessions: 03 | Token Est: 1,2 -->\n<!-- Maintenance Due -->\n# bimri memory\n<!--  END   BIMRI  -->\nx\n",
		"# BIMRI Memory\n## Tier 2\n[IMPORTANCE:4/5] [TIMESTAMP:2026-11-02] [WEIGHT:4.50 (floor)] [HOLDS_WITH:ab, Cd] [KEYWORDS:#a #b] s\n",
		"# BIMRI Memory\n## Tier 2\n[IMPORTANCE:3] [TAGS:bug,api,ci,tests] x\n## Tier 3\nEMERGING (2 obs): the bugs\nDEVELOPING (3 obs): apis and bugs\nESTABLISHED: cis tested\n",
		"# BIMRI Memory\n## Tier 3\n[PATTERN:EMERGING] [OBS:7 (since Nov)] [EVIDENCE:a,,b] [FIRST:2026-11-01T00:00:00Z] [TIER:3] [ARCHIVED:2026-11-02] [REASON:x]\n",
	} {
		out = append(out, []byte(s))
	}
	f := New(DefaultConfig())
	for i := range 30 {
		_, _, _ = f.Add(NewEntry{Tier: 1 + i%2, Importance: 1 + i%5, Date: fxDate(i), Text: fmt.Sprintf("entry %d about #tests and deploy", i), Tags: []string{"tests", "deploy"}[i%2:], Agent: []string{"", "codex"}[i%2]})
	}
	out = append(out, Render(f))
	m, _ := Maintain(f, fxDate(40), DefaultConfig(), Options{CountSession: true, Deep: true})
	out = append(out, Render(m))
	return out
}

func fxDate(i int) time.Time { return time.Date(2026, 10, 1+i, 0, 0, 0, 0, time.UTC) }

// parseTokens are what the mutations put into lines: the parser's
// structure, fields, decorations, separators and odd characters.
var parseTokens = []string{
	"[", "]", ":", "[IMPORTANCE:3]", "[importance : 5]", "[TIMESTAMP:2026-11-20]", "[DATE:Nov 4, 2026]", "[TAGS:a,b]", "[TAGS:#x #y]",
	"[KEYWORDS:k]", "[WEIGHT:0.60]", "[WEIGHT:x]", "[ID:abc1]", "[ID:AB_C]", "[AGENT:codex]", "[HOLDS_WITH:abc1]", "[PATTERN:EMERGING]",
	"[CONFIDENCE:developing]", "[OBS:3]", "[OBSERVATIONS:2 (x)]", "[EVIDENCE:abc1,zz]", "[FIRST:2026-11-01]", "[LAST:bad]",
	"[TIER:1]", "[REASON:old]", "[ARCHIVED:2026-11-02]", "[draft]", "[x]", "[ ]", "- ", "* ", "+ ", "1. ", "2) ", "**", "__", "*", "_",
	"✅ ", "🚀", "\u200d", "\ufe0f", "\u0301", "EMERGING (2 obs): ", "**DEVELOPING (3 obs)** ", "ESTABLISHED: ", "Established ",
	"developing [4 observations] ", "#tag", " #tests", ": ", " — ", " – ", " | ", "|", "<!--", "-->", "<!-- Permanent foundational -->",
	"<!-- Maintenance Due: x -->", "<!-- BIMRI v2.0-cc | Last Maintained: 2026-11-28 | Sessions: 4 | Token Est: ~300 -->",
	"<!-- BIMRI v3 | Sessions: 7 (next deep: 20) -->", "# BIMRI Memory", "## Tier 1: Core Intelligence", "## tier 2", "##Tier3",
	"## Tier 4", "<!-- END BIMRI -->", "<!--END BIMRI-->", "#", "##", "###", "\t", "  ", "\r", "\u00a0", "\uFEFF", "é", "\xe9", "\xff",
	"\x00", "\x81\x93\x9d", "ſ", "İ", "0", "4.5", "4,5", "-", "—", "[x]\t", "[X] ", "- [ ] ", "__", "**", "_", "*",
	"__[IMPORTANCE:3] [TIMESTAMP:2026-11-20] bold text__", "**[IMPORTANCE:2]** [TAGS:bug] x**", "[WEIGHT:4]", "[WEIGHT:4.50]",
	"EMERGING (2 obs): bugs bugging the api and apis", "ESTABLISHED: tested tests testing", "Developing (3 obs) the bugs",
}

var (
	fieldInLine = regexp.MustCompile(`\[([^\]:]*):([^\]]*)\]`)
	fieldKeys   = []string{"IMPORTANCE", "importance", " Importance ", "TIMESTAMP", "DATE", "TAGS", "KEYWORDS", "AGENT", "WEIGHT", "ID",
		"HOLDS_WITH", "PATTERN", "CONFIDENCE", "OBSERVATIONS", "OBS", "FIRST", "LAST", "EVIDENCE", "TIER", "ARCHIVED", "REASON",
		"COLOUR", "_X", "TIME STAMP", "", "İD"}
	fieldValues = []string{"", " ", "3", "07", "4.5", "4,5", "4/5", "4 (high)", "-1", "0", "9", "1e3", "x", "2026-11-20", " 2026-11-20 ",
		"2026-11-20T23:59:00Z", "Nov 4, 2026", "20-11-2026", "YYYY-MM-DD", "4.0 (floor)", "4.", ".5", "100", "100.01", "0.60", "a,b",
		"#a #b", "a, ,B", "ab_c", "abc1,ABC2", "abc1,,", "-ab", "EMERGING", "developing", "Established", "sure", "codex", "Codex CLI",
		"a-very-long-agent-name", "~1,200", "3 (next deep: 20)", "é", "[", "]"}
)

// validValues are a value each key takes.
var validValues = map[string][]string{"IMPORTANCE": {"4", "1"}, "TIMESTAMP": {"2026-11-20"}, "DATE": {"2026-11-20"},
	"TAGS": {"tests,bug", "api"}, "KEYWORDS": {"k"}, "AGENT": {"codex"}, "WEIGHT": {"4.0", "4", "40", "0.6", "4.50", "4.00", "4."}, "ID": {"abc1"},
	"HOLDS_WITH": {"abc2"}, "PATTERN": {"EMERGING", "established"}, "CONFIDENCE": {"DEVELOPING"}, "OBS": {"3"}, "OBSERVATIONS": {"3", "7"}, "FIRST": {"2026-11-01"},
	"LAST": {"2026-11-02"}, "EVIDENCE": {"abc1,abc2"}, "TIER": {"1"}, "REASON": {"old"}, "ARCHIVED": {"2026-11-03"}}

// randomTagLine is an entry's or a pattern's tag line, mostly valid.
func randomTagLine(rng *rand.Rand) string {
	keys := []string{"IMPORTANCE", "TIMESTAMP", "TAGS", "KEYWORDS", "AGENT", "WEIGHT", "ID", "HOLDS_WITH", "DATE", "TIER"}
	if rng.IntN(2) == 0 {
		keys = []string{"PATTERN", "OBSERVATIONS", "FIRST", "LAST", "TAGS", "EVIDENCE", "ID", "OBS", "CONFIDENCE", "ARCHIVED"}
	}
	var b strings.Builder
	b.WriteString([]string{"", "- ", "**", "✅ ", "1. ", "[ ] "}[rng.IntN(6)])
	for k, key := range keys {
		if k > 0 && rng.IntN(3) > 0 {
			continue
		}
		val := validValues[key][rng.IntN(len(validValues[key]))]
		switch rng.IntN(6) {
		case 0:
			val = fieldValues[rng.IntN(len(fieldValues))]
		case 1:
			key = fieldKeys[rng.IntN(len(fieldKeys))]
		}
		fmt.Fprintf(&b, "[%s:%s]%s", key, val, []string{" ", "", "** ", "  "}[rng.IntN(4)])
	}
	b.WriteString([]string{"", "text", ": text", "** text", "— x #tests", "| the bugs"}[rng.IntN(6)])
	return b.String()
}

// mutate changes a few lines of data at random.
func mutate(rng *rand.Rand, data []byte, pool []string) []byte {
	lines := strings.Split(string(data), "\n")
	for range 1 + rng.IntN(4) {
		if len(lines) == 0 {
			lines = []string{""}
		}
		i := rng.IntN(len(lines))
		switch rng.IntN(14) {
		case 0: // drop
			lines = append(lines[:i], lines[i+1:]...)
		case 1: // swap
			j := rng.IntN(len(lines))
			lines[i], lines[j] = lines[j], lines[i]
		case 2: // duplicate
			lines = append(lines[:i+1], lines[i:]...)
		case 3: // a line from elsewhere
			lines = append(lines[:i], append([]string{pool[rng.IntN(len(pool))]}, lines[i:]...)...)
		case 4: // blank line
			lines = append(lines[:i], append([]string{strings.Repeat(" ", rng.IntN(2))}, lines[i:]...)...)
		case 5, 6: // a token into the line
			l := lines[i]
			k := 0
			if l != "" {
				k = rng.IntN(len(l) + 1)
			}
			lines[i] = l[:k] + parseTokens[rng.IntN(len(parseTokens))] + l[k:]
		case 7: // cut part of the line
			if l := lines[i]; l != "" {
				a := rng.IntN(len(l))
				b := a + rng.IntN(min(len(l)-a, 8)+1)
				lines[i] = l[:a] + l[b:]
			}
		case 8: // odd whitespace or case
			switch rng.IntN(4) {
			case 0:
				lines[i] = "  " + lines[i] + " \t"
			case 1:
				lines[i] = strings.ToLower(lines[i])
			case 2:
				lines[i] = strings.ToUpper(lines[i])
			default:
				lines[i] += "\r"
			}
		case 10, 11: // another value or key in a field
			if m := fieldInLine.FindAllStringSubmatchIndex(lines[i], -1); m != nil {
				k := m[rng.IntN(len(m))]
				l := lines[i]
				if rng.IntN(3) == 0 {
					lines[i] = l[:k[2]] + fieldKeys[rng.IntN(len(fieldKeys))] + l[k[3]:]
				} else {
					lines[i] = l[:k[4]] + fieldValues[rng.IntN(len(fieldValues))] + l[k[5]:]
				}
			}
		case 12, 13: // a tag line of random fields
			lines = append(lines[:i], append([]string{randomTagLine(rng)}, lines[i:]...)...)
		case 9: // a token alone on a line
			lines = append(lines[:i], append([]string{parseTokens[rng.IntN(len(parseTokens))]}, lines[i:]...)...)
		}
	}
	out := strings.Join(lines, "\n")
	if rng.IntN(20) == 0 {
		out = strings.ReplaceAll(out, "\n", "\r\n")
	}
	return []byte(out)
}

// sameParse fails when the two parsers read data differently.
func sameParse(t testing.TB, data []byte) {
	t.Helper()
	f1, w1, err1 := Parse(data)
	f2, w2, err2 := oldParse(data)
	if fmt.Sprint(err1) != fmt.Sprint(err2) || !reflect.DeepEqual(f1, f2) || !reflect.DeepEqual(w1, w2) {
		if f1 != nil && f2 != nil && !bytes.Equal(Render(f1), Render(f2)) {
			t.Errorf("renders differ on %q:\nnew:\n%s\nold:\n%s", data, Render(f1), Render(f2))
		}
		t.Fatalf("Parse differs on %q:\nerr %v / %v\nwarnings %v\n     old %v\nfile %+v\n old %+v", data, err1, err2, w1, w2, f1, f2)
	}
	s1, v1, d1, e1 := ParseStored(data)
	s2, v2, d2, e2 := oldParseStored(data)
	if fmt.Sprint(e1) != fmt.Sprint(e2) || !reflect.DeepEqual(s1, s2) || !reflect.DeepEqual(v1, v2) || d1.Decoded != d2.Decoded || d1.Cut != d2.Cut {
		t.Fatalf("ParseStored differs on %q:\n%v %v %+v\n%v %v %+v", data, e1, v1, d1, e2, v2, d2)
	}
	r1, a1 := ParseArchive(data)
	r2, a2 := oldParseArchive(data)
	if !reflect.DeepEqual(r1, r2) || !reflect.DeepEqual(a1, a2) {
		t.Fatalf("ParseArchive differs on %q:\n%+v %v\n%+v %v", data, r1, a1, r2, a2)
	}
}

func TestParseMatchesOracle(t *testing.T) {
	inputs := diffInputs(t)
	var pool []string
	for _, in := range inputs {
		sameParse(t, in)
		pool = append(pool, strings.Split(string(in), "\n")...)
	}
	n := 6000
	if testing.Short() {
		n = 1000
	}
	rng := rand.New(rand.NewPCG(31, 32))
	for i := range n {
		data := inputs[rng.IntN(len(inputs))]
		for range 1 + rng.IntN(3) {
			data = mutate(rng, data, pool)
		}
		if !t.Run("", func(t *testing.T) { sameParse(t, data) }) {
			t.Fatalf("mutation %d", i)
		}
	}
}

// FuzzParseMatchesOracle starts from the small inputs only: with the
// golden files among its seeds the fuzzer ran a few inputs in 20 s, with
// these about 20,000 (TestParseMatchesOracle reads the large ones).
func FuzzParseMatchesOracle(f *testing.F) {
	for _, in := range diffInputs(f) {
		if len(in) < 600 {
			f.Add(in)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) { sameParse(t, data) })
}
