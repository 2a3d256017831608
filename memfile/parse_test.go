package memfile_test

import (
	"errors"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

// TestParseLenientEntry reads one Tier 2 entry written in each of the ways
// the issue says must load.
func TestParseLenientEntry(t *testing.T) {
	type want struct {
		imp       int
		date      string
		tags      []string
		weight    string // "" when the file gave none
		id        string // "" to skip
		text      string
		lineCount int // lines the entry used
	}
	for _, tc := range []struct {
		name string
		body string
		want want
	}{
		{"protocol form, summary on next line",
			"[IMPORTANCE:3] [TIMESTAMP:2026-11-20] [TAGS:auth,testing] [WEIGHT:0.6]\nAdded tests.\n",
			want{3, "2026-11-20", []string{"auth", "testing"}, "0.6", "", "Added tests.", 2}},
		{"summary on the same line",
			"[IMPORTANCE:3] [TIMESTAMP:2026-11-20] [TAGS:auth] [WEIGHT:0.6] Added tests.\n",
			want{3, "2026-11-20", []string{"auth"}, "0.6", "", "Added tests.", 1}},
		{"spaces inside the brackets",
			"[ IMPORTANCE : 3 ] [TIMESTAMP: 2026-11-20 ] [ TAGS : auth , testing ]\nAdded tests.\n",
			want{3, "2026-11-20", []string{"auth", "testing"}, "", "", "Added tests.", 2}},
		{"lower case keys and tags",
			"[importance:3] [timestamp:2026-11-20] [tags:Auth,TESTING]\nAdded tests.\n",
			want{3, "2026-11-20", []string{"auth", "testing"}, "", "", "Added tests.", 2}},
		{"mixed case keys",
			"[Importance:2] [TimeStamp:2026-11-20] [Tags:x] [Weight:1.6]\nAdded tests.\n",
			want{2, "2026-11-20", []string{"x"}, "1.6", "", "Added tests.", 2}},
		{"no WEIGHT",
			"[IMPORTANCE:3] [TIMESTAMP:2026-11-20] [TAGS:auth]\nAdded tests.\n",
			want{3, "2026-11-20", []string{"auth"}, "", "", "Added tests.", 2}},
		{"no TAGS",
			"[IMPORTANCE:3] [TIMESTAMP:2026-11-20] [WEIGHT:0.6]\nAdded tests.\n",
			want{3, "2026-11-20", nil, "0.6", "", "Added tests.", 2}},
		{"only importance and timestamp, same line",
			"[IMPORTANCE:1] [TIMESTAMP:2026-11-20] Ran lint.\n",
			want{1, "2026-11-20", nil, "", "", "Ran lint.", 1}},
		{"DATE instead of TIMESTAMP",
			"[IMPORTANCE:3] [DATE:2026-11-20]\nAdded tests.\n",
			want{3, "2026-11-20", nil, "", "", "Added tests.", 2}},
		{"timestamp with a time of day",
			"[IMPORTANCE:3] [TIMESTAMP:2026-11-20T23:59:00Z]\nAdded tests.\n",
			want{3, "2026-11-20", nil, "", "", "Added tests.", 2}},
		{"list marker",
			"- [IMPORTANCE:3] [TIMESTAMP:2026-11-20] [TAGS:auth]\nAdded tests.\n",
			want{3, "2026-11-20", []string{"auth"}, "", "", "Added tests.", 2}},
		{"numbered list marker, same line",
			"1. [IMPORTANCE:3] [TIMESTAMP:2026-11-20] Added tests.\n",
			want{3, "2026-11-20", nil, "", "", "Added tests.", 1}},
		{"indented summary",
			"[IMPORTANCE:3] [TIMESTAMP:2026-11-20]\n    Added tests.   \n",
			want{3, "2026-11-20", nil, "", "", "Added tests.", 2}},
		{"explicit ID, any case",
			"[IMPORTANCE:3] [TIMESTAMP:2026-11-20] [ID:AbC123]\nAdded tests.\n",
			want{3, "2026-11-20", nil, "", "abc123", "Added tests.", 2}},
		{"tags with spaces and punctuation",
			"[IMPORTANCE:3] [TIMESTAMP:2026-11-20] [TAGS: Code Review , ci/cd, ,auth!]\nAdded tests.\n",
			want{3, "2026-11-20", []string{"auth", "cicd", "code-review"}, "", "", "Added tests.", 2}},
		{"a bracketed word that is not a field starts the summary",
			"[IMPORTANCE:3] [TIMESTAMP:2026-11-20] [draft] Added tests.\n",
			want{3, "2026-11-20", nil, "", "", "[draft] Added tests.", 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			f, warnings := fxParse(t, fxDoc("", tc.body, ""))
			for _, w := range warnings {
				t.Errorf("unexpected warning: %s", w)
			}
			es := f.Entries(2)
			is.Equal(len(es), 1)
			e := es[0]
			is.Equal(e.Importance, tc.want.imp)
			is.Equal(e.Date, fxDay(tc.want.date))
			is.Equal(e.Tags, tc.want.tags)
			is.Equal(e.Text, tc.want.text)
			is.Equal(e.HasWeight, tc.want.weight != "")
			if tc.want.weight != "" {
				is.Equal(e.Weight.String(), tc.want.weight)
			}
			if tc.want.id != "" {
				is.Equal(e.ID, tc.want.id)
			} else {
				is.Equal(e.ID, memfile.EntryID(e.Date, e.Text))
			}
			// Nothing else became a note.
			is.Equal(len(f.Tiers[1].Blocks), 1)
		})
	}
}

func TestParseCRLF(t *testing.T) {
	is := is.New(t)
	lf := fxDoc(
		fxEntry(5, "2026-11-01", "purpose", "A CLI for invoices."),
		fxEntry(3, "2026-11-20", "auth", "Added tests.")+"a note a person wrote\n",
		"")
	crlf := strings.ReplaceAll(lf, "\n", "\r\n")
	fl, wl := fxParse(t, lf)
	fc, wc := fxParse(t, crlf)
	is.Equal(string(memfile.Render(fc)), string(memfile.Render(fl)))
	is.Equal(wc, wl)
	// No carriage return survives anywhere, not even in the note.
	is.True(!strings.Contains(string(memfile.Render(fc)), "\r"))
}

func TestParseBOM(t *testing.T) {
	is := is.New(t)
	doc := fxDoc("", fxEntry(3, "2026-11-20", "auth", "Added tests."), "")
	f, w := fxParse(t, "\uFEFF"+doc)
	is.Equal(len(w), 0) // the header is recognised, not kept as a note
	is.Equal(f.Header.Sessions, 4)
}

func TestParseMissingHeader(t *testing.T) {
	is := is.New(t)
	doc := fxDoc("", fxEntry(3, "2026-11-20", "auth", "Added tests."), "")
	doc = strings.TrimPrefix(doc, fxHeader)
	f, w := fxParse(t, doc)
	is.Equal(len(f.Entries(2)), 1)
	is.True(hasWarning(w, 0, "no BIMRI header"))
	out := string(memfile.Render(f))
	is.True(strings.HasPrefix(out, "<!-- BIMRI v2.0-cc | Last Maintained: YYYY-MM-DD | Sessions: 0 | Token Est: ~"))
	is.True(strings.Contains(out, "\n<!-- Maintenance Due: After 10 sessions or when token estimate exceeds 6,000 -->\n"))
}

func TestParseOnlyEntries(t *testing.T) {
	// A file with nothing but entries, as a person might start one by
	// hand: the entries load into Tier 2 and the structure is recreated.
	is := is.New(t)
	f, w := fxParse(t, fxEntry(3, "2026-11-20", "auth", "Added tests.")+fxEntry(2, "2026-11-21", "", "Fixed a typo."))
	is.Equal(fxTexts(f, 2), []string{"Added tests.", "Fixed a typo."})
	is.True(hasWarning(w, 1, "moved to Tier 2"))
	is.True(hasWarning(w, 4, "moved to Tier 2"))
	is.True(hasWarning(w, 0, "no BIMRI header"))
	out := string(memfile.Render(f))
	for _, h := range []string{"# BIMRI Memory", "## Tier 1: Core Intelligence", "## Tier 2: Active Context", "## Tier 3: Pattern Recognition", "<!-- END BIMRI -->"} {
		is.True(strings.Contains(out, "\n"+h+"\n"))
	}
}

func TestParseHeader(t *testing.T) {
	is := is.New(t)
	f, _ := fxParse(t, fxDoc("", "", ""))
	is.Equal(f.Header.Version, "2.0-cc")
	is.Equal(f.Header.LastMaintained, fxDay("2026-11-28"))
	is.Equal(f.Header.Sessions, 4)
	is.Equal(f.Header.TokenEst, 300)
	is.Equal(f.Header.DueLine, "<!-- Maintenance Due: After 10 sessions or when token estimate exceeds 6,000 -->")

	// The template's placeholder date and a token estimate with a comma.
	f, _ = fxParse(t, strings.Replace(fxDoc("", "", ""), "Last Maintained: 2026-11-28 | Sessions: 4 | Token Est: ~300",
		"Last Maintained: YYYY-MM-DD | Sessions: 0 | Token Est: ~1,200", 1))
	is.True(f.Header.LastMaintained.IsZero())
	is.Equal(f.Header.TokenEst, 1200)
}

func TestParseBadHeaderKeptAsNote(t *testing.T) {
	is := is.New(t)
	doc := strings.Replace(fxDoc("", "", ""), "Sessions: 4", "Sessions: many", 1)
	f, w := fxParse(t, doc)
	is.True(hasWarning(w, 1, `Sessions "many"`))
	is.Equal(f.Header.Sessions, 0)
	is.True(strings.Contains(string(memfile.Render(f)), "Sessions: many")) // the line was kept
}

// TestParseWarningsWithLineNumbers checks that every line that is not an
// entry or a pattern is reported with its line number, and kept.
func TestParseWarningsWithLineNumbers(t *testing.T) {
	is := is.New(t)
	lines := []string{
		strings.Split(fxHeader, "\n")[0],        // 1
		"",                                      // 2
		"# BIMRI Memory",                        // 3
		"",                                      // 4
		"## Tier 1: Core Intelligence",          // 5
		"[IMPORTANCE:9] [TIMESTAMP:2026-11-20]", // 6: importance out of range
		"Foundational, says the author.",        // 7: read as the note's next line
		"",                                      // 8
		"## Tier 2: Active Context",             // 9
		"[IMPORTANCE:3] [TIMESTAMP:20-11-2026] bad date", // 10
		"", // 11
		"[IMPORTANCE:3] [TIMESTAMP:2026-11-20] [COLOUR:red] unknown field", // 12
		"[IMPORTANCE:3] [TIMESTAMP:2026-11-20] [TAGS:a] [TAGS:b] twice",    // 13
		"[TIMESTAMP:2026-11-20] no importance",                             // 14
		"[IMPORTANCE:3] no date",                                           // 15: read, dated from the header
		"",                                                                 // 16
		"[IMPORTANCE:3] [TIMESTAMP:2026-11-20]",                            // 17: no summary
		"",                                                                 // 18
		"A person's own note.",                                             // 19
		"",                                                                 // 20
		"[IMPORTANCE:3] [TIMESTAMP:2026-11-20] [ID:not_valid!] bad id", // 21
		"",                                  // 22
		"## Tier 3: Pattern Recognition",    // 23
		"[PATTERN:SURE] [TAGS:a] bad level", // 24
		"",                                  // 25
		"<!-- END BIMRI -->",                // 26
	}
	f, w := fxParseAll(t, strings.Join(lines, "\n")+"\n")
	for _, tc := range []struct {
		line int
		msg  string
	}{
		{6, `IMPORTANCE "9"`},
		{10, `TIMESTAMP "20-11-2026"`},
		{12, "unknown field [COLOUR"},
		{13, "TAGS appears twice"},
		{14, "no IMPORTANCE"},
		{15, "no date: given the header's Last Maintained date"},
		{17, "no summary"},
		{19, "note"},
		{21, `ID "not_valid!"`},
		{24, `level "SURE"`},
	} {
		if !hasWarning(w, tc.line, tc.msg) {
			t.Errorf("no warning for line %d containing %q; got %v", tc.line, tc.msg, w)
		}
	}
	// Only the undated entry was read, and every line is still in the file.
	is.Equal(fxTexts(f, 2), []string{"no date"})
	is.Equal(len(f.Entries(1))+len(f.Patterns()), 0)
	out := string(memfile.Render(f))
	for i, l := range lines {
		if l == "" || i < 2 || i == 14 {
			continue
		}
		is.True(strings.Contains(out, l+"\n"))
	}
}

func TestParseNotesKeptWhereTheyStood(t *testing.T) {
	is := is.New(t)
	body := fxEntry(3, "2026-11-20", "a", "First.") +
		"My own note,\n  on two lines.\n\n" +
		fxEntry(2, "2026-11-21", "b", "Second.") +
		"### A heading I made\n"
	f, w := fxParse(t, fxDoc("Core note.\n", body, "Pattern musings.\n"))
	bs := f.Tiers[1].Blocks
	is.Equal(len(bs), 4)
	is.True(bs[0].Entry != nil)
	is.Equal(bs[1].Note.Lines, []string{"My own note,", "  on two lines."}) // word for word, indentation too
	is.True(bs[2].Entry != nil)
	is.Equal(bs[3].Note.Lines, []string{"### A heading I made"})
	is.Equal(f.Tiers[0].Blocks[0].Note.Lines, []string{"Core note."})
	is.Equal(f.Tiers[2].Blocks[0].Note.Lines, []string{"Pattern musings."})
	// Each note is reported once, at its first line.
	notes := 0
	for _, x := range w {
		if strings.Contains(x.Message, "note") {
			notes++
		}
	}
	is.Equal(notes, 4)

	out := string(memfile.Render(f))
	is.True(strings.Index(out, "First.") < strings.Index(out, "My own note,\n  on two lines.\n"))
	is.True(strings.Index(out, "My own note,") < strings.Index(out, "Second."))
	is.True(strings.Index(out, "Second.") < strings.Index(out, "### A heading I made"))
}

func TestParseTextOutsideTheTiersIsKept(t *testing.T) {
	is := is.New(t)
	doc := "A line before the header.\n" + fxHeader + "\nAnd another before the title.\n\n# BIMRI Memory\n\nIntro text.\n\n" +
		"## Tier 1: Core Intelligence\n\n## Tier 2: Active Context\n\n## Tier 3: Pattern Recognition\n\n<!-- END BIMRI -->\ntrailing words\n\n"
	f, w := fxParse(t, doc)
	is.Equal(f.Preamble, []string{"A line before the header.", "", "And another before the title."})
	is.Equal(f.Intro[0].Note.Lines, []string{"Intro text."})
	is.Equal(f.Trailer, []string{"trailing words", ""})
	is.True(hasWarning(w, 18, "after"))
	is.True(hasWarning(w, 1, "note"))
	is.True(hasWarning(w, 5, "note"))
	is.True(hasWarning(w, 9, "note"))
	out := string(memfile.Render(f))
	for _, s := range []string{"A line before the header.\n\nAnd another before the title.\n", "\nIntro text.\n", "<!-- END BIMRI -->\ntrailing words\n\n"} {
		is.True(strings.Contains(out, s))
	}
}

func TestParseSecondTitleKept(t *testing.T) {
	// Nothing is dropped by parsing, not even a repeated title.
	is := is.New(t)
	f, w := fxParse(t, fxDoc("", fxEntry(3, "2026-11-20", "", "Added tests.")+"# BIMRI Memory\n", ""))
	is.True(len(w) > 0)
	is.True(strings.Contains(string(memfile.Render(f)), "Added tests.\n\n# BIMRI Memory\n"))
}

func TestParseRepeatedTierHeading(t *testing.T) {
	is := is.New(t)
	doc := fxDoc("", fxEntry(3, "2026-11-20", "", "One."), "")
	doc = strings.Replace(doc, "## Tier 3: Pattern Recognition", "## Tier 2: Active Context\n\n"+fxEntry(3, "2026-11-21", "", "Two.")+"## Tier 3: Pattern Recognition", 1)
	f, w := fxParse(t, doc)
	is.Equal(fxTexts(f, 2), []string{"One.", "Two."})
	is.True(anyWarning(w, "Tier 2 heading appears twice"))
	is.Equal(strings.Count(string(memfile.Render(f)), "## Tier 2"), 1)
}

func TestParseEntriesOutsideTiers(t *testing.T) {
	is := is.New(t)
	doc := fxHeader + "\n# BIMRI Memory\n\n" +
		fxEntry(3, "2026-11-19", "", "Before the tiers.") +
		"## Tier 1: Core Intelligence\n<!-- Permanent foundational knowledge. Budget: ~1,500 tokens. No decay. -->\n\n" +
		"[PATTERN:EMERGING] [OBSERVATIONS:2] [TAGS:x]\nA pattern in the wrong tier.\n\n" +
		"## Tier 2: Active Context\n<!-- Current work state. Budget: ~3,000 tokens. Freshness decays per lookup table. -->\n\n" +
		fxEntry(3, "2026-11-20", "", "In Tier 2.") +
		"## Tier 3: Pattern Recognition\n<!-- Derived behavioral insights. Budget: ~1,500 tokens. Confidence-scored. -->\n\n" +
		fxEntry(3, "2026-11-21", "", "In Tier 3.") +
		"<!-- END BIMRI -->\n"
	f, w := fxParse(t, doc)
	is.Equal(len(f.Entries(1)), 0)
	is.Equal(fxTexts(f, 2), []string{"Before the tiers.", "In Tier 2.", "In Tier 3."})
	is.Equal(len(f.Patterns()), 1)
	is.Equal(f.Patterns()[0].Text, "A pattern in the wrong tier.")
	is.True(hasWarning(w, 6, "moved to Tier 2"))
	is.True(hasWarning(w, 12, "moved to Tier 3"))
	is.True(hasWarning(w, 24, "moved to Tier 2"))
	// The template comments stay comments: moving an item into a tier
	// before its heading is read does not turn the tier's own comments
	// into notes.
	for i := range f.Tiers {
		is.Equal(len(f.Tiers[i].Comments), 1)
		for _, b := range f.Tiers[i].Blocks {
			is.True(b.Note == nil)
		}
	}
	out := string(memfile.Render(f))
	is.Equal(strings.Count(out, "<!-- Current work state."), 1)
}

func TestParseTier1LowImportanceWarned(t *testing.T) {
	is := is.New(t)
	f, w := fxParse(t, fxDoc(fxEntry(2, "2026-11-20", "", "Not core."), "", ""))
	is.Equal(fxTexts(f, 1), []string{"Not core."}) // kept where it stood
	is.True(anyWarning(w, "importance 2"))
}

func TestParsePattern(t *testing.T) {
	is := is.New(t)
	f, w := fxParse(t, fxDoc("", "",
		"[PATTERN:developing] [OBS:4] [FIRST:2026-11-01] [LAST:2026-11-20] [TAGS:Testing] [EVIDENCE:aaa111,bbb222] [ID:p1234567]\nUser writes tests first.\n\n"+
			"[PATTERN:EMERGING] [TAGS:deploy]\n\n"))
	is.Equal(len(w), 0)
	ps := f.Patterns()
	is.Equal(len(ps), 2)
	p := ps[0]
	is.Equal(p.Level, memfile.Developing)
	is.Equal(p.Observations, 4)
	is.Equal(p.First, fxDay("2026-11-01"))
	is.Equal(p.Last, fxDay("2026-11-20"))
	is.Equal(p.Tags, []string{"testing"})
	is.Equal(p.Evidence, []string{"aaa111", "bbb222"})
	is.Equal(p.ID, "p1234567")
	is.Equal(p.Text, "User writes tests first.")
	// A pattern without a sentence gets the automatic one; without IDs it
	// gets one from its tags.
	is.Equal(ps[1].Text, "Tag deploy recurs: 0 entries.")
	is.Equal(ps[1].ID, memfile.PatternID([]string{"deploy"}))
}

func TestParsePatternObservationsAtLeastEvidence(t *testing.T) {
	is := is.New(t)
	f, _ := fxParse(t, fxDoc("", "", "[PATTERN:EMERGING] [OBSERVATIONS:1] [TAGS:x] [EVIDENCE:a1,b2,c3]\nS.\n"))
	is.Equal(f.Patterns()[0].Observations, 3)
}

func TestParseIDs(t *testing.T) {
	is := is.New(t)
	body := fxEntry(3, "2026-11-20", "a", "Added tests.") +
		fxEntry(3, "2026-11-21", "a", "Added tests.") + // same text, another day
		fxEntry(2, "2026-11-20", "b", "added tests") // same day, same normalised text
	doc := fxDoc("", body, "")
	f1, _ := fxParse(t, doc)
	f2, _ := fxParse(t, doc)
	es := f1.Entries(2)
	// Derived from date and text: the same on every machine and every run.
	is.Equal(es[0].ID, memfile.EntryID(fxDay("2026-11-20"), "Added tests."))
	is.Equal(es[1].ID, memfile.EntryID(fxDay("2026-11-21"), "Added tests."))
	is.True(es[0].ID != es[1].ID)
	is.True(es[2].ID != es[0].ID) // a collision gets a distinct, derived ID
	for i, e := range es {
		is.Equal(e.ID, f2.Entries(2)[i].ID)
		is.Equal(len(e.ID), 8)
	}
	// Normalised text: case, spacing and trailing punctuation do not count.
	is.Equal(memfile.EntryID(fxDay("2026-11-20"), "  ADDED   tests!! "), es[0].ID)

	// Stable: once written, the IDs come back the same, and adding an
	// entry above does not renumber the others.
	g, _ := fxParse(t, string(memfile.Render(f1)))
	for i, e := range g.Entries(2) {
		is.Equal(e.ID, es[i].ID)
	}
	h, _ := fxParse(t, fxDoc("", fxEntry(4, "2026-11-22", "", "A new first entry.")+body, ""))
	for i, e := range h.Entries(2)[1:] {
		is.Equal(e.ID, es[i].ID)
	}
}

func TestParseDuplicateIDs(t *testing.T) {
	is := is.New(t)
	body := "[IMPORTANCE:3] [TIMESTAMP:2026-11-20] [ID:same1]\nFirst.\n\n" +
		"[IMPORTANCE:3] [TIMESTAMP:2026-11-21] [ID:same1]\nSecond.\n\n"
	f, w := fxParse(t, fxDoc("", body, "[PATTERN:EMERGING] [TAGS:x] [ID:same1]\nP.\n"))
	es := f.Entries(2)
	is.Equal(es[0].ID, "same1") // the first use keeps it
	is.True(es[1].ID != "same1")
	is.Equal(es[1].ID, memfile.EntryID(fxDay("2026-11-21"), "Second."))
	is.True(f.Patterns()[0].ID != "same1")
	is.True(anyWarning(w, "entry ID same1 appears twice"))
	is.True(anyWarning(w, "pattern ID same1 appears twice"))
	// And the repair is stable.
	g, w2 := fxParse(t, string(memfile.Render(f)))
	is.Equal(len(w2), 0)
	is.Equal(g.Entries(2)[1].ID, es[1].ID)
}

func TestParseUnreadable(t *testing.T) {
	header := fxHeader + "\n# BIMRI Memory\n\n## Tier 1: Core Intelligence\n\n"
	for _, tc := range []struct {
		name string
		data string
		why  string
	}{
		{"empty", "", "empty"},
		{"blank", " \n\t\r\n\n", "empty"},
		{"NUL bytes", fxDoc("", "", "") + "\x00\x00", "NUL"},
		{"binary", "\x7fELF\x02\x01\x01\x00\x00\x00", "NUL"},
		{"not UTF-8", strings.Repeat("\xff\xfe", 40), "UTF-8"},
		{"truncated: header but no END", header + fxEntry(5, "2026-11-01", "", "Cut off"), "truncated"},
		{"prose with no structure", "Dear diary,\ntoday I wrote some code.\n\n- and a list\n", "no BIMRI"},
		{"a markdown file", "# README\n\n## Install\n\nrun make\n", "no BIMRI"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			f, w, err := memfile.Parse([]byte(tc.data))
			is.True(errors.Is(err, memfile.ErrUnreadable))
			is.True(strings.Contains(err.Error(), tc.why))
			is.True(f == nil)
			is.Equal(len(w), 0)
		})
	}
}

func TestParseFewBadBytesTolerated(t *testing.T) {
	// A stray invalid byte in a person's note is not a reason to refuse
	// the whole file; it is kept as it was.
	is := is.New(t)
	f, _ := fxParse(t, fxDoc("", "caf\xe9 note\n", ""))
	is.True(strings.Contains(string(memfile.Render(f)), "caf\xe9 note\n"))
}

func TestProtocolHandWritten(t *testing.T) {
	is := is.New(t)
	data, err := os.ReadFile("testdata/protocol-hand.md")
	is.NoErr(err)
	f, w, err := memfile.Parse(data)
	is.NoErr(err)
	is.Equal(f.Header.Version, "2.0-cc")
	is.Equal(f.Header.Sessions, 6)
	is.Equal(f.Header.LastMaintained, fxDay("2026-11-27"))
	is.Equal(len(f.Entries(1)), 3)
	is.Equal(len(f.Entries(2)), 6)
	for _, e := range f.Entries(1) {
		is.True(e.Importance >= 4)
		is.Equal(e.Date, fxDay("2026-11-02"))
		is.True(e.HasWeight)
	}
	first := f.Entries(2)[0]
	is.Equal(first.Importance, 4)
	is.Equal(first.Tags, []string{"architecture", "database"})
	is.Equal(first.Weight.String(), "4.0")
	is.Equal(first.Text, "Migrated database layer from SQLite to PostgreSQL.")
	// The agent's free-form pattern is read as a pattern, with its level,
	// count and sentence, and the tag its sentence names ("tests").
	is.Equal(len(f.Patterns()), 1)
	p := f.Patterns()[0]
	is.Equal(p.Level, memfile.Emerging)
	is.Equal(p.Observations, 2)
	is.Equal(p.Tags, []string{"testing"})
	is.Equal(p.Text, "User asks for tests before any refactor or migration.")
	is.Equal(len(fxProblems(w)), 0)
	is.True(hasWarning(w, 45, `prose pattern "EMERGING (2 obs):"`))
	is.True(hasWarning(w, 45, "given tag testing"))
	// The template comments were recognised.
	for i := range f.Tiers {
		is.Equal(len(f.Tiers[i].Comments), 2)
	}
	// The only changes on the first write are the added IDs, the tags in
	// sorted order and the pattern in the canonical form.
	canonicalPattern := "[PATTERN:EMERGING] [OBSERVATIONS:2] [TAGS:testing] [EVIDENCE:]\nUser asks for tests before any refactor or migration."
	is.Equal(sortTagsNoIDs(string(memfile.Render(f))), sortTagsNoIDs(strings.Replace(string(data), "EMERGING (2 obs): User asks for tests before any refactor or migration.", canonicalPattern, 1)))
	is.True(string(memfile.Render(f)) != string(data))
}

var tagsField = regexp.MustCompile(`\[TAGS:([^\]]*)\]`)
var idField = regexp.MustCompile(` \[ID:[^\]]*\]`)

// sortTagsNoIDs drops ID fields and sorts every TAGS list.
func sortTagsNoIDs(s string) string {
	s = idField.ReplaceAllString(s, "")
	return tagsField.ReplaceAllStringFunc(s, func(m string) string {
		tags := strings.Split(tagsField.FindStringSubmatch(m)[1], ",")
		sort.Strings(tags)
		return "[TAGS:" + strings.Join(tags, ",") + "]"
	})
}

func hasWarning(ws []memfile.Warning, line int, sub string) bool {
	for _, w := range ws {
		if w.Line == line && strings.Contains(w.Message, sub) {
			return true
		}
	}
	return false
}

func anyWarning(ws []memfile.Warning, sub string) bool {
	for _, w := range ws {
		if strings.Contains(w.Message, sub) {
			return true
		}
	}
	return false
}

// An entry's AGENT field survives a parse and a render, on the fast path
// and the slow one, and a name that is not one is refused, the entry kept
// as text.
func TestEntryAgentRoundTrip(t *testing.T) {
	line := "[IMPORTANCE:4] [TIMESTAMP:2026-11-29] [TAGS:db] [AGENT:codex] [WEIGHT:4.0] [ID:ab12cd34]"
	in := "# BIMRI Memory\n\n## Tier 1: Core Intelligence\n\n## Tier 2: Active Context\n\n" + line + "\nChose WAL mode.\n\n## Tier 3: Pattern Recognition\n\n<!-- END BIMRI -->\n"
	f, _, err := memfile.Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	es := f.Entries(2)
	if len(es) != 1 || es[0].Agent != "codex" {
		t.Fatalf("entries %+v, want one by codex", es)
	}
	if out := string(memfile.Render(f)); !strings.Contains(out, line+"\n") {
		t.Fatalf("the render lost the field:\n%s", out)
	}
	bad := strings.Replace(in, "[AGENT:codex]", "[AGENT:Codex CLI]", 1)
	f, _, err = memfile.Parse([]byte(bad))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Entries(2)) != 0 || !strings.Contains(string(memfile.Render(f)), "Chose WAL mode.") {
		t.Fatalf("a bad AGENT was read as an entry, or its text lost:\n%s", memfile.Render(f))
	}
}

// A merge keeps the agent of an entry that one side recorded and both
// then changed.
func TestMergeKeepsAgent(t *testing.T) {
	file := func(tags string, agent string) *memfile.File {
		line := "[IMPORTANCE:4] [TIMESTAMP:2026-11-29] [TAGS:" + tags + "]"
		if agent != "" {
			line += " [AGENT:" + agent + "]"
		}
		f, _, err := memfile.Parse([]byte("# BIMRI Memory\n\n## Tier 1: Core Intelligence\n\n## Tier 2: Active Context\n\n" + line + " [ID:ab12cd34]\nChose WAL mode.\n\n## Tier 3: Pattern Recognition\n\n<!-- END BIMRI -->\n"))
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	merged, _ := memfile.MergeFiles(file("db", "codex"), file("db,ours", "codex"), file("db,theirs", ""), memfile.DefaultConfig())
	es := merged.Entries(2)
	if len(es) != 1 || es[0].Agent != "codex" {
		t.Fatalf("merged entries %+v, want one by codex", es)
	}
}
