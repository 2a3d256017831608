package memfile_test

// Golden files, as Go's cmd/gofmt does them: each testdata/*.input (and the
// hand-written testdata/protocol-hand.md) is parsed, given one session-end
// pass on a fixed day, and rendered; the result must equal the .golden file
// beside it. Run `go test ./memfile -run Golden -update` to rewrite the
// golden files after a deliberate change, and read the diff.

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bimri/bimri-hook/memfile"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// goldenDay is the fixed "today" of every golden pass.
var goldenDay = fxDay("2026-11-29")

func goldenInputs(t *testing.T) []string {
	t.Helper()
	in, err := filepath.Glob("testdata/*.input")
	if err != nil {
		t.Fatal(err)
	}
	in = append(in, "testdata/protocol-hand.md")
	for _, want := range []string{"template", "messy", "prune", "budget", "patterns", "protocol-hand", "keywords"} {
		found := false
		for _, p := range in {
			found = found || strings.HasPrefix(filepath.Base(p), want+".")
		}
		if !found {
			t.Errorf("golden input %q is missing", want)
		}
	}
	return in
}

func goldenPass(t *testing.T, data []byte) ([]byte, memfile.Report) {
	t.Helper()
	f, _, err := memfile.Parse(data)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	out, rep := memfile.Maintain(f, goldenDay, memfile.DefaultConfig(), memfile.Options{CountSession: true})
	return memfile.Render(out), rep
}

func TestGolden(t *testing.T) {
	for _, in := range goldenInputs(t) {
		name := strings.TrimSuffix(filepath.Base(in), filepath.Ext(in))
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := goldenPass(t, data)
			golden := strings.TrimSuffix(in, filepath.Ext(in)) + ".golden"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("output differs from %s:\n%s", golden, lineDiff(string(want), string(got)))
			}

			// Idempotence: the golden file is canonical, so reading and
			// writing it gives the same bytes...
			f, _, err := memfile.Parse(want)
			if err != nil {
				t.Fatalf("golden does not parse: %v", err)
			}
			if again := memfile.Render(f); !bytes.Equal(again, want) {
				t.Errorf("Render(Parse(golden)) differs:\n%s", lineDiff(string(want), string(again)))
			}
			// ...and a second pass on the same day, not counting a
			// session, changes nothing at all.
			out, rep := memfile.Maintain(f, goldenDay, memfile.DefaultConfig(), memfile.Options{})
			if again := memfile.Render(out); !bytes.Equal(again, want) {
				t.Errorf("a second pass changed the file:\n%s", lineDiff(string(want), string(again)))
			}
			if len(rep.Removed) != 0 || len(rep.Patterns) != 0 {
				t.Errorf("a second pass reported changes: %d archived, %v", len(rep.Removed), rep.Patterns)
			}
		})
	}
}

// TestGoldenFacts checks, independently of the golden bytes, the facts each
// golden case exists to show, so that an -update cannot quietly accept a
// broken rule.
func TestGoldenFacts(t *testing.T) {
	read := func(name string) (*memfile.File, memfile.Report) {
		data, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		f, _ := fxParse(t, string(data))
		return memfile.Maintain(f, goldenDay, memfile.DefaultConfig(), memfile.Options{CountSession: true})
	}
	t.Run("template", func(t *testing.T) {
		f, rep := read("template.input")
		if f.Header.Sessions != 1 || len(rep.Removed) != 0 || len(f.Entries(2)) != 0 {
			t.Errorf("sessions %d, archived %d", f.Header.Sessions, len(rep.Removed))
		}
	})
	t.Run("prune", func(t *testing.T) {
		f, rep := read("prune.input")
		var kept []string
		for _, e := range f.Entries(2) {
			kept = append(kept, e.Weight.String())
		}
		if got := strings.Join(kept, " "); got != "4.0 4.0 3.0 1.6 1.5" {
			t.Errorf("kept weights %s", got)
		}
		if len(rep.Removed) != 4 {
			t.Errorf("archived %d, want 4", len(rep.Removed))
		}
		for _, e := range f.Entries(2) {
			if strings.Contains(e.Text, "archived") {
				t.Errorf("kept %q", e.Text)
			}
		}
		if !rep.DeepDue || f.Header.Sessions != 10 {
			t.Errorf("session 10 should make deep maintenance due")
		}
	})
	t.Run("budget", func(t *testing.T) {
		f, rep := read("budget.input")
		est := memfile.Estimate(f)
		cfg := memfile.DefaultConfig()
		if est.Tiers[1] > cfg.Budgets[1] || est.Total > cfg.TotalBudget {
			t.Errorf("over budget: %+v", est)
		}
		over := 0
		for _, a := range rep.Removed {
			if strings.Contains(a.Reason, "budget") {
				over++
			}
		}
		if over == 0 {
			t.Errorf("the budget case archived nothing for budget")
		}
	})
	t.Run("patterns", func(t *testing.T) {
		f, _ := read("patterns.input")
		want := map[string]struct {
			level memfile.Level
			obs   int
			text  string
		}{
			"testing": {memfile.Developing, 3, "The user adds tests before touching payment logic."},
			"api":     {memfile.Established, 8, "Tag api recurs: 8 entries from 2026-11-10 to 2026-11-29."},
			"deploy":  {memfile.Emerging, 2, "Tag deploy recurs: 2 entries from 2026-11-28 to 2026-11-29."},
			"ci":      {memfile.Emerging, 2, ""},
			"docs":    {memfile.Emerging, 2, ""},
		}
		for tag, w := range want {
			p := fxPatternByTag(f, tag)
			if p == nil {
				t.Errorf("no pattern for %s", tag)
				continue
			}
			if p.Level != w.level || p.Observations != w.obs || (w.text != "" && p.Text != w.text) {
				t.Errorf("%s: %s %d %q", tag, p.Level, p.Observations, p.Text)
			}
		}
		for _, tag := range []string{"auto", "checkpoint", "refunds", "lint", "purpose"} {
			if fxPatternByTag(f, tag) != nil {
				t.Errorf("unexpected pattern for %s", tag)
			}
		}
		if p := f.FindPattern("papidocs"); p == nil || p.Observations != 2 || p.Text != "API changes come with docs in the same session." {
			t.Errorf("api+docs pattern: %+v", p)
		}
		patterns := f.Patterns()
		if patterns[0].Level != memfile.Established {
			t.Errorf("strongest pattern first, got %s", patterns[0].Level)
		}
	})
}

// lineDiff shows the first lines that differ, enough to see what changed.
func lineDiff(want, got string) string {
	w := strings.Split(want, "\n")
	g := strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < max(len(w), len(g)) && shown < 12; i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			b.WriteString("line " + itoa(i+1) + ":\n  want: " + wl + "\n  got:  " + gl + "\n")
			shown++
		}
	}
	return b.String()
}
