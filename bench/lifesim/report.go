//go:build bench

package main

// What lifesim prints: one line per session, the summary, the next
// session's serving, and under -verbose the run's speed.

import (
	"fmt"
	"io"
	"time"

	"github.com/bimri/bimri-hook/internal/inspect"
	"github.com/bimri/bimri-hook/memfile"
)

// simulationChartWidth is the width of the per-session budget bar.
const simulationChartWidth = 40

// PrintSession is one line per simulated session: the file's
// tokens per tier after SessionEnd, what left it, and a bar of the total
// against the total budget.
func PrintSession(w io.Writer, st SessionStats, cfg memfile.Config) error {
	t := st.Tokens
	_, err := fmt.Fprintf(w, "session %4d  %s  T1 %4d  T2 %4d  T3 %4d  total %5d/%d %s  archived %d\n",
		st.Number, st.Date.Format(inspect.DateLayout), t.Tiers[0], t.Tiers[1], t.Tiers[2], t.Total, cfg.TotalBudget,
		inspect.Bar(t.Total, cfg.TotalBudget, simulationChartWidth), st.Archived)
	return err
}

// PrintSummary is the one line that ends a simulation.
func PrintSummary(w io.Writer, stats []SessionStats, sim Simulation) error {
	peak, context, archived := 0, 0, 0
	for _, st := range stats {
		peak = max(peak, st.PeakTotal)
		context = max(context, st.Context)
		archived += st.Archived
	}
	_, err := fmt.Fprintf(w, "%d sessions (seed %d, profile %s, %d a day): largest total ~%d of %d tokens; largest context %d of %d characters; %d archived\n",
		len(stats), sim.Seed, sim.Config.Profile, sim.PerDay, peak, sim.Config.TotalBudget, context, sim.Config.ContextLimit, archived)
	return err
}

// PrintServing says how the memory serves the session after the run.
func PrintServing(w io.Writer, sv Serving, sim Simulation) error {
	cfg, name := sim.Config, memfile.MemoryName
	_, err := fmt.Fprintf(w, "the next session: decisions (importance 5): %d of %d in %s (as recorded, promoted to Tier 1, or in the summary that replaced them), %d in the SessionStart view, %d still worded there; "+
		"recorded in the last two days (importance 2+): %d of %d in %s, %d in the view; lost: %d of %d recorded (the rest are in %s or its archive); "+
		"%s ~%d of %d tokens (Tier 1 ~%d of %d, Tier 2 ~%d of %d); context %d of %d characters, Tier 1 and the decisions %d of the %d they have; "+
		"the agent consolidated %d times (%d of them decisions), promoted %d decisions, named %d patterns when asked\n",
		sv.DecisionsKept, sv.Decisions, name, sv.DecisionsShown, sv.DecisionsWorded,
		sv.RecentKept, sv.Recent, name, sv.RecentShown,
		len(sv.Lost), sv.Recorded, name,
		name, sv.Tokens.Total, cfg.TotalBudget, sv.Tokens.Tiers[0], cfg.Budgets[0], sv.Tokens.Tiers[1], cfg.Budgets[1],
		sv.Context, cfg.ContextLimit, sv.Lasting, sv.Room,
		sv.Consolidated, sv.FoldedDecisions, sv.Promoted, sv.Named)
	return err
}

// PrintTime reports, under --verbose, how fast the run was.
func PrintTime(w io.Writer, sessions int, took time.Duration) {
	fmt.Fprintf(w, "lifesim: %d sessions in %s (%s a session)\n", sessions, took.Round(time.Millisecond), (took / time.Duration(max(sessions, 1))).Round(time.Microsecond))
}
