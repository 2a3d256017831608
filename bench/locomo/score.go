//go:build bench

package main

import (
	"regexp"
	"slices"

	"github.com/bimri/bimri-hook/bench/bm25"
)

// namesTime is a plain reading of "the question names a time": the words
// people ask about time with, month and weekday names, years, dates.
var namesTime = regexp.MustCompile(`(?i)\b(when|recent|recently|lately|yesterday|today|tonight|tomorrow|ago|how long|` +
	`(last|this|next|past|previous) (week|weekend|month|year|summer|winter|spring|fall|autumn|night|time)|` +
	`january|february|march|april|may|june|july|august|september|october|november|december|` +
	`monday|tuesday|wednesday|thursday|friday|saturday|sunday|(19|20)\d\d|\d{1,2}/\d{1,2})\b`)

// result is one question's figures: the share of its evidence each
// method returned.
type result struct {
	Conv     string   `json:"conversation"`
	Number   int      `json:"question"` // 1-based, in the file's order
	Category int      `json:"category"`
	Timed    bool     `json:"names_time"`
	Question string   `json:"text"`
	Evidence []string `json:"evidence"`
	Recalled []string `json:"recalled"` // the entry IDs the hook returned, in its order
	K        int      `json:"k"`        // len(Recalled)
	Hook     float64  `json:"hook"`
	HookView float64  `json:"hook_and_view"` // recalled or shown at session start
	BM25     float64  `json:"bm25_same_k"`
	BM25At5  float64  `json:"bm25_at_5"`
	BM25At10 float64  `json:"bm25_at_10"`
	Stemmed  float64  `json:"bm25_stemmed_same_k"` // BM25 over stems (bm25.NewStemmed)
	// StemmedLeftOut is stemmed BM25 over what recall ranks: the entries
	// the view does not show.
	StemmedLeftOut float64 `json:"bm25_stemmed_left_out_same_k"`
}

// evidenceRecall is LoCoMo's retrieval metric for one question: the
// share of its evidence turns held by the returned entries.
func evidenceRecall(evidence, ids []string, idDias map[string][]string) float64 {
	if len(evidence) == 0 {
		return 0
	}
	found := 0
	for _, d := range evidence {
		if slices.ContainsFunc(ids, func(id string) bool { return slices.Contains(idDias[id], d) }) {
			found++
		}
	}
	return float64(found) / float64(len(evidence))
}

// score turns what a conversation left into one result per question
// that has evidence; BM25 answers over the same entries.
func score(l lived) []result {
	docs := make([]string, len(l.entries))
	for i, e := range l.entries {
		docs[i] = e.text
	}
	plain, stemmed := bm25.New(docs), bm25.NewStemmed(docs)
	// Each index ranks a question once; Top sorts every match (stably),
	// so its first k of more are its top k.
	ranked := func(ix *bm25.Index, q string, k int) []string {
		var ids []string
		for _, i := range ix.Top(q, k) {
			ids = append(ids, l.entries[i].id)
		}
		return ids
	}
	first := func(ids []string, k int) []string { return ids[:min(k, len(ids))] }
	var out []result
	for i, q := range l.conv.qa {
		if len(q.evidence) == 0 {
			continue
		}
		rec := l.recalled[i]
		r := result{Conv: l.conv.name, Number: i + 1, Category: q.category, Timed: namesTime.MatchString(q.text),
			Question: q.text, Evidence: q.evidence, Recalled: rec, K: len(rec)}
		r.Hook = evidenceRecall(q.evidence, rec, l.idDias)
		r.HookView = evidenceRecall(q.evidence, append(slices.Clone(rec), l.inView...), l.idDias)
		top := ranked(plain, q.text, max(10, len(rec)))
		r.BM25 = evidenceRecall(q.evidence, first(top, len(rec)), l.idDias)
		r.BM25At5 = evidenceRecall(q.evidence, first(top, 5), l.idDias)
		r.BM25At10 = evidenceRecall(q.evidence, first(top, 10), l.idDias)
		stems := ranked(stemmed, q.text, len(rec)+len(l.inView))
		r.Stemmed = evidenceRecall(q.evidence, first(stems, len(rec)), l.idDias)
		leftOut := slices.DeleteFunc(stems, func(id string) bool { return slices.Contains(l.inView, id) })
		r.StemmedLeftOut = evidenceRecall(q.evidence, first(leftOut, len(rec)), l.idDias)
		out = append(out, r)
	}
	return out
}

// figures are a group's means: evidence recall, and the share of
// questions with all their evidence returned.
type figures struct {
	n                                       int
	items                                   float64
	hook, hookView, bm25, bm25At5, bm25At10 pair
	stemmed, stemmedLeftOut                 pair
}

type pair struct{ share, all float64 }

func (p *pair) add(v float64) {
	p.share += v
	if v == 1 {
		p.all++
	}
}

func summarize(rs []result, keep func(result) bool) figures {
	var f figures
	for _, r := range rs {
		if !keep(r) {
			continue
		}
		f.n++
		f.items += float64(r.K)
		f.hook.add(r.Hook)
		f.hookView.add(r.HookView)
		f.bm25.add(r.BM25)
		f.bm25At5.add(r.BM25At5)
		f.bm25At10.add(r.BM25At10)
		f.stemmed.add(r.Stemmed)
		f.stemmedLeftOut.add(r.StemmedLeftOut)
	}
	if f.n > 0 {
		n := float64(f.n)
		f.items /= n
		for _, p := range []*pair{&f.hook, &f.hookView, &f.bm25, &f.bm25At5, &f.bm25At10, &f.stemmed, &f.stemmedLeftOut} {
			p.share, p.all = p.share/n, p.all/n
		}
	}
	return f
}
