package inspect

// What show, why and forecast print for a person, and
// the entries worth reviving that show and forecast end with.

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/internal/recall"
	"github.com/bimri/bimri-hook/memfile"
)

func PrintShow(w io.Writer, s Snapshot, path string) {
	fmt.Fprintf(w, "%s: %s, last maintained %s, today %s\n", path, Plural(s.Sessions, "session", "sessions"), cmp.Or(s.LastMaintained, "never"), s.Today)
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
		fmt.Fprintf(w, "  %-6s ~%5d of %5d  %s\n", k, b.Used, b.Budget, Bar(b.Used, b.Budget, 20))
	}
	for _, warning := range s.Warnings {
		fmt.Fprintf(w, "warning: %s\n", warning)
	}
}

// Plural writes a count with its noun: "1 entry", "2 entries".
func Plural(n int, one, many string) string {
	return fmt.Sprintf("%d %s", n, Pick(n == 1, one, many))
}

// Pick is one when one holds, else many.
func Pick(one bool, a, many string) string {
	if one {
		return a
	}
	return many
}

// JoinAnd is items joined by commas and a last "and".
func JoinAnd(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// PrintJSON writes v indented, text as it is (no \u003c for <).
func PrintJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// Bar draws used/total as a fixed-width terminal bar.
func Bar(used, total, width int) string {
	if total <= 0 {
		return ""
	}
	n := min(used*width/total, width)
	return "[" + strings.Repeat("#", n) + strings.Repeat(".", width-n) + "]" + Pick(used > total, " OVER", "")
}

// PrintWhy says how e weighs on today, what becomes of it, and when the
// threshold archives it, if within 60 days.
func PrintWhy(w io.Writer, e memfile.Entry, tier int, today time.Time, cfg memfile.Config) {
	s := memfile.Score(e, tier, today, cfg)
	fmt.Fprintf(w, "%s (Tier %d): %s\n", e.ID, s.Tier, e.Text)
	fmt.Fprintf(w, "  importance %d, recorded %s, %s ago\n", e.Importance, e.Date.Format(time.DateOnly), Plural(s.Days, "day", "days"))
	if s.Tier == 1 {
		fmt.Fprintf(w, "  weight = importance = %s (Tier 1 never decays)\n", s.Weight)
	} else {
		fmt.Fprintf(w, "  freshness for %s = %.2f (lookup table)\n", Plural(s.Days, "day", "days"), float64(s.Freshness)/100)
		fmt.Fprintf(w, "  weight = %d x %.2f = %s\n", e.Importance, float64(s.Freshness)/100, s.Raw)
		if s.Floored {
			fmt.Fprintf(w, "  floor: importance %d never weighs less than %s, so weight = %s\n", e.Importance, s.Weight, s.Weight)
		}
	}
	fmt.Fprintf(w, "  rule: %s\n", s.Rule)
	fmt.Fprintf(w, "  fate: %s\n", memfile.Fate(s, cfg))
	if d, ok := memfile.ForecastEntry(&e, today, cfg, 60); ok && tier == 2 && d.Days > 0 {
		fmt.Fprintf(w, "  the threshold archives it on %s (in %s, weight %s)\n", d.Day.Format(time.DateOnly), Plural(d.Days, "day", "days"), d.To)
	}
}

func PrintWhyPattern(w io.Writer, p *memfile.Pattern) {
	fmt.Fprintf(w, "%s (Tier 3 pattern): %s\n", p.ID, p.Text)
	fmt.Fprintf(w, "  %d observations -> %s (%s)\n", p.Observations, p.Level, memfile.LevelRanges("%[2]s %[1]s", ", "))
	fmt.Fprintf(w, "  tags [%s]; evidence (newest %d): %s\n", strings.Join(p.Tags, ","), len(p.Evidence), strings.Join(p.Evidence, ", "))
	fmt.Fprintln(w, "  fate:", Pick(p.Level == memfile.Emerging, "EMERGING patterns are the first archived when Tier 3 is over budget",
		"kept; counts never go down, so it keeps its level"))
}

func PrintForecast(w io.Writer, deps []memfile.Departure, days int, threshold memfile.Weight) {
	if len(deps) == 0 {
		fmt.Fprintf(w, "no Tier 2 entry falls below the threshold %s in the next %s\n", threshold, Plural(days, "day", "days"))
		return
	}
	fmt.Fprintf(w, "entries the threshold %s archives in the next %s (budget evictions not included):\n", threshold, Plural(days, "day", "days"))
	for _, d := range deps {
		when := Pick(d.Days == 0, "at the next pass", fmt.Sprintf("on %s (in %s)", d.Day.Format(time.DateOnly), Plural(d.Days, "day", "days")))
		fmt.Fprintf(w, "  %s  weight %s -> %s  %s: %s\n", d.Entry.ID, d.From, d.To, when, d.Entry.Text)
	}
}

// showAtMost is how many entries worth reviving show and forecast list:
// a handful to act on.
const showAtMost = 5

func PrintWorthReviving(w io.Writer, list []Revivable) {
	if len(list) == 0 {
		return
	}
	fmt.Fprintf(w, "\nWorth reviving: archived, but recalled for %d or more different prompts in %d or more sessions, strongest first (bimri-hook revive ID):\n", recall.KeepPrompts, recall.KeepAfter)
	for _, r := range list[:min(len(list), showAtMost)] {
		e := r.Record.Entry
		fmt.Fprintf(w, "  %s  %s imp %d: %s (%d prompts, %d sessions)\n", e.ID, e.Date.Format(time.DateOnly), e.Importance, e.Text, r.Recalled.Prompts, r.Recalled.Sessions)
	}
	if more := len(list) - showAtMost; more > 0 {
		fmt.Fprintf(w, "  and %d more\n", more)
	}
}
