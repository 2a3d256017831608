package recall

import (
	"cmp"
	"strings"
	"time"
)

// Query is what is asked of memory: the prompt hook, the MCP recall tool,
// search and browse all ask through Ask, so they answer alike.
type Query struct {
	Text  string
	Today time.Time
	// Since and Until, when either is set, keep only the items dated in
	// between (search's --since and --until); a time in Text is then words.
	Since, Until time.Time
	Lexicon      bool    // a word matches its lexicon neighbours too, below itself
	MinShare     float64 // of the prompt's best possible score: no recall beats a wrong one
	Skip         func(Item) bool
	Limit        int // when above 0, bounds the ranked hits
}

// Find answers q from bimri.md's candidates (file) and the archive's
// index (either may be nil). A time the query names scopes the answer,
// never replaces it: the items of that time that match its other words
// come first, then the matches at any time (dated); when none of that
// time matches, the matches at any time, then the time's items a day at a
// time (ByDays), which is also the answer to a time with no other words.
// Since/Until keep only the items of their time.
func Find(q Query, file, archive *Index) (hits []Hit) {
	var corpora []*Index
	for _, c := range []*Index{file, archive} {
		for ; c != nil; c = c.tail { // the archive's newest records (see Load)
			corpora = append(corpora, c)
		}
	}
	if guard(func() { hits = find(q, corpora) }) != nil {
		return nil
	}
	return hits
}

func find(q Query, corpora []*Index) []Hit {
	strict := !q.Since.IsZero() || !q.Until.IsZero()
	span, topic, timed := PromptTime(q.Text, q.Today)
	if strict {
		span = Span{cmp.Or(q.Since, time.Unix(86400, 0).UTC()), cmp.Or(q.Until, time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC))}
		topic, timed = q.Text, true
	}
	if !timed {
		hits, _ := rankScoped(q.Text, q, nil, corpora)
		return hits
	}
	words := topicWords(topic)
	if words == "" {
		return timeItems(span, q, corpora)
	}
	inside, outside := rankScoped(words, q, &span, corpora)
	switch {
	case strict:
		return inside
	case len(inside) > 0:
		return append(inside, outside...)
	}
	return append(outside, timeItems(span, q, corpora)...)
}

// topicWords are the words left of a prompt once its time is read that
// say what it asks: not stop words, not vague ones (vagueWord).
func topicWords(rest string) string {
	var kept []string
	for _, w := range strings.Fields(rest) {
		if !vagueWord(w) && len(tokens(w)) > 0 {
			kept = append(kept, w)
		}
	}
	return strings.Join(kept, " ")
}

// timeItems are the entries of span that q.Skip keeps, ByDays, at most
// q.Limit; patterns are not of a day.
func timeItems(span Span, q Query, corpora []*Index) []Hit {
	from, to := dayNumber(span.From), dayNumber(span.To)
	var items []Item
	for _, c := range corpora {
		for d := range c.docs {
			if day := c.docDay(d); day < from || day > to {
				continue
			}
			it, err := c.item(d)
			if err != nil || it.Pattern || (q.Skip != nil && q.Skip(it)) {
				continue
			}
			items = append(items, it)
		}
	}
	items = ByDays(items)
	if q.Limit > 0 && len(items) > q.Limit {
		items = items[:q.Limit]
	}
	hits := make([]Hit, len(items))
	for i, it := range items {
		hits[i] = Hit{Item: it}
	}
	return hits
}

// closeShare is how near the best score another hit must come to be
// given room beside it.
const closeShare = 0.3

// Select is what of hits an answer has room for, in rank order: the best
// always, shortened to fit if it must (its ID lets the agent read it
// whole), then each next that scores within closeShare of the best (a
// time's unscored items always) while it fits whole in maxItems and
// maxChars (as measure counts). The first that does not fit ends the
// answer: a long answer is never passed over for a shorter, weaker one.
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

// fit is it with its text cut, with an ellipsis, to what measure fits in
// maxChars; it unchanged when it fits or when nothing would.
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
