package memfile_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/privacy"
)

// addTestdataSeeds adds every file in testdata (not the fuzz corpus) as a
// seed, so each golden input and output is a starting point.
func addTestdataSeeds(f *testing.F) {
	paths, err := filepath.Glob("testdata/*")
	if err != nil {
		f.Fatal(err)
	}
	n := 0
	for _, p := range paths {
		if fi, err := os.Stat(p); err != nil || fi.IsDir() {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		n++
	}
	if n < 10 {
		f.Fatalf("only %d seed files in testdata", n)
	}
	// A few small shapes the files do not have.
	for _, s := range []string{
		"",
		"# BIMRI Memory\n",
		"[IMPORTANCE:3] [TIMESTAMP:2026-11-20]\n\nsome text\n# BIMRI Memory\n",
		"# BIMRI Memory\n## Tier 2\n[IMPORTANCE:3] [TIMESTAMP:2026-11-20]\n[_X:1] hi\n",
		"# BIMRI Memory\nnote\r\r\n",
		"<!-- BIMRI v2 | Sessions: 1 -->\n<!-- END BIMRI -->\n\n\n",
		// Model-written shapes (testdata/model-written.input has them all).
		"# BIMRI Memory\n## Tier 2\n- **[IMPORTANCE:3]** [TIMESTAMP:Nov 4, 2026]\n  body\n  more\n- [IMPORTANCE:2] x\n",
		"# BIMRI Memory\n## Tier 3\n- EMERGING (2 obs): a\n**DEVELOPING (3 obs)** b #c\n[CONFIDENCE:ESTABLISHED] d\n",
		"<!-- BIMRI v2 | Last Maintained: YYYY-MM-DD | Session: 3 (x) -->\n# BIMRI Memory\n## Tier 1\n✅ [IMPORTANCE:4] undated\n\x01ESTABLISHED: x\n<!-- END BIMRI -->\n",
	} {
		f.Add([]byte(s))
	}
}

// FuzzRoundTrip: whatever Parse accepts renders to a canonical file that
// reads back to itself byte for byte; a pass never panics and its output is
// canonical too; the context view never exceeds its limit.
func FuzzRoundTrip(f *testing.F) {
	addTestdataSeeds(f)
	day := fxDay("2026-11-29")
	cfg := memfile.DefaultConfig()
	f.Fuzz(func(t *testing.T, data []byte) {
		file, _, err := memfile.Parse(data)
		if err != nil {
			if !errors.Is(err, memfile.ErrUnreadable) {
				t.Fatalf("Parse error is not ErrUnreadable: %v", err)
			}
			if file != nil {
				t.Fatal("Parse returned a file with an error")
			}
			return
		}
		y := memfile.Render(file)
		canonical(t, "Render(Parse(x))", y)

		for _, opt := range []memfile.Options{{CountSession: true}, {Deep: true}} {
			out, _ := memfile.Maintain(file, day, cfg, opt)
			r := memfile.Render(out)
			canonical(t, "Render(Maintain(Parse(x)))", r)
			if !bytes.Equal(memfile.Render(file), y) {
				t.Fatal("Maintain changed its input")
			}
		}
		for _, limit := range []int{0, 57, 300, 2000} {
			if v := memfile.ContextView(file, memfile.View{Limit: limit}); memfile.Length(v) > limit {
				t.Fatalf("context view of %d units over a limit of %d", memfile.Length(v), limit)
			}
		}
	})
}

// canonical checks that y parses and renders to exactly itself.
func canonical(t *testing.T, what string, y []byte) {
	t.Helper()
	g, _, err := memfile.Parse(y)
	if err != nil {
		t.Fatalf("%s does not parse: %v\n%q", what, err, y)
	}
	if z := memfile.Render(g); !bytes.Equal(z, y) {
		t.Fatalf("%s is not canonical:\n%s", what, lineDiff(string(y), string(z)))
	}
}

// FuzzNeutralize: neutralised text is idempotent and cannot change the
// structure of the file it is written into.
func FuzzNeutralize(f *testing.F) {
	// "0\u00ad0": Add drops an invisible character beside ASCII
	// (privacy.Clean) before it neutralises, so the text it stores is not
	// always Neutralize's.
	for _, s := range []string{"plain", "## Tier 1: Core Intelligence", "<!-- END BIMRI -->", "a\nb", "[TAGS:x] y", "[\u00a0ID:x]", "- [ſ:x]", "#", "<!---->", "0\u00ad0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if n := memfile.Neutralize(s); memfile.Neutralize(n) != n {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, n, memfile.Neutralize(n))
		}
		n := memfile.Neutralize(privacy.Clean(s)) // what Add stores
		file := memfile.New(memfile.DefaultConfig())
		e, _, err := file.Add(memfile.NewEntry{Tier: 2, Importance: 3, Date: fxToday, Text: s})
		if err != nil {
			if n != "" && utf8.RuneCountInString(n) <= memfile.MaxTextRunes {
				t.Fatalf("Add refused %q: %v", s, err)
			}
			return
		}
		y := memfile.Render(file)
		g, w, err := memfile.Parse(y)
		if err != nil || len(w) > 0 {
			t.Fatalf("a file holding %q: %v %v", e.Text, err, w)
		}
		if es := g.Entries(2); len(es) != 1 || es[0].Text != n || es[0].ID != e.ID || len(g.Entries(1)) != 0 || len(g.Patterns()) != 0 {
			t.Fatalf("a file holding %q reads back differently:\n%s", n, y)
		}
		canonical(t, "a file with one entry", y)
	})
}
