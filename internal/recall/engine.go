package recall

import (
	"strings"
	"time"
)

// Query is what is asked of memory. The prompt hook, the MCP recall
// tool, search and browse all ask through Find, so the same words and
// times give the same answer everywhere.
type Query struct {
	Text  string
	Today time.Time
	// Since and Until, when either is set, keep only the items dated in
	// between, both included (search's --since and --until); a time the
	// text names is then read as words.
	Since, Until time.Time
	Lexicon      bool
	// MinShare is the least share of the prompt's best possible score an
	// item needs (Options.MinShare).
	MinShare float64
	Skip     func(Item) bool
	// Limit, when above 0, bounds the ranked hits.
	Limit int
}

// Answer is what Find found: the hits best first, and the time the
// query named, if any.
type Answer struct {
	Hits []Hit
	Span Span
	// Timed says the query named a time (Span).
	Timed bool
}

// Find answers q from the corpora. A query that names no time gets its
// words' matches (Rank). One that names a time, in its words or by
// Since/Until, is scoped to it, never replaced by it:
//
//   - with other words, the items of that time that match them come
//     first, then the matches at any other time (dated, so the reader
//     sees when); when none of that time matches, the matches at any
//     time come first, then the time's items a day at a time;
//   - with no other words ("what did we do last week?"), the time's items
//     come a day at a time (ByDays).
//
// Since/Until keep only the items of their time.
//
// file is what bimri.md holds of the candidates, archive the archive's
// index (either may be nil).
func Find(q Query, file *Memory, archive *Index) (a Answer) {
	var corpora []corpus
	if file != nil {
		corpora = append(corpora, file)
	}
	if archive != nil {
		corpora = append(corpora, archive)
		if archive.tail != nil {
			corpora = append(corpora, archive.tail)
		}
	}
	if guard(func() { a = find(q, corpora) }) != nil {
		return Answer{}
	}
	return a
}

func find(q Query, corpora []corpus) Answer {
	opt := Options{MinShare: q.MinShare, Skip: q.Skip, Limit: q.Limit, Lexicon: q.Lexicon}
	strict := !q.Since.IsZero() || !q.Until.IsZero()
	span, topic, timed := PromptTime(q.Text, q.Today)
	if strict {
		span, topic, timed = Span{q.Since, q.Until}, q.Text, true
		if span.From.IsZero() {
			span.From = time.Unix(86400, 0).UTC()
		}
		if span.To.IsZero() {
			span.To = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)
		}
	}
	if !timed {
		hits, _ := rankScoped(q.Text, opt, nil, corpora)
		return Answer{Hits: hits}
	}
	a := Answer{Span: span, Timed: true}
	words := topicWords(topic)
	if words == "" {
		a.Hits = timeItems(span, opt, corpora)
		return a
	}
	inside, outside := rankScoped(words, opt, &span, corpora)
	switch {
	case strict:
		a.Hits = inside
	case len(inside) > 0:
		a.Hits = append(inside, outside...)
	default:
		a.Hits = append(outside, timeItems(span, opt, corpora)...)
	}
	return a
}

// topicWords are the words of what is left of a prompt once its time is
// read that say what it asks of that time: not the stop words, and not
// the vague ones (vagueWord).
func topicWords(rest string) string {
	var kept []string
	for _, w := range strings.Fields(rest) {
		if !vagueWord(w) && len(tokens(w)) > 0 {
			kept = append(kept, w)
		}
	}
	return strings.Join(kept, " ")
}

// timeItems are the entries of span that opt.Skip keeps, a day at a time
// (ByDays), at most opt.Limit of them; patterns are not of a day.
func timeItems(span Span, opt Options, corpora []corpus) []Hit {
	from, to := dayNumber(span.From), dayNumber(span.To)
	var items []Item
	for _, c := range corpora {
		for d := range c.size() {
			if day := c.docDay(d); day < from || day > to {
				continue
			}
			it, err := c.item(d)
			if err != nil || it.Pattern || (opt.Skip != nil && opt.Skip(it)) {
				continue
			}
			items = append(items, it)
		}
	}
	items = ByDays(items)
	if opt.Limit > 0 && len(items) > opt.Limit {
		items = items[:opt.Limit]
	}
	hits := make([]Hit, len(items))
	for i, it := range items {
		hits[i] = Hit{Item: it}
	}
	return hits
}

// closeShare is how near the best score another hit must come to be
// given room beside it: three tenths. A hit far below the best is a weaker
// answer the agent need not read.
const closeShare = 0.3

// Select is what of hits an answer has room for, in rank order: the
// best always, shortened to fit when it must (its ID lets the agent read
// it whole); then each next that scores close to the best (closeShare;
// a time's items, which no score ranks, always) while it fits whole in
// maxItems and maxChars (lines as measure counts them). The first that
// does not fit ends the answer: a long answer is never passed over for a
// shorter, weaker one.
func Select(hits []Hit, maxItems, maxChars int, measure func(Item) int) []Hit {
	if len(hits) == 0 || maxItems < 1 {
		return nil
	}
	first := hits[0]
	first.Item = fit(first.Item, maxChars, measure)
	out := []Hit{first}
	used := measure(first.Item)
	for _, h := range hits[1:] {
		if len(out) >= maxItems || (h.Score > 0 && h.Score < closeShare*hits[0].Score) {
			break
		}
		n := measure(h.Item)
		if used+n > maxChars {
			break
		}
		out = append(out, h)
		used += n
	}
	return out
}

// fit is it with its text cut, with an ellipsis, so that measure counts
// at most maxChars; it as it is when it fits, or when even no text does
// not.
func fit(it Item, maxChars int, measure func(Item) int) Item {
	over := measure(it) - maxChars
	if over <= 0 {
		return it
	}
	r := []rune(it.Text)
	keep := len(r) - over - 1
	for keep > 0 {
		cut := it
		cut.Text = strings.TrimSpace(string(r[:keep])) + "…"
		if measure(cut) <= maxChars {
			return cut
		}
		keep -= max(1, (measure(cut)-maxChars)/2)
	}
	return it
}
