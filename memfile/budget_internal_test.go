package memfile

import (
	"testing"
	"time"
)

// The pass reports the tokens its budget check counted down instead of
// estimating the file again: they must be the estimate of the file it
// leaves, whatever the budgets made it archive.
func TestPassTokensAreTheEstimate(t *testing.T) {
	today := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	checked := 0
	for _, parsed := range parsedTestdata(t) {
		name, f := parsed.name, parsed.f
		for _, budgets := range [][4]int{{6000, 6000, 6000, 18000}, {50, 40, 30, 100}, {1000, 1000, 1, 500}, {1, 1, 1, 1}} {
			cfg := DefaultConfig()
			cfg.Budgets = [3]int{budgets[0], budgets[1], budgets[2]}
			cfg.TotalBudget = budgets[3]
			for _, opt := range []Options{{}, {CountSession: true, Deep: true}} {
				out, rep := Maintain(f, today, cfg, opt)
				if want := Estimate(out); rep.Tokens != want {
					t.Fatalf("%s, budgets %v: the pass reports %+v, the file it leaves is %+v", name, budgets, rep.Tokens, want)
				}
				checked++
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d passes checked", checked)
	}
}
