package main

import (
	"github.com/bimri/bimri-hook/memfile"
)

// memorySnapshot is what `show` reports, in the shape of `show --json`.
type memorySnapshot struct {
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

const dateLayout = "2006-01-02"

// snapshot scores every entry for today without changing the file, so
// `show` tells what the next pass will see.
func snapshot(f *memfile.File, warnings []memfile.Warning, ws *workspace) memorySnapshot {
	s := memorySnapshot{
		Sessions: f.Header.Sessions,
		Today:    ws.now.Format(dateLayout),
		Entries:  []entryView{},
		Patterns: []patternView{},
		Warnings: []string{},
	}
	if !f.Header.LastMaintained.IsZero() {
		s.LastMaintained = f.Header.LastMaintained.Format(dateLayout)
	}
	for t := 1; t <= 2; t++ {
		for _, e := range f.Entries(t) {
			sc := memfile.Score(*e, t, ws.now, ws.config)
			tags := e.Tags
			if tags == nil {
				tags = []string{}
			}
			s.Entries = append(s.Entries, entryView{
				ID: e.ID, Tier: t, Importance: e.Importance, Date: e.Date.Format(dateLayout),
				AgeDays: sc.Days, Freshness: float64(sc.Freshness) / 100, Weight: roundTenth(sc.Weight),
				Tags: tags, Text: e.Text,
			})
		}
	}
	for _, p := range f.Patterns() {
		pv := patternView{ID: p.ID, Level: string(p.Level), Observations: p.Observations,
			Tags: p.Tags, Evidence: p.Evidence, Text: p.Text}
		if !p.First.IsZero() {
			pv.First = p.First.Format(dateLayout)
		}
		if !p.Last.IsZero() {
			pv.Last = p.Last.Format(dateLayout)
		}
		if pv.Tags == nil {
			pv.Tags = []string{}
		}
		if pv.Evidence == nil {
			pv.Evidence = []string{}
		}
		s.Patterns = append(s.Patterns, pv)
	}
	tok := memfile.Estimate(f)
	s.Tokens = map[string]budget{
		"tier1": {tok.Tiers[0], ws.config.Budgets[0]},
		"tier2": {tok.Tiers[1], ws.config.Budgets[1]},
		"tier3": {tok.Tiers[2], ws.config.Budgets[2]},
		"total": {tok.Total, ws.config.TotalBudget},
	}
	for _, w := range warnings {
		s.Warnings = append(s.Warnings, w.String())
	}
	return s
}

// roundTenth turns a weight into the number it is shown as.
func roundTenth(w memfile.Weight) float64 {
	return float64((int(w)+5)/10) / 10
}

// explanation is `why`'s answer.
type explanation struct {
	entry   memfile.Entry
	scoring memfile.Scoring
	fate    string
	leaves  *memfile.Departure
}

func explain(e memfile.Entry, tier int, ws *workspace) explanation {
	x := explanation{entry: e, scoring: memfile.Score(e, tier, ws.now, ws.config)}
	x.fate = memfile.Fate(x.scoring, ws.config)
	if tier == 2 {
		f := &memfile.File{}
		f.Tiers[1].Blocks = []memfile.Block{{Entry: &e}}
		if d := memfile.Forecast(f, ws.now, ws.config, 60); len(d) > 0 {
			x.leaves = &d[0]
		}
	}
	return x
}

func forecast(f *memfile.File, ws *workspace, days int) []memfile.Departure {
	return memfile.Forecast(f, ws.now, ws.config, days)
}

func search(f *memfile.File, recs []memfile.ArchiveRecord, query string) []memfile.Hit {
	hits := memfile.Search(f, recs, query)
	if hits == nil {
		hits = []memfile.Hit{}
	}
	return hits
}
