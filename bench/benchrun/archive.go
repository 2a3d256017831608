//go:build bench && unix

package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"time"

	"github.com/bimri/bimri-hook/memfile"
)

// The archive bar (issue 31): an archive that grew for years (50,000
// records) may add at most this much to SessionEnd, and a prompt's recall
// on it stays within this many times the go floor and, at its 95th
// percentile, under an absolute time.
const (
	archiveEndBar    = 1.25
	archivePromptBar = 4.0
	archivePromptP95 = 20 * time.Millisecond // issue 32, on this machine
)

// archiveBenches are SessionEnd (first of the day) and UserPromptSubmit
// (steady, recall index built) on the memory of src, with its large
// archive and, beside them, the same bimri.md with no archive at all, so
// the difference is the archive's alone.
func archiveBenches(src string, hook []string, newWorkspace func(name, src string) (*workspace, error), event func(*workspace, string, map[string]any) []byte) ([]*bench, error) {
	start := map[string]any{"source": "startup"}
	prompt := map[string]any{"prompt": recallPrompt}
	var out []*bench
	for _, archived := range []bool{true, false} {
		label := "archive"
		if !archived {
			label = "bare"
		}
		first, err := newWorkspace(label+"-first", src)
		if err != nil {
			return nil, err
		}
		steady, err := newWorkspace(label+"-steady", src)
		if err != nil {
			return nil, err
		}
		if !archived {
			for _, w := range []*workspace{first, steady} {
				delete(w.files, memfile.ArchiveName)
				if err := w.reset(); err != nil {
					return nil, err
				}
			}
		}
		if err := primeSteady(steady, hook, event(steady, "SessionStart", start)); err != nil {
			return nil, err
		}
		if archived {
			if err := primeRecallIndex(steady, hook, event(steady, "UserPromptSubmit", prompt)); err != nil {
				return nil, err
			}
		}
		if err := steady.save(); err != nil {
			return nil, err
		}
		cat := &bench{name: "cat " + label + " bimri.md", ws: first, args: []string{"cat", filepath.Join(first.root, memfile.MemoryName)}}
		ask := &bench{name: label + " UserPromptSubmit", ws: steady, args: hook, stdin: event(steady, "UserPromptSubmit", prompt), cat: cat}
		if archived {
			if err := steady.reset(); err != nil {
				return nil, err
			}
			if err := checkRecalls(ask); err != nil {
				return nil, err
			}
		}
		out = append(out, cat,
			&bench{name: label + " SessionEnd", ws: first, args: hook, stdin: event(first, "SessionEnd", map[string]any{"reason": "other"}), cat: cat},
			ask)
	}
	return out, nil
}

// reportArchive prints the archive's cost: SessionEnd with the archive
// against SessionEnd without it, and the prompt with the archive against
// the go floor, each beside its bar, from the medians of the same run.
func reportArchive(w io.Writer, benches []*bench) {
	find := func(name string) *bench {
		for _, b := range benches {
			if b.name == name {
				return b
			}
		}
		return nil
	}
	end, bareEnd, ask, floor := find("archive SessionEnd"), find("bare SessionEnd"), find("archive UserPromptSubmit"), find("go floor")
	if end == nil {
		return
	}
	verdict := func(r, bar float64) string {
		if r > bar {
			return "OVER"
		}
		return "within"
	}
	fmt.Fprintf(w, "\nthe archive (%d records), same run:\n", archiveRecords(end.ws))
	if bareEnd != nil {
		r := ratio(end.times, bareEnd.times)
		fmt.Fprintf(w, "SessionEnd with it / without it: %s / %s = %.2fx (bar %.2fx): %s; CPU %.2fx\n", ms(median(end.times)), ms(median(bareEnd.times)), r, archiveEndBar, verdict(r, archiveEndBar), ratio(end.cpu, bareEnd.cpu))
	}
	if ask != nil && floor != nil {
		r := ratio(ask.times, floor.times)
		fmt.Fprintf(w, "UserPromptSubmit (recall) with it / go floor: %s / %s = %.2fx (bar %.1fx): %s; CPU %.2fx\n", ms(median(ask.times)), ms(median(floor.times)), r, archivePromptBar, verdict(r, archivePromptBar), ratio(ask.cpu, floor.cpu))
	}
	if ask != nil {
		// Issue 32's bar is absolute, so it is only a verdict on a quiet machine.
		p95 := percentile(ask.times, 95)
		fmt.Fprintf(w, "UserPromptSubmit (recall) with it, p95 of %d runs: %s (bar %s): %s\n", len(ask.times), ms(p95), ms(archivePromptP95), verdict(float64(p95), float64(archivePromptP95)))
	}
}

// percentile is the nearest-rank p-th percentile of ds: the smallest time
// at least p percent of the runs took no longer than.
func percentile(ds []time.Duration, p int) time.Duration {
	s := slices.Sorted(slices.Values(ds))
	return s[(len(s)*p+99)/100-1]
}

func ratio(a, b []time.Duration) float64 { return float64(median(a)) / float64(median(b)) }

func archiveRecords(w *workspace) int {
	recs, _ := memfile.ParseArchive(w.files[memfile.ArchiveName])
	return len(recs)
}
