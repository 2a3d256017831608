// Package inspect answers the read-only commands (show, why, forecast,
// search, the MCP recall tool) for a day and a config, without changing
// the file.
package inspect

import (
	"fmt"
	"time"

	"github.com/bimri/bimri-hook/memfile"
)

// Snapshot is what `show` reports, in the shape of `show --json`.
type Snapshot struct {
	Sessions       int               `json:"sessions"`
	LastMaintained string            `json:"last_maintained"`
	Today          string            `json:"today"`
	Entries        []entryView       `json:"entries"`
	Patterns       []patternView     `json:"patterns"`
	Tokens         map[string]budget `json:"tokens"`
	Warnings       []string          `json:"warnings"`
}

type entryView struct {
	ID         string   `json:"id"`
	Tier       int      `json:"tier"`
	Importance int      `json:"importance"`
	Date       string   `json:"date"`
	AgeDays    int      `json:"age_days"`
	Freshness  float64  `json:"freshness"`
	Weight     float64  `json:"weight"`
	Tags       []string `json:"tags"`
	Text       string   `json:"text"`
}

type patternView struct {
	ID           string   `json:"id"`
	Level        string   `json:"level"`
	Observations int      `json:"observations"`
	First        string   `json:"first,omitempty"`
	Last         string   `json:"last,omitempty"`
	Tags         []string `json:"tags"`
	Evidence     []string `json:"evidence"`
	Text         string   `json:"text"`
}

type budget struct {
	Used   int `json:"used"`
	Budget int `json:"budget"`
}

// Show scores every entry for today without changing the file, so `show`
// tells what the next pass will see.
func Show(f *memfile.File, warnings []memfile.Warning, today time.Time, cfg memfile.Config) Snapshot {
	s := Snapshot{
		Sessions: f.Header.Sessions, LastMaintained: memfile.Day(f.Header.LastMaintained), Today: today.Format(time.DateOnly),
		Entries: []entryView{}, Patterns: []patternView{}, Warnings: []string{},
	}
	for t, e := range f.TierEntries() {
		sc := memfile.Score(*e, t, today, cfg)
		s.Entries = append(s.Entries, entryView{
			ID: e.ID, Tier: t, Importance: e.Importance, Date: e.Date.Format(time.DateOnly),
			AgeDays: sc.Days, Freshness: float64(sc.Freshness) / 100, Weight: float64((int(sc.Weight)+5)/10) / 10,
			Tags: nonNil(e.Tags), Text: e.Text,
		})
	}
	for _, p := range f.Patterns() {
		s.Patterns = append(s.Patterns, patternView{ID: p.ID, Level: string(p.Level), Observations: p.Observations,
			First: memfile.Day(p.First), Last: memfile.Day(p.Last), Tags: nonNil(p.Tags), Evidence: nonNil(p.Evidence), Text: p.Text})
	}
	tok := memfile.Estimate(f)
	s.Tokens = map[string]budget{"total": {tok.Total, cfg.TotalBudget}}
	for i, used := range tok.Tiers {
		s.Tokens[fmt.Sprint("tier", i+1)] = budget{used, cfg.Budgets[i]}
	}
	for _, w := range warnings {
		s.Warnings = append(s.Warnings, w.String())
	}
	return s
}
