//go:build bench

package main

// What lifesim prints: one line per session, the summary, the next
// session's serving (a few short lines each), and under -verbose the run's speed.

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
		st.Number, st.Date.Format(time.DateOnly), t.Tiers[0], t.Tiers[1], t.Tiers[2], t.Total, cfg.TotalBudget,
		inspect.Bar(t.Total, cfg.TotalBudget, simulationChartWidth), st.Archived)
	return err
}

// PrintSummary says, after the session lines, what the run was and how
// large the memory grew: plain words, one figure to a phrase.
func PrintSummary(w io.Writer, stats []SessionStats, sim Simulation) error {
	peak, context, archived := 0, 0, 0
	for _, st := range stats {
		peak = max(peak, st.PeakTotal)
		context = max(context, st.Context)
		archived += st.Archived
	}
	_, err := fmt.Fprintf(w, "%d sessions lived (seed %d, profile %s, %d a day).\n"+
		"At its largest %s held ~%d of its %d tokens, and the session-start context %d of %d characters; %d entries went to the archive.\n",
		len(stats), sim.Seed, sim.Config.Profile, sim.PerDay,
		memfile.MemoryName, peak, sim.Config.TotalBudget, context, sim.Config.ContextLimit, archived)
	return err
}

// PrintServing says how the memory serves the session after the run, a
// line for each thing the next session needs.
func PrintServing(w io.Writer, sv Serving, sim Simulation) error {
	cfg, name := sim.Config, memfile.MemoryName
	_, err := fmt.Fprintf(w, "What the next session gets:\n"+
		"  decisions (importance 5): %d of %d kept in %s (as recorded, moved to Tier 1, or in a summary), %d shown at session start, %d of them in their own words\n"+
		"  entries of the last two days (importance 2 or more): %d of %d kept, %d shown\n"+
		"  lost: %d of the %d entries recorded (the others are in %s or its archive)\n"+
		"  %s: ~%d of %d tokens (Tier 1 ~%d of %d, Tier 2 ~%d of %d)\n"+
		"  the context: %d of %d characters; Tier 1 and the decisions use %d of the %d set aside for them\n"+
		"  the simulated agent consolidated %d times (%d of them decisions), moved %d decisions to Tier 1, named %d patterns when asked\n",
		sv.DecisionsKept, sv.Decisions, name, sv.DecisionsShown, sv.DecisionsWorded,
		sv.RecentKept, sv.Recent, sv.RecentShown,
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
