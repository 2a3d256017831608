package memfile_test

// Files a model wrote by following the BIMRI protocol by hand: every way
// models write the protocol's format loosely is read as the entry or the
// pattern it means, no text is cut, and the first write converts the file
// to the canonical form.

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/bimri/bimri-hook/memfile"
)

// TestParseModelEntries: one row per way models write an entry. Each must
// read as one entry with the right fields and say how it was read.
func TestParseModelEntries(t *testing.T) {
	type want struct {
		imp    int
		date   string
		tags   []string
		weight string // "" when the line gives none
		text   string
		how    string // in the conversion notice; "" for none
	}
	for _, tc := range []struct {
		name, body string
		want       want
	}{
		{"bold tag line",
			"**[IMPORTANCE:5] [TIMESTAMP:2026-11-02] [TAGS:purpose]**\nA CLI for invoices.\n",
			want{5, "2026-11-02", []string{"purpose"}, "", "A CLI for invoices.", "bold markers dropped"}},
		{"bold importance only",
			"**[IMPORTANCE:4]** [TIMESTAMP:2026-11-02] [TAGS:db]\nMoved to PostgreSQL.\n",
			want{4, "2026-11-02", []string{"db"}, "", "Moved to PostgreSQL.", "bold markers dropped"}},
		{"bold tag line with the summary inside",
			"**[IMPORTANCE:3] [TIMESTAMP:2026-11-20] Added tests.**\n",
			want{3, "2026-11-20", nil, "", "Added tests.", "bold markers dropped"}},
		{"bullet and indented body",
			"- [IMPORTANCE:4] [TIMESTAMP:2026-11-20] [TAGS:api]\n  Paginated the endpoint.\n",
			want{4, "2026-11-20", []string{"api"}, "", "Paginated the endpoint.", "list marker dropped"}},
		{"check mark emoji",
			"✅ [IMPORTANCE:3] [TIMESTAMP:2026-11-20] Shipped v1.\n",
			want{3, "2026-11-20", nil, "", "Shipped v1.", "leading mark dropped"}},
		{"emoji with variation selector after a bullet",
			"- ✔️ [IMPORTANCE:3] [TIMESTAMP:2026-11-20] Shipped v1.\n",
			want{3, "2026-11-20", nil, "", "Shipped v1.", "leading mark dropped"}},
		{"rocket emoji",
			"🚀 [IMPORTANCE:3] [TIMESTAMP:2026-11-20]\nShipped v1.\n",
			want{3, "2026-11-20", nil, "", "Shipped v1.", "leading mark dropped"}},
		{"task box",
			"- [x] [IMPORTANCE:2] [TIMESTAMP:2026-11-20] Done.\n",
			want{2, "2026-11-20", nil, "", "Done.", "task box dropped"}},
		{"mixed-case keys",
			"[Importance:3] [Timestamp:2026-11-20] [Tags:auth]\nAdded tests.\n",
			want{3, "2026-11-20", []string{"auth"}, "", "Added tests.", ""}},
		{"spaces after colons and in the tag list",
			"[IMPORTANCE: 3] [TIMESTAMP: 2026-11-20 ] [TAGS: auth, testing ]\nAdded tests.\n",
			want{3, "2026-11-20", []string{"auth", "testing"}, "", "Added tests.", ""}},
		{"# on tags, comma-separated",
			"[IMPORTANCE:3] [TIMESTAMP:2026-11-20] [TAGS:#auth, #testing]\nAdded tests.\n",
			want{3, "2026-11-20", []string{"auth", "testing"}, "", "Added tests.", "'#' dropped from tags"}},
		{"# on tags, space-separated",
			"[IMPORTANCE:3] [TIMESTAMP:2026-11-20] [TAGS:#auth #testing]\nAdded tests.\n",
			want{3, "2026-11-20", []string{"auth", "testing"}, "", "Added tests.", "'#' dropped from tags"}},
		{"weight annotation",
			"[IMPORTANCE:4] [TIMESTAMP:2026-11-20] [WEIGHT:4.0 (floor)]\nChose Stripe.\n",
			want{4, "2026-11-20", nil, "4.0", "Chose Stripe.", `weight "4.0 (floor)" read as 4.0`}},
		{"date with slashes",
			"[IMPORTANCE:3] [TIMESTAMP:2026/11/16] Added tests.\n",
			want{3, "2026-11-16", nil, "", "Added tests.", `date "2026/11/16" read as 2026-11-16`}},
		{"date without leading zeros",
			"[IMPORTANCE:3] [TIMESTAMP:2026-2-8] Added tests.\n",
			want{3, "2026-02-08", nil, "", "Added tests.", `date "2026-2-8" read as 2026-02-08`}},
		{"month name first",
			"[IMPORTANCE:3] [TIMESTAMP:Nov 14, 2026] Added tests.\n",
			want{3, "2026-11-14", nil, "", "Added tests.", `date "Nov 14, 2026" read as 2026-11-14`}},
		{"day first",
			"[IMPORTANCE:3] [TIMESTAMP:14 Nov 2026] Added tests.\n",
			want{3, "2026-11-14", nil, "", "Added tests.", `date "14 Nov 2026" read as 2026-11-14`}},
		{"date and time",
			"[IMPORTANCE:3] [DATE:2026-11-20T09:15] Added tests.\n",
			want{3, "2026-11-20", nil, "", "Added tests.", `date "2026-11-20T09:15" read as 2026-11-20`}},
		{"no date: the header's Last Maintained date",
			"[IMPORTANCE:3] [TAGS:auth]\nAdded tests.\n",
			want{3, "2026-11-28", []string{"auth"}, "", "Added tests.", "no date: given the header's Last Maintained date, 2026-11-28"}},
		{"colon between the tags and the summary",
			"* [IMPORTANCE:2] [DATE:2026-11-20] [TAGS:ci]: Fixed the cache key.\n",
			want{2, "2026-11-20", []string{"ci"}, "", "Fixed the cache key.", `separator ":" dropped`}},
		{"importance with its scale",
			"[IMPORTANCE:4/5] [TIMESTAMP:2026-11-20] Chose Stripe.\n",
			want{4, "2026-11-20", nil, "", "Chose Stripe.", `importance "4/5" read as 4`}},
		{"body of several lines",
			"- [IMPORTANCE:3] [TIMESTAMP:2026-11-20] [TAGS:api]\n  Paginated the endpoint.\n  Page size 50.\n  - open: retries?\n",
			want{3, "2026-11-20", []string{"api"}, "", "Paginated the endpoint.\nPage size 50.\n- open: retries?", "list marker dropped"}},
		{"summary on the tag line and more lines",
			"[IMPORTANCE:3] [TIMESTAMP:2026-11-20] Started the webhook.\nNext: verify signatures.\n",
			want{3, "2026-11-20", nil, "", "Started the webhook.\nNext: verify signatures.", ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			f, w := fxParseAll(t, fxDoc("", tc.body, ""))
			is.Equal(len(fxProblems(w)), 0) // nothing left unread
			es := f.Entries(2)
			is.Equal(len(es), 1)
			e := es[0]
			is.Equal(e.Importance, tc.want.imp)
			is.Equal(e.Date.Format("2006-01-02"), tc.want.date)
			is.Equal(e.Tags, tc.want.tags)
			is.Equal(e.HasWeight, tc.want.weight != "")
			if tc.want.weight != "" {
				is.Equal(e.Weight.String(), tc.want.weight)
			}
			is.Equal(e.Text, tc.want.text)
			if tc.want.how != "" && !hasWarning(w, 11, tc.want.how) {
				t.Errorf("no notice %q for line 11; got %v", tc.want.how, w)
			}
			// The canonical form reads back the same, with nothing to
			// convert.
			y := memfile.Render(f)
			g, w2 := fxParseAll(t, string(y))
			is.Equal(len(w2), 0)
			is.Equal(g.Entries(2)[0].Text, e.Text)
			is.Equal(string(memfile.Render(g)), string(y))
		})
	}
}

// TestParseModelPatterns: the ways models write a pattern are patterns,
// with their level, count, tags and sentence.
func TestParseModelPatterns(t *testing.T) {
	type want struct {
		level memfile.Level
		obs   int
		tags  []string
		text  string
	}
	entries := fxEntry(3, "2026-11-20", "deploy", "Deployed.") + fxEntry(3, "2026-11-21", "auth,deploy", "Auth fix deployed.")
	for _, tc := range []struct {
		name, body string
		want       want
	}{
		{"pattern tag line",
			"[PATTERN:ESTABLISHED] [OBSERVATIONS:7] [TAGS:x]\nThe user reviews every diff.\n",
			want{memfile.Established, 7, []string{"x"}, "The user reviews every diff."}},
		{"CONFIDENCE for PATTERN",
			"[CONFIDENCE:ESTABLISHED] [OBSERVATIONS:6] [TAGS:x] The user reviews every diff.\n",
			want{memfile.Established, 6, []string{"x"}, "The user reviews every diff."}},
		{"bold level and count",
			"**DEVELOPING (3 obs)** Deploys go out on Fridays. #deploy\n",
			want{memfile.Developing, 3, []string{"deploy"}, "Deploys go out on Fridays. #deploy"}},
		{"bullet, level, count and colon",
			"- EMERGING (2 obs): Auth work clusters late in the week.\n",
			want{memfile.Emerging, 2, []string{"auth"}, "Auth work clusters late in the week."}},
		{"level in bold, count after it",
			"- **Developing** (4 observations): Releases follow a deploy.\n",
			want{memfile.Developing, 4, []string{"deploy"}, "Releases follow a deploy."}},
		{"upper-case level without a count",
			"ESTABLISHED: The user reviews every diff.\n",
			want{memfile.Established, 0, nil, "The user reviews every diff."}},
		{"fields after the level",
			"**DEVELOPING (3 obs)** [TAGS:deploy] Deploys go out on Fridays.\n",
			want{memfile.Developing, 3, []string{"deploy"}, "Deploys go out on Fridays."}},
		{"sentence on the next line",
			"- EMERGING (2 obs):\n  Auth work clusters late in the week.\n",
			want{memfile.Emerging, 2, []string{"auth"}, "Auth work clusters late in the week."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			f, w := fxParseAll(t, fxDoc("", entries, tc.body))
			is.Equal(len(fxProblems(w)), 0)
			ps := f.Patterns()
			is.Equal(len(ps), 1)
			p := ps[0]
			is.Equal(p.Level, tc.want.level)
			is.Equal(p.Observations, tc.want.obs)
			is.Equal(p.Tags, tc.want.tags)
			is.Equal(p.Text, tc.want.text)
			y := memfile.Render(f)
			g, w2 := fxParseAll(t, string(y))
			is.Equal(len(w2), 0)
			is.Equal(string(memfile.Render(g)), string(y))
		})
	}
	t.Run("a sentence that starts with a level word stays a sentence", func(t *testing.T) {
		is := is.New(t)
		f, _ := fxParseAll(t, fxDoc("", "[IMPORTANCE:3] [TIMESTAMP:2026-11-20] Set up CI.\nEstablished the release flow too.\n", ""))
		is.Equal(fxTexts(f, 2), []string{"Set up CI.\nEstablished the release flow too."})
		is.Equal(len(f.Patterns()), 0)
	})
	t.Run("a list of prose patterns is one pattern a line", func(t *testing.T) {
		is := is.New(t)
		f, _ := fxParseAll(t, fxDoc("", "", "- EMERGING (2 obs): One.\n- DEVELOPING (3 obs): Two.\n- ESTABLISHED (6 obs): Three.\n"))
		is.Equal(len(f.Patterns()), 3)
	})
}

// TestParseHeaderVariants: the session count models write is read, not
// reset to 0.
func TestParseHeaderVariants(t *testing.T) {
	for _, tc := range []struct {
		header   string
		sessions int
		last     string
	}{
		{"<!-- BIMRI v2.0-cc | Last Maintained: 2026-11-27 | Sessions: 12 | Token Est: ~640 -->", 12, "2026-11-27"},
		{"<!-- BIMRI v2.0-cc | Last Maintained: 2026-11-27 | Sessions: 12 (next deep: 20) | Token Est: ~640 -->", 12, "2026-11-27"},
		{"<!-- BIMRI v2.0-cc | Last Maintained: 2026-11-27 | Session: 12 | Token Est: ~640 -->", 12, "2026-11-27"},
		{"<!-- BIMRI v2.0-cc | Last Maintained: Nov 27, 2026 | Sessions: 3 -->", 3, "2026-11-27"},
		{"<!-- BIMRI v2.0-cc | Last Maintained: YYYY-MM-DD | Sessions: 0 | Token Est: ~200 -->", 0, "0001-01-01"},
	} {
		t.Run(tc.header, func(t *testing.T) {
			is := is.New(t)
			f, w := fxParseAll(t, tc.header+"\n\n# BIMRI Memory\n\n## Tier 1: Core Intelligence\n\n<!-- END BIMRI -->\n")
			is.Equal(len(fxProblems(w)), 0)
			is.Equal(f.Header.Sessions, tc.sessions)
			is.Equal(f.Header.LastMaintained.Format("2006-01-02"), tc.last)
		})
	}
}

// TestModelWrittenRead: the fixture, a file written from the protocol's
// template the way models fill it, is read item by item as the golden
// file says: every entry and pattern, with its importance, date, tags and
// whole body, and how each was read. Nothing is left unread.
func TestModelWrittenRead(t *testing.T) {
	is := is.New(t)
	data, err := os.ReadFile("testdata/model-written.input")
	is.NoErr(err)
	f, w := fxParseAll(t, string(data))
	is.Equal(fxProblems(w), nil)
	is.Equal(len(f.Entries(1)), 6)
	is.Equal(len(f.Entries(2)), 15)
	is.Equal(len(f.Patterns()), 5)
	is.Equal(f.Header.Sessions, 12)
	for i := range f.Tiers {
		for _, b := range f.Tiers[i].Blocks {
			if b.Note != nil {
				t.Errorf("Tier %d: unread lines %q", i+1, b.Note.Lines)
			}
		}
	}

	var b strings.Builder
	for tier := 1; tier <= 2; tier++ {
		for _, e := range f.Entries(tier) {
			weight := "-"
			if e.HasWeight {
				weight = e.Weight.String()
			}
			fmt.Fprintf(&b, "Tier %d entry %s: importance %d, %s, tags [%s], weight %s\n", tier, e.ID, e.Importance, e.Date.Format("2006-01-02"), strings.Join(e.Tags, ","), weight)
			for _, l := range strings.Split(e.Text, "\n") {
				b.WriteString("  | " + l + "\n")
			}
		}
	}
	for _, p := range f.Patterns() {
		fmt.Fprintf(&b, "Tier 3 pattern %s: %s, %d obs, tags [%s]\n", p.ID, p.Level, p.Observations, strings.Join(p.Tags, ","))
		for _, l := range strings.Split(p.Text, "\n") {
			b.WriteString("  | " + l + "\n")
		}
	}
	b.WriteString("\nHow it was read:\n")
	for _, x := range w {
		b.WriteString(x.String() + "\n")
	}
	got := b.String()
	golden := "testdata/model-written.read.golden"
	if *update {
		is.NoErr(os.WriteFile(golden, []byte(got), 0o644))
	}
	want, err := os.ReadFile(golden)
	is.NoErr(err)
	if got != string(want) {
		t.Errorf("differs from %s:\n%s", golden, lineDiff(string(want), got))
	}
}

// TestModelWrittenView: the SessionStart view of the fixture shows every
// entry and every pattern.
func TestModelWrittenView(t *testing.T) {
	is := is.New(t)
	data, err := os.ReadFile("testdata/model-written.input")
	is.NoErr(err)
	f, _ := fxParseAll(t, string(data))
	for _, file := range []*memfile.File{f, fxModelPass(t, f)} {
		view := memfile.ContextView(file, memfile.View{Limit: 10000})
		is.True(memfile.Length(view) <= 10000)
		n := 0
		for tier := 1; tier <= 2; tier++ {
			for _, e := range file.Entries(tier) {
				n++
				is.True(strings.Contains(view, "(id "+e.ID+")"))
			}
		}
		auto := 0
		for _, p := range file.Patterns() {
			// A pattern with a sentence has its own line; the automatic
			// ones share the line of recurring topics.
			if p.HasSentence() {
				n++
				is.True(strings.Contains(view, "(id "+p.ID+")"))
			} else {
				auto++
				is.True(strings.Contains(view, fmt.Sprintf("%s %d", strings.Join(p.Tags, "+"), p.Observations)))
			}
		}
		if auto > 0 {
			n++
		}
		is.True(strings.Contains(view, fmt.Sprintf("All %d items shown", n)))
	}
}

func fxModelPass(t *testing.T, f *memfile.File) *memfile.File {
	t.Helper()
	out, _ := memfile.Maintain(f, goldenDay, memfile.DefaultConfig(), memfile.Options{CountSession: true})
	return out
}

// TestModelWrittenSessionEnd: one session-end pass over the fixture keeps every entry's whole body under that entry, in
// bimri.md or, for what the pass archived, in bimri-archive.md; and every
// line of text the model wrote is still in one of the two.
func TestModelWrittenSessionEnd(t *testing.T) {
	is := is.New(t)
	data, err := os.ReadFile("testdata/model-written.input")
	is.NoErr(err)
	before, _ := fxParseAll(t, string(data))

	out, rep := memfile.Maintain(before, goldenDay, memfile.DefaultConfig(), memfile.Options{CountSession: true})
	is.True(len(rep.Removed) > 0) // the fixture has entries below the threshold
	mem := memfile.Render(out)
	arch := memfile.RenderArchived(rep.Removed, goldenDay)
	after, _ := fxParseAll(t, string(mem))
	recs, _ := memfile.ParseArchive(append([]byte(memfile.ArchiveHeading), arch...))
	archived := map[string]string{}
	for _, r := range recs {
		if r.Entry != nil {
			archived[r.Entry.ID] = r.Entry.Text
		}
	}
	for tier := 1; tier <= 2; tier++ {
		for _, e := range before.Entries(tier) {
			if kept, _ := after.Find(e.ID); kept != nil {
				is.Equal(kept.Text, e.Text)
				continue
			}
			text, ok := archived[e.ID]
			if !ok {
				t.Errorf("entry %s %q is in neither file", e.ID, e.Text)
				continue
			}
			is.Equal(text, e.Text)
		}
	}

	lines := strings.Split(string(mem)+string(arch), "\n")
	for i, l := range strings.Split(string(data), "\n") {
		words := textWords(l)
		if words == "" {
			continue
		}
		if !slices.ContainsFunc(lines, func(x string) bool { return strings.Contains(x, words) }) {
			t.Errorf("line %d: %q is in neither file", i+1, words)
		}
	}
}

// textWords is a fixture line without what the conversion rewrites: the
// markers before the text and the tag fields. A line that is all markup
// gives "".
func textWords(l string) string {
	l = strings.TrimSpace(l)
	if l == "" || strings.HasPrefix(l, "<!--") || strings.HasPrefix(l, "#") {
		return ""
	}
	if i := strings.LastIndex(l, "]"); i >= 0 && strings.Contains(l[:i+1], ":") {
		l = l[i+1:]
	}
	if i := strings.LastIndex(l, "**"); i >= 0 {
		l = l[i+2:]
	}
	l = strings.TrimLeft(l, ":*-✅☑ ")
	for _, p := range []string{"1. ", "EMERGING (2 obs):", "EMERGING (1 obs):"} {
		l = strings.TrimPrefix(l, p)
	}
	return strings.TrimSpace(l)
}

// TestAddRefusesLongText: a new text over the limit is refused with the
// limit in the error, never cut.
func TestAddRefusesLongText(t *testing.T) {
	is := is.New(t)
	f := memfile.New(memfile.DefaultConfig())
	_, _, err := f.Add(memfile.NewEntry{Tier: 2, Importance: 3, Date: fxToday, Text: strings.Repeat("a", memfile.MaxTextRunes+1)})
	is.True(err != nil)
	is.True(strings.Contains(err.Error(), fmt.Sprint(memfile.MaxTextRunes)))
	is.Equal(len(f.Entries(2)), 0)
	e, _, err := f.Add(memfile.NewEntry{Tier: 2, Importance: 3, Date: fxToday, Text: strings.Repeat("é", memfile.MaxTextRunes)})
	is.NoErr(err) // exactly at the limit
	is.Equal(e.Text, strings.Repeat("é", memfile.MaxTextRunes))
}

// TestContinuationMovesWithItsEntry: when a pass reorders Tier 2, the
// lines under an entry go with it.
func TestContinuationMovesWithItsEntry(t *testing.T) {
	is := is.New(t)
	body := "[IMPORTANCE:2] [TIMESTAMP:2026-11-28] Low first.\nIts second line.\n" +
		"[IMPORTANCE:4] [TIMESTAMP:2026-11-28] High second.\n  Its own detail.\n"
	f, _ := fxParseAll(t, fxDoc("", body, ""))
	out := fxModelPass(t, f)
	is.Equal(fxTexts(out, 2), []string{"High second.\nIts own detail.", "Low first.\nIts second line."})
	is.True(strings.Contains(string(memfile.Render(out)), "High second.\nIts own detail.\n\n[IMPORTANCE:2]"))
}

// TestUndatedEntryWithoutHeaderDate: with no Last Maintained date either,
// the first pass dates the entry that day, and says so.
func TestUndatedEntryWithoutHeaderDate(t *testing.T) {
	is := is.New(t)
	doc := strings.Replace(fxDoc("", "[IMPORTANCE:3] [TAGS:a]\nNo date here.\n", ""), "Last Maintained: 2026-11-28", "Last Maintained: YYYY-MM-DD", 1)
	f, w := fxParseAll(t, doc)
	is.True(hasWarning(w, 11, "the first pass gives it that day's date"))
	is.True(f.Entries(2)[0].Date.IsZero())
	// Render keeps it undated until a pass; it reads back the same.
	g, _ := fxParseAll(t, string(memfile.Render(f)))
	is.True(g.Entries(2)[0].Date.IsZero())
	out, rep := memfile.Maintain(f, goldenDay, memfile.DefaultConfig(), memfile.Options{})
	is.Equal(out.Entries(2)[0].Date, goldenDay)
	is.Equal(out.Entries(2)[0].Weight.String(), "3.0")
	is.True(slices.ContainsFunc(rep.Converted, func(s string) bool { return strings.Contains(s, "had no date") }))
}

// TestHandWrittenAndAutomaticPatternMerge: a pattern a model wrote and the
// automatic one for the same tag become one: the written sentence kept,
// the count the higher, the evidence joined.
func TestHandWrittenAndAutomaticPatternMerge(t *testing.T) {
	is := is.New(t)
	entries := fxEntry(3, "2026-11-27", "deploy", "Deployed.") + fxEntry(3, "2026-11-28", "deploy", "Deployed again.") + fxEntry(3, "2026-11-29", "deploy", "And again.")
	patterns := "[PATTERN:EMERGING] [OBSERVATIONS:2] [TAGS:deploy] [EVIDENCE:aaaa1111,bbbb2222] [ID:pauto]\nTag deploy recurs: 2 entries.\n\n" +
		"- EMERGING (2 obs): Deploys go out late in the week.\n"
	f, _ := fxParseAll(t, fxDoc("", entries, patterns))
	is.Equal(len(f.Patterns()), 2)
	out, rep := memfile.Maintain(f, goldenDay, memfile.DefaultConfig(), memfile.Options{})
	ps := out.Patterns()
	is.Equal(len(ps), 1)
	p := ps[0]
	is.Equal(p.ID, "pauto")
	is.Equal(p.Text, "Deploys go out late in the week.")
	is.Equal(p.Observations, 5) // the two it had counted, and the three entries
	is.Equal(p.Level, memfile.Developing)
	is.True(slices.ContainsFunc(rep.Converted, func(s string) bool { return strings.Contains(s, "now one") }))
}

// TestViewShowsUnreadLines: lines of Tier 2 and 3 that are not entries
// are in the view, marked unread with the ID that forgets them, and they
// count as items, so the footer never says all were shown when one was
// left out.
func TestViewShowsUnreadLines(t *testing.T) {
	is := is.New(t)
	body := fxEntry(3, "2026-11-28", "a", "An entry.") + "[IMPORTANCE:high] [TIMESTAMP:2026-11-28] Kept as a note.\n"
	f, w := fxParse(t, fxDoc("", body, "Musings on patterns.\n"))
	is.Equal(len(w), 2)
	notes := []*memfile.Note{f.Tiers[1].Blocks[1].Note, f.Tiers[2].Blocks[0].Note}

	view := memfile.ContextView(f, memfile.View{Limit: 10000})
	is.True(strings.Contains(view, "- unread, Tier 2 (note id "+memfile.NoteID(notes[0])+"): [IMPORTANCE:high] [TIMESTAMP:2026-11-28] Kept as a note."))
	is.True(strings.Contains(view, "- unread, Tier 3 (note id "+memfile.NoteID(notes[1])+"): Musings on patterns."))
	is.True(strings.Contains(view, "All 3 items shown"))

	// Room for everything but the last line: the footer says one is out.
	for limit := memfile.Length(view) - 1; limit > 0; limit-- {
		v := memfile.ContextView(f, memfile.View{Limit: limit})
		is.True(memfile.Length(v) <= limit)
		if strings.Count(v, "\n- ") < 3 && strings.Contains(v, "All ") {
			t.Fatalf("limit %d: the footer says all were shown:\n%s", limit, v)
		}
	}

	// Many unread lines take at most a fifth of the view: Tier 2 still
	// shows.
	var many strings.Builder
	for i := range 200 {
		fmt.Fprintf(&many, "note number %d with some words to fill the line\n\n", i)
	}
	g, _ := fxParse(t, fxDoc("", many.String()+fxEntry(3, "2026-11-28", "a", "The entry that must show."), ""))
	v := memfile.ContextView(g, memfile.View{Limit: 10000})
	is.True(strings.Contains(v, "The entry that must show."))
	is.True(strings.Contains(v, "items left out"))
}

// TestForgetNote: an unread line is removed by its note ID and archived
// word for word.
func TestForgetNote(t *testing.T) {
	is := is.New(t)
	f, _ := fxParse(t, fxDoc("", fxEntry(3, "2026-11-28", "a", "An entry.")+"[IMPORTANCE:high] Kept\n  as a note.\n", ""))
	note := f.Tiers[1].Blocks[1].Note
	a, ok := f.Remove(memfile.NoteID(note), "re-recorded")
	is.True(ok)
	is.Equal(a.Note.Lines, []string{"[IMPORTANCE:high] Kept", "  as a note."})
	is.Equal(len(f.Tiers[1].Blocks), 1)
	out := string(memfile.RenderArchived([]memfile.Removal{a}, goldenDay))
	is.True(strings.Contains(out, "> [IMPORTANCE:high] Kept\n>   as a note.\n"))
	recs, w := memfile.ParseArchive([]byte(memfile.ArchiveHeading + out))
	is.Equal(len(recs), 0) // not a record, and not an unreadable one either
	is.Equal(len(w), 0)
}
