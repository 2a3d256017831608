package memfile_test

// Benchmarks of the session-end pass, the work every hook does: parse the
// file, run Maintain, render it. Sizes are 100, 1,000 and 10,000 entries
// from fxGen (mixed importance, dates over 30 days, tags from a pool of
// fifteen). Cost should grow about linearly: each reports ns/entry, which
// stays about flat from 100 to 10,000 entries when it does (allocs/op
// divided by the entries likewise).
//
//	go test -run='^$' -bench=. -benchtime=20x ./memfile

import (
	"fmt"
	"testing"

	"github.com/bimri/bimri-hook/memfile"
)

var benchSizes = []int{100, 1000, 10000}

// benchConfig has budgets large enough that every entry stays in the file,
// so each size measures that many entries through every step.
func benchConfig() memfile.Config {
	cfg := memfile.DefaultConfig()
	cfg.Budgets = [3]int{1_000_000, 1_000_000, 1_000_000}
	cfg.TotalBudget = 3_000_000
	return cfg
}

func benchSizesRun(b *testing.B, run func(b *testing.B, data []byte)) {
	for _, n := range benchSizes {
		data := fxGen(n)
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			run(b, data)
			// Per entry, so linear growth reads as a flat column.
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/(float64(b.N)*float64(n)), "ns/entry")
		})
	}
}

func benchParse(b *testing.B, data []byte) *memfile.File {
	f, _, err := memfile.Parse(data)
	if err != nil {
		b.Fatal(err)
	}
	return f
}

// BenchmarkPass is the whole session-end pass: Parse, Maintain, Render.
func BenchmarkPass(b *testing.B) {
	cfg := benchConfig()
	benchSizesRun(b, func(b *testing.B, data []byte) {
		for b.Loop() {
			f := benchParse(b, data)
			out, _ := memfile.Maintain(f, fxToday, cfg, memfile.Options{CountSession: true})
			memfile.Render(out)
		}
	})
}

// BenchmarkPassDefaultBudget is the pass under the default profile, where
// the budget check archives most of a large file.
func BenchmarkPassDefaultBudget(b *testing.B) {
	cfg := memfile.DefaultConfig()
	benchSizesRun(b, func(b *testing.B, data []byte) {
		for b.Loop() {
			f := benchParse(b, data)
			out, _ := memfile.Maintain(f, fxToday, cfg, memfile.Options{CountSession: true})
			memfile.Render(out)
		}
	})
}

// BenchmarkDeepPass is the pass with deep maintenance.
func BenchmarkDeepPass(b *testing.B) {
	cfg := benchConfig()
	benchSizesRun(b, func(b *testing.B, data []byte) {
		f := benchParse(b, data)
		for b.Loop() {
			memfile.Maintain(f, fxToday, cfg, memfile.Options{Deep: true})
		}
	})
}

func BenchmarkParse(b *testing.B) {
	benchSizesRun(b, func(b *testing.B, data []byte) {
		for b.Loop() {
			benchParse(b, data)
		}
	})
}

// BenchmarkParseWritten is Parse of the file as a pass writes it (every
// entry with its ID and weight, Tier 2 in order), which is what a hook
// reads, where BenchmarkParse's generated entries have no IDs.
func BenchmarkParseWritten(b *testing.B) {
	cfg := benchConfig()
	cfg.Threshold = 0 // nothing pruned: the file keeps its n entries
	for _, n := range benchSizes {
		f, _, err := memfile.Parse(fxGen(n))
		if err != nil {
			b.Fatal(err)
		}
		out, _ := memfile.Maintain(f, fxToday, cfg, memfile.Options{})
		data := memfile.Render(out)
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				benchParse(b, data)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/(float64(b.N)*float64(n)), "ns/entry")
		})
	}
}

func BenchmarkMaintain(b *testing.B) {
	cfg := benchConfig()
	benchSizesRun(b, func(b *testing.B, data []byte) {
		f := benchParse(b, data)
		for b.Loop() {
			memfile.Maintain(f, fxToday, cfg, memfile.Options{CountSession: true})
		}
	})
}

func BenchmarkRender(b *testing.B) {
	cfg := benchConfig()
	benchSizesRun(b, func(b *testing.B, data []byte) {
		f, _ := memfile.Maintain(benchParse(b, data), fxToday, cfg, memfile.Options{})
		for b.Loop() {
			memfile.Render(f)
		}
	})
}

func BenchmarkContextView(b *testing.B) {
	cfg := benchConfig()
	benchSizesRun(b, func(b *testing.B, data []byte) {
		f, _ := memfile.Maintain(benchParse(b, data), fxToday, cfg, memfile.Options{})
		for b.Loop() {
			memfile.ContextView(f, memfile.View{Limit: cfg.ContextLimit})
		}
	})
}
