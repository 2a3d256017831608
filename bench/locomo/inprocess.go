//go:build bench

package main

import (
	"time"

	"github.com/bimri/bimri-hook/hooks"
	"github.com/bimri/bimri-hook/internal/recall"
)

// lineOverhead is what a recalled line adds to its entry's text: the
// date, importance, tag, ID and where it was archived, about a hundred
// characters of what the hook's lines carry.
const lineOverhead = 100

// readInProcess is the quick reading (-in-process): every turn an item
// of one in-memory index, each question asked of recall.Find and
// recall.Select with the default settings, the day after the last
// session. No binary, no passes, no view: seconds, not minutes, for
// trying a change to the ranking; not the benchmark's figures.
func readInProcess(c conversation) lived {
	l := lived{conv: c, idDias: map[string][]string{}}
	var items []recall.Item
	var last time.Time
	for _, s := range c.sessions {
		for _, t := range s.turns {
			it := recall.Item{ID: t.dia, Date: s.date, Importance: 3, Tags: []string{tagOf(t.speaker)}, Text: turnText(t)}
			items = append(items, it)
			l.idDias[it.ID] = []string{t.dia}
			l.entries = append(l.entries, entry{it.ID, it.Text})
		}
		if s.date.After(last) {
			last = s.date
		}
	}
	index, today, settings := recall.NewMemory(items), last.AddDate(0, 0, 1), hooks.DefaultSettings().Recall
	for _, q := range c.qa {
		hits := recall.Find(recall.Query{Text: q.text, Today: today, Lexicon: settings.Lexicon,
			MinShare: settings.MinShare, Limit: 2 * settings.Items}, nil, index)
		var ids []string
		for _, h := range recall.Select(hits, settings.Items, settings.Chars, func(it recall.Item) int {
			return len([]rune(it.Text)) + lineOverhead
		}) {
			ids = append(ids, h.Item.ID)
		}
		l.recalled = append(l.recalled, ids)
	}
	return l
}
