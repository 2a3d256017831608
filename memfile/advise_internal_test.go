package memfile

import (
	"testing"
	"time"

	"github.com/matryer/is"
)

// SessionStart advises on the file its pass left with the tokens the pass
// reported (AdviseEstimated) instead of estimating the file again: the
// advice must be Advise's, whatever the budgets made the pass archive and
// whether the advice reaches its consolidation and promotion steps.
func TestAdviseEstimatedIsAdvise(t *testing.T) {
	is := is.New(t)
	today := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	compared, past := 0, 0
	for _, parsed := range parsedTestdata(t) {
		for _, budgets := range [][4]int{{6000, 6000, 6000, 18000}, {400, 300, 300, 1000}, {50, 40, 30, 100}} {
			cfg := DefaultConfig()
			cfg.Budgets = [3]int{budgets[0], budgets[1], budgets[2]}
			cfg.TotalBudget = budgets[3]
			out, rep := Maintain(parsed.f, today, cfg, Options{})
			want := Advise(out, today, cfg)
			is.Equal(AdviseEstimated(out, today, cfg, rep.Tokens), want) // parsed.name
			if want.Tier2*100 >= cfg.Budgets[1]*adviseAt {
				past++ // Tier 2 past 90%: consolidation and promotion weighed
			}
			compared++
		}
	}
	is.True(compared > 20)
	is.True(past > 5)
}
