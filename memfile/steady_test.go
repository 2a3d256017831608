package memfile_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/bimri/bimri-hook/memfile"
)

// A plain pass over what a pass left on the same day changes nothing, so
// a hook that runs it again writes nothing. Checked over generated files of every size the benchmarks use, every
// golden input, both a tight and a roomy config, and whatever options the
// first pass had.
func TestPassIdempotent(t *testing.T) {
	inputs := map[string][]byte{}
	for _, n := range []int{1, 10, 100, 1000} {
		inputs[fmt.Sprintf("fxGen(%d)", n)] = fxGen(n)
	}
	paths, err := filepath.Glob("testdata/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		if data, err := os.ReadFile(p); err == nil {
			inputs[p] = data
		}
	}
	tight := memfile.DefaultConfig()
	tight.Budgets = [3]int{200, 300, 100}
	tight.TotalBudget = 500
	configs := map[string]memfile.Config{"default": memfile.DefaultConfig(), "roomy": benchConfig(), "tight": tight}
	options := []memfile.Options{{}, {CountSession: true}, {Deep: true}}
	checked := 0
	for name, data := range inputs {
		f, _, err := memfile.Parse(data)
		if err != nil {
			continue
		}
		for cfgName, cfg := range configs {
			for _, opt := range options {
				once, _ := memfile.Maintain(f, fxToday, cfg, opt)
				first := memfile.Render(once)
				again, _, err := memfile.Parse(first)
				if err != nil {
					t.Fatalf("%s: a pass's output does not parse: %v", name, err)
				}
				twice, rep := memfile.Maintain(again, fxToday, cfg, memfile.Options{})
				if second := memfile.Render(twice); !bytes.Equal(first, second) {
					t.Errorf("%s, %s config, first pass %+v: a second plain pass on the same day changed the file", name, cfgName, opt)
				}
				if len(rep.Removed) > 0 || len(rep.Patterns) > 0 {
					t.Errorf("%s, %s config: a second pass reported changes: %s", name, cfgName, rep.Summary())
				}
				checked++
			}
		}
	}
	if checked < 50 {
		t.Fatalf("only %d cases checked", checked)
	}
}

// FuzzPassIdempotent: for whatever Parse accepts, a plain pass over a
// pass's output on the same day renders the same bytes, under a tight and
// the default config.
func FuzzPassIdempotent(f *testing.F) {
	addTestdataSeeds(f)
	tight := memfile.DefaultConfig()
	tight.Budgets = [3]int{200, 300, 100}
	tight.TotalBudget = 500
	f.Fuzz(func(t *testing.T, data []byte) {
		file, _, err := memfile.Parse(data)
		if err != nil {
			return
		}
		for _, cfg := range []memfile.Config{memfile.DefaultConfig(), tight} {
			for _, opt := range []memfile.Options{{}, {CountSession: true}, {Deep: true}} {
				once, _ := memfile.Maintain(file, fxToday, cfg, opt)
				first := memfile.Render(once)
				again, _, err := memfile.Parse(first)
				if err != nil {
					t.Fatalf("a pass's output does not parse: %v", err)
				}
				twice, _ := memfile.Maintain(again, fxToday, cfg, memfile.Options{})
				if second := memfile.Render(twice); !bytes.Equal(first, second) {
					t.Fatalf("a second plain pass changed the file:\n%s", lineDiff(string(first), string(second)))
				}
			}
		}
	})
}
