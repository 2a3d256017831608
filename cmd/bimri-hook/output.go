package main

// What the memory commands (remember, forget, show, why, forecast,
// maintain, search, restore, simulate) print. Other commands' reports are
// printed by their packages: internal/install/report.go, internal/doctor;
// errors are worded where they arise and printed once by run. What the
// model reads is in hooks/messages.go and memfile/context.go.

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/hooks"
	"github.com/bimri/bimri-hook/internal/inspect"
	"github.com/bimri/bimri-hook/internal/simulate"
	"github.com/bimri/bimri-hook/memfile"
)

// dateLayout is how every command writes a day.
const dateLayout = inspect.DateLayout

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func printRemembered(w io.Writer, e *memfile.Entry, tier int, isNew bool, path, notice string) {
	verb := "recorded"
	if !isNew {
		verb = "already recorded today; updated"
	}
	fmt.Fprintf(w, "%s %s in Tier %d of %s (importance %d, weight %s)\n", verb, e.ID, tier, path, e.Importance, e.Weight)
	if notice != "" {
		fmt.Fprintln(w, notice)
	}
}

func printConsolidated(w io.Writer, e *memfile.Entry, tier int, gone []memfile.Archived, path, archive, notice string) {
	ids := make([]string, len(gone))
	for i, a := range gone {
		ids[i] = a.Entry.ID
	}
	fmt.Fprintf(w, "consolidated %s into %s in Tier %d of %s (importance %d, %s, tags %s, weight %s); the originals are in %s\n",
		strings.Join(ids, ", "), e.ID, tier, path, e.Importance, e.Date.Format("2006-01-02"), strings.Join(e.Tags, ","), e.Weight, archive)
	if notice != "" {
		fmt.Fprintln(w, notice)
	}
}

func printPromoted(w io.Writer, e *memfile.Entry, path, notice string) {
	fmt.Fprintf(w, "moved %s to Tier 1 of %s, where it never decays (importance %d): %s\n", e.ID, path, e.Importance, e.Text)
	if notice != "" {
		fmt.Fprintln(w, notice)
	}
}

func printPattern(w io.Writer, p *memfile.Pattern, isNew bool, path, notice string) {
	if isNew {
		fmt.Fprintf(w, "recorded pattern %s [%s] in Tier 3 of %s; the next pass counts the entries that carry its tags\n", p.ID, strings.Join(p.Tags, ","), path)
	} else {
		fmt.Fprintf(w, "pattern %s [%s] in Tier 3 of %s now says: %s\n", p.ID, strings.Join(p.Tags, ","), path, p.Text)
	}
	if notice != "" {
		fmt.Fprintln(w, notice)
	}
}

func printForgotten(w io.Writer, a memfile.Archived, archive string) {
	id, text := "", ""
	if a.Entry != nil {
		id, text = a.Entry.ID, a.Entry.Text
	} else if a.Pattern != nil {
		id, text = a.Pattern.ID, a.Pattern.Text
	} else if a.Note != nil {
		id, text = memfile.NoteID(a.Note), strings.Join(a.Note.Lines, " / ")
	}
	fmt.Fprintf(w, "moved %s to %s: %s\n", id, archive, text)
}

func printShow(w io.Writer, s inspect.Snapshot, path string) {
	fmt.Fprintf(w, "%s: %s, last maintained %s, today %s\n", path, plural(s.Sessions, "session", "sessions"), orNever(s.LastMaintained), s.Today)
	for tier := 1; tier <= 2; tier++ {
		fmt.Fprintf(w, "\nTier %d\n", tier)
		n := 0
		for _, e := range s.Entries {
			if e.Tier != tier {
				continue
			}
			n++
			fmt.Fprintf(w, "  %s  imp %d  %s  age %2dd  fresh %.2f  weight %.1f  [%s]\n      %s\n",
				e.ID, e.Importance, e.Date, e.AgeDays, e.Freshness, e.Weight, strings.Join(e.Tags, ","), e.Text)
		}
		if n == 0 {
			fmt.Fprintln(w, "  (no entries)")
		}
	}
	fmt.Fprintln(w, "\nTier 3 patterns")
	if len(s.Patterns) == 0 {
		fmt.Fprintln(w, "  (no patterns)")
	}
	for _, p := range s.Patterns {
		fmt.Fprintf(w, "  %s  %-11s  %d obs  %s..%s  [%s]\n      %s\n", p.ID, p.Level, p.Observations, p.First, p.Last, strings.Join(p.Tags, ","), p.Text)
	}
	fmt.Fprintln(w, "\nTokens (estimated)")
	for _, k := range []string{"tier1", "tier2", "tier3", "total"} {
		b := s.Tokens[k]
		fmt.Fprintf(w, "  %-6s ~%5d of %5d  %s\n", k, b.Used, b.Budget, bar(b.Used, b.Budget, 20))
	}
	for _, warning := range s.Warnings {
		fmt.Fprintf(w, "warning: %s\n", warning)
	}
}

// plural writes a count with its noun: "1 entry", "2 entries".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func orNever(s string) string {
	if s == "" {
		return "never"
	}
	return s
}

// bar draws used/total as a fixed-width terminal bar.
func bar(used, total, width int) string {
	if total <= 0 {
		return ""
	}
	n := min(used*width/total, width)
	over := ""
	if used > total {
		over = " OVER"
	}
	return "[" + strings.Repeat("#", n) + strings.Repeat(".", width-n) + "]" + over
}

func printWhy(w io.Writer, x inspect.Explanation) {
	e, s := x.Entry, x.Scoring
	fmt.Fprintf(w, "%s (Tier %d): %s\n", e.ID, s.Tier, e.Text)
	fmt.Fprintf(w, "  importance %d, recorded %s, %d days ago\n", e.Importance, e.Date.Format(dateLayout), s.Days)
	if s.Tier == 1 {
		fmt.Fprintf(w, "  weight = importance = %s (Tier 1 never decays)\n", s.Weight)
	} else {
		fmt.Fprintf(w, "  freshness for %d days = %.2f (lookup table)\n", s.Days, float64(s.Freshness)/100)
		fmt.Fprintf(w, "  weight = %d x %.2f = %s\n", e.Importance, float64(s.Freshness)/100, s.Raw)
		if s.Floored {
			fmt.Fprintf(w, "  floor: importance %d never weighs less than %s, so weight = %s\n", e.Importance, s.Weight, s.Weight)
		}
	}
	fmt.Fprintf(w, "  rule: %s\n", s.Rule)
	fmt.Fprintf(w, "  fate: %s\n", x.Fate)
	if x.Leaves != nil && x.Leaves.Days > 0 {
		fmt.Fprintf(w, "  the threshold archives it on %s (in %d days, weight %s)\n", x.Leaves.Day.Format(dateLayout), x.Leaves.Days, x.Leaves.To)
	}
}

func printWhyPattern(w io.Writer, p *memfile.Pattern) {
	fmt.Fprintf(w, "%s (Tier 3 pattern): %s\n", p.ID, p.Text)
	fmt.Fprintf(w, "  %d observations -> %s (%s)\n", p.Observations, p.Level, memfile.LevelRanges("%[2]s %[1]s", ", "))
	fmt.Fprintf(w, "  tags [%s]; evidence (newest %d): %s\n", strings.Join(p.Tags, ","), len(p.Evidence), strings.Join(p.Evidence, ", "))
	if p.Level == memfile.Emerging {
		fmt.Fprintln(w, "  fate: EMERGING patterns are the first archived when Tier 3 is over budget")
	} else {
		fmt.Fprintln(w, "  fate: kept; counts never go down, so it keeps its level")
	}
}

func printForecast(w io.Writer, deps []memfile.Departure, days int, threshold memfile.Weight) {
	if len(deps) == 0 {
		fmt.Fprintf(w, "no Tier 2 entry falls below the threshold %s in the next %d days\n", threshold, days)
		return
	}
	fmt.Fprintf(w, "entries the threshold %s archives in the next %d days (budget evictions not included):\n", threshold, days)
	for _, d := range deps {
		when := "at the next pass"
		if d.Days > 0 {
			when = fmt.Sprintf("on %s (in %d days)", d.Day.Format(dateLayout), d.Days)
		}
		fmt.Fprintf(w, "  %s  weight %s -> %s  %s: %s\n", d.Entry.ID, d.From, d.To, when, d.Entry.Text)
	}
}

func printReport(w io.Writer, rep memfile.Report, dryRun bool) {
	head := "maintenance done"
	if dryRun {
		head = "dry run: nothing written; the pass would do this"
	}
	fmt.Fprintln(w, head)
	fmt.Fprintf(w, "  archived: %d\n", len(rep.Archived))
	for _, a := range rep.Archived {
		switch {
		case a.Entry != nil:
			fmt.Fprintf(w, "    %s (Tier %d) %s: %s\n", a.Entry.ID, a.Tier, a.Reason, a.Entry.Text)
		case a.Pattern != nil:
			fmt.Fprintf(w, "    %s (pattern) %s: %s\n", a.Pattern.ID, a.Reason, a.Pattern.Text)
		}
	}
	for _, c := range rep.Patterns {
		from := "new"
		if c.From != "" {
			from = string(c.From)
		}
		fmt.Fprintf(w, "  pattern %s [%s]: %s -> %s (%d obs)\n", c.ID, strings.Join(c.Tags, ","), from, c.To, c.Observations)
	}
	for i, t := range rep.Tokens.Tiers {
		fmt.Fprintf(w, "  tier %d: ~%d of %d tokens %s\n", i+1, t, rep.Budgets[i], bar(t, rep.Budgets[i], 20))
	}
	fmt.Fprintf(w, "  total: ~%d tokens\n", rep.Tokens.Total)
	if d := rep.Deep; d != nil {
		for _, m := range d.Merged {
			fmt.Fprintf(w, "  merged %s into %s\n", strings.Join(m.Removed, ", "), m.Kept)
		}
		for _, t := range d.DroppedTags {
			fmt.Fprintf(w, "  dropped tag %q from %s\n", t.Tag, t.ID)
		}
		if len(d.ReviewTier1) > 0 {
			fmt.Fprintf(w, "  for review: Tier 1 entries %s\n", strings.Join(d.ReviewTier1, ", "))
		}
		for _, g := range d.NearDuplicates {
			fmt.Fprintf(w, "  near-duplicates: %s\n", strings.Join(g, ", "))
		}
	}
	for _, warning := range rep.Warnings {
		fmt.Fprintf(w, "  warning: %s\n", warning)
	}
	if rep.DeepDue {
		fmt.Fprintln(w, "  deep maintenance is due")
	}
}

func printHits(w io.Writer, hits []memfile.Hit, query string) {
	if len(hits) == 0 {
		fmt.Fprintf(w, "nothing matches %q in bimri.md or the archive\n", query)
		return
	}
	for _, h := range hits {
		where := h.Where
		if h.Where == "archive" {
			where = fmt.Sprintf("archive, %s: %s", h.Archived, h.Reason)
		}
		fmt.Fprintf(w, "%s  %s  [%s]  (%s)\n    %s\n", h.ID, h.Date, strings.Join(h.Tags, ","), where, h.Text)
	}
}

func printRestored(w io.Writer, s *memfile.Store) {
	fmt.Fprintf(w, "restored %s from %s; the replaced file is now %s\n", s.Names.Memory, s.Names.Backup, s.Names.Backup)
}

// printSimulatedPayload shows, under --verbose, the hook input simulate built.
func printSimulatedPayload(w io.Writer, payload []byte) {
	fmt.Fprintf(w, "simulate: hook input sent to the handler:\n%s", payload)
}

// printSimulatedAnswer shows, under --verbose, what the handler answered.
func printSimulatedAnswer(w io.Writer, stdoutBytes int, out hooks.Output) {
	kind := "nothing"
	switch {
	case out.JSON != nil:
		kind = "JSON"
	case out.Text != "":
		kind = "plain text"
	}
	fmt.Fprintf(w, "simulate: exit 0; %d bytes on stdout (%s)\n", stdoutBytes, kind)
}

// simulationChartWidth is the width of the per-session budget bar.
const simulationChartWidth = 40

// printSimulatedSession is one line per simulated session: the file's
// tokens per tier after SessionEnd, what left it, and a bar of the total
// against the total budget.
func printSimulatedSession(w io.Writer, st simulate.SessionStats, cfg memfile.Config) error {
	t := st.Tokens
	_, err := fmt.Fprintf(w, "session %4d  %s  T1 %4d  T2 %4d  T3 %4d  total %5d/%d %s  archived %d\n",
		st.Number, st.Date.Format(dateLayout), t.Tiers[0], t.Tiers[1], t.Tiers[2], t.Total, cfg.TotalBudget,
		bar(t.Total, cfg.TotalBudget, simulationChartWidth), st.Archived)
	return err
}

// printSimulationSummary is the one line that ends a simulation.
func printSimulationSummary(w io.Writer, stats []simulate.SessionStats, sim simulate.Simulation) error {
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

// printServing says how the memory serves the session after the run.
func printServing(w io.Writer, sv simulate.Serving, sim simulate.Simulation) error {
	_, err := fmt.Fprintf(w, "the next session: importance 5: %d of %d in %s (as recorded or in the summary that replaced them), %d in the SessionStart view; recorded in the last two days (importance 2+): %d of %d in %s, %d in the view; lost: %d of %d recorded (the rest are in %s or its archive); %s ~%d of %d tokens (Tier 2 ~%d of %d); context %d of %d characters; the agent consolidated %d times, promoted %d decisions, named %d patterns when asked\n",
		sv.DecisionsKept, sv.Decisions, memfile.MemoryName, sv.DecisionsShown,
		sv.RecentKept, sv.Recent, memfile.MemoryName, sv.RecentShown,
		len(sv.Lost), sv.Recorded, memfile.MemoryName,
		memfile.MemoryName, sv.Tokens.Total, sim.Config.TotalBudget, sv.Tokens.Tiers[1], sim.Config.Budgets[1],
		sv.Context, sim.Config.ContextLimit, sv.Consolidated, sv.Promoted, sv.Named)
	return err
}

// printSimulationTime reports, under --verbose, how fast the run was.
func printSimulationTime(w io.Writer, sessions int, took time.Duration) {
	fmt.Fprintf(w, "simulate: %d sessions in %s (%s a session)\n", sessions, took.Round(time.Millisecond), (took / time.Duration(max(sessions, 1))).Round(time.Microsecond))
}
