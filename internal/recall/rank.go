// Package recall finds the memory a prompt needs among what the session
// cannot see: Tier 2 entries and patterns left out of the SessionStart
// view, and everything in the archive. It ranks them against the prompt
// with BM25 over each item's text and tags, with no model call and no
// randomness: the same items and prompt give the same answer.
//
// Everything here is pure except indexfile.go, the one file that reads and
// writes the on-disk index (see Load).
package recall

import (
	"cmp"
	"math"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/privacy"
)

// Item is one thing recall can bring back.
type Item struct {
	ID         string
	Pattern    bool      // a Tier 3 pattern rather than an entry
	Date       time.Time // an entry's date; a pattern's LAST
	Importance int       // 0 for a pattern
	Tags       []string
	// Keywords, an entry's words for what a later question would ask
	// (memfile.Entry.Keywords): searched as tags are, never shown.
	Keywords   []string
	Text       string
	ArchivedOn time.Time // zero unless it is in the archive
	Reason     string    // why it was archived
	// Current, for an entry superseded by a newer one still in the
	// file, is that entry's line of text: recall names what holds now
	// beside what no longer does. Set by the caller, never indexed.
	Current string
	// Possibly says that Current only looks like it supersedes the item
	// (the view's "possibly superseded" mark): the agent has not said.
	Possibly bool
}

// FromEntry is a Tier 2 entry still in bimri.md, without its <private>
// spans, so they cannot match a prompt. Secrets are redacted only from
// what recall returns (Cleaned): a prompt is ranked against every entry
// the view leaves out, thousands in a big file, and a secret that
// matches can only be one the prompt itself holds.
func FromEntry(e *memfile.Entry) Item {
	return Item{ID: e.ID, Date: e.Date, Importance: e.Importance, Tags: e.Tags, Keywords: e.Keywords, Text: privacy.StripPrivate(privacy.DropInvisible(e.Text))}
}

// FromPattern is a Tier 3 pattern still in bimri.md, as FromEntry.
func FromPattern(p *memfile.Pattern) Item {
	return Item{ID: p.ID, Pattern: true, Date: p.Last, Tags: p.Tags, Text: privacy.StripPrivate(privacy.DropInvisible(p.Text))}
}

// fromArchive is an archived entry or pattern, cleaned of <private>
// spans and secrets: the index holds only what Cleaned would give, so
// such text can neither match a prompt nor sit in the index's file.
func fromArchive(r memfile.ArchiveRecord) (Item, bool) {
	var it Item
	switch {
	case r.Entry != nil:
		it = FromEntry(r.Entry)
	case r.Pattern != nil:
		it = FromPattern(r.Pattern)
	default:
		return Item{}, false
	}
	it.ArchivedOn, it.Reason = r.ArchivedOn, r.Reason
	if it.ArchivedOn.IsZero() {
		it.ArchivedOn = it.Date // an archive record always has one; be safe
	}
	return it.Cleaned(), true
}

// Cleaned is it with its text, tags, keywords and reason passed through
// privacy.Clean: what may be shown or stored.
func (it Item) Cleaned() Item {
	it.Text, it.Reason = privacy.Clean(it.Text), privacy.Clean(it.Reason)
	it.Tags, it.Keywords = cleanWords(it.Tags), cleanWords(it.Keywords)
	return it
}

// cleanWords is a list of tags or keywords passed through privacy.Clean.
func cleanWords(list []string) []string {
	if len(list) == 0 {
		return list
	}
	out := make([]string, 0, len(list))
	for _, t := range list {
		if t = privacy.Clean(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// tagWeight is how many occurrences in the text one tag is worth: a tag
// is the author's own word for what an entry is about. A keyword counts
// as a tag does: it is the author's word for how the entry will be
// asked about, given for that alone.
const tagWeight = 2

// DefaultMinScore is the least score a recalled item needs unless the
// config says otherwise; make eval shows how it was chosen.
const DefaultMinScore = 3.0

// BM25's usual constants: term-frequency saturation and length
// normalisation.
const (
	k1 = 1.2
	b  = 0.75
)

// maxQueryTerms bounds the work on a long prompt (pasted code, a log):
// only its rarest terms count, which are the ones that score anyway.
const maxQueryTerms = 64

// posting is one document holding a term; tf counts a tag tagWeight times.
type posting struct {
	doc int
	tf  float64
}

// postingList is one term's postings: a Memory's slice, or an Index's
// bytes as stored (doc u32, tf float32 bits), read in place.
type postingList struct {
	mem []posting
	raw []byte
}

func (l postingList) len() int {
	if l.raw != nil {
		return len(l.raw) / 8
	}
	return len(l.mem)
}

func (l postingList) at(i int) posting {
	if l.raw != nil {
		return posting{u32(l.raw, 2*i), float64(math.Float32frombits(uint32(u32(l.raw, 2*i+1))))}
	}
	return l.mem[i]
}

// corpus is what Rank searches: the in-memory Memory and the on-disk Index.
type corpus interface {
	size() int
	totalLen() int
	docLen(doc int) int
	// postings are the lists of the terms, in their order.
	postings(terms []string) []postingList
	item(doc int) (Item, error)
}

// Options bound what Rank returns.
type Options struct {
	// MinScore is the least BM25 score an item needs: no recall beats a
	// wrong one.
	MinScore float64
	// Skip, when set, drops items by ID (those already recalled this
	// session, or shown in the view).
	Skip func(id string) bool
	// Limit, when above 0, returns at most that many hits.
	Limit int
	// Lexicon lets each of the prompt's words match its neighbours in
	// the lexicon too (lexicon.txt), below the word itself.
	Lexicon bool
}

// Hit is one ranked item.
type Hit struct {
	Item  Item
	Score float64
}

// Rank scores every item of the corpora against the prompt and returns
// those that score at least MinScore and share enough of the prompt's
// terms (wordsNeeded), best first; ties go to the
// newer item, then the smaller ID. With opt.Lexicon, an item that holds
// a lexicon neighbour of a prompt's term matches that term, for
// lexiconWeight of the score (see score). Statistics (document count,
// lengths, document frequencies) are over all corpora together, so an
// item ranks the same whichever corpus holds it. A mapped index that
// faults while it is read (see guard) gives no hits.
func Rank(prompt string, opt Options, corpora ...corpus) (hits []Hit) {
	if guard(func() { hits = rank(prompt, opt, corpora) }) != nil {
		return nil
	}
	return hits
}

func rank(prompt string, opt Options, corpora []corpus) []Hit {
	// Postings read in place point into a mapped index, which is released
	// once the Index is collected: keep it until they are done with.
	defer runtime.KeepAlive(corpora)
	n, total := 0, 0
	for _, c := range corpora {
		n += c.size()
		total += c.totalLen()
	}
	if n == 0 {
		return nil
	}
	terms, distinct := queryTerms(prompt, corpora, opt.Lexicon)
	cands := score(terms, wordsNeeded(distinct), float64(n), float64(total)/float64(n), opt.MinScore, corpora)
	return best(cands, opt, corpora)
}

// need is how many wordUnits of a prompt's terms an item must match:
// short of a document long for the corpus, long of one longer.
type need struct{ short, long int }

// wordsNeeded is what an item must share of a prompt of distinct terms:
// two of them (one for a one-term prompt); and an entry more than
// longDoc times the average length, half of a prompt of more than five
// terms. A long prompt shares two words with many a long entry by chance
// ("a regex that matches German postal codes" and a busy day's report
// note whose columns "follow the German labels" and whose numbers "now
// match"); an entry that answers it shares more, and a short entry that
// shares two is no chance.
func wordsNeeded(distinct int) need {
	two := min(2, distinct)
	return need{short: wordUnits * two, long: wordUnits * max(two, distinct/2)}
}

// longDoc is how many times the average length makes an entry long.
const longDoc = 3

// queryTerm is one of the prompt's terms: the term itself, then the
// lexicon neighbours that stand for it.
type queryTerm struct {
	forms []termForm
}

// termForm is a term with its posting list in each corpus, its document
// frequency over all of them, and how much of a word a match of it
// counts for (see wordUnits).
type termForm struct {
	text  string
	lists []postingList
	df    int
	units uint8
}

// wordUnits is what a match of the prompt's word counts for toward the
// two words a recall needs, and so does a neighbour that names the same
// thing; a neighbour that is only of the word's family counts half. An
// entry that shares one word with a prompt and is of the family of
// another ("app" and "mobile" for "the iOS app") is no surer than one
// that shares one word: "the mobile release" does not answer "dark mode
// in the iOS app".
const wordUnits = 2

// maxNeighbours bounds the lexicon's lookups for one prompt: a pasted
// log of a thousand words would otherwise look up thousands.
const maxNeighbours = 4 * maxQueryTerms

// queryTerms are the prompt's distinct terms that some corpus holds,
// themselves or (with lexicon) through a neighbour, commonest last (at
// most maxQueryTerms of them), and how many distinct terms the prompt
// has. A neighbour stands for one of the prompt's terms, the nearest (see
// neighbour; the first in the prompt of those as near), and for none when
// the prompt holds it itself: one word of an item never counts as two of
// the prompt's.
func queryTerms(prompt string, corpora []corpus, lexicon bool) ([]queryTerm, int) {
	var all []string // the prompt's distinct terms, then their neighbours
	at := map[string]int{}
	for _, w := range tokens(prompt) {
		if _, dup := at[w]; !dup {
			at[w] = len(all)
			all = append(all, w)
		}
	}
	distinct := len(all)
	var owner, near []int // for all[distinct+i]: the prompt's term it stands for, and how near (see neighbour)
	for k := 0; lexicon && k < distinct; k++ {
		for _, nb := range neighbours(all[k]) {
			j, known := at[nb.term]
			switch {
			case !known && len(owner) < maxNeighbours:
				at[nb.term] = len(all)
				all = append(all, nb.term)
				owner, near = append(owner, k), append(near, nb.near)
			case known && j >= distinct && nb.near < near[j-distinct]:
				owner[j-distinct], near[j-distinct] = k, nb.near
			}
		}
	}
	lists := make([][]postingList, len(corpora))
	for ci, c := range corpora {
		lists[ci] = c.postings(all)
	}
	terms := make([]queryTerm, distinct)
	for j, w := range all {
		f := termForm{text: w, lists: make([]postingList, len(corpora)), units: wordUnits}
		if j >= distinct && (neighbour{near: near[j-distinct]}).family() {
			f.units = wordUnits / 2
		}
		for ci := range corpora {
			f.lists[ci] = lists[ci][j]
			f.df += lists[ci][j].len()
		}
		switch {
		case j < distinct: // the term itself comes first, held or not
			terms[j].forms = []termForm{f}
		case f.df > 0:
			k := owner[j-distinct]
			terms[k].forms = append(terms[k].forms, f)
		}
	}
	// postings is the work a term costs, and the commoner it is the less
	// it tells.
	postings := func(t queryTerm) int {
		n := 0
		for _, f := range t.forms {
			n += f.df
		}
		return n
	}
	terms = slices.DeleteFunc(terms, func(t queryTerm) bool { return postings(t) == 0 })
	slices.SortFunc(terms, func(x, y queryTerm) int {
		return cmp.Or(cmp.Compare(postings(x), postings(y)), strings.Compare(x.forms[0].text, y.forms[0].text))
	})
	if len(terms) > maxQueryTerms {
		terms = terms[:maxQueryTerms]
	}
	return terms, distinct
}

// candidate is a document that matched enough of the prompt's terms.
type candidate struct {
	corpus, doc int
	score       float64
}

// score gives every document its BM25 score over terms (n documents in
// all, of average length avgdl) and keeps those that match needed of
// terms and score at least minScore, in no particular order.
//
// A prompt's term scores, in a document, the best of its forms there:
// the term itself as BM25 has it, or a neighbour at lexiconWeight of its
// own BM25 score with its rarity capped at the term's, so a neighbour
// never outweighs the word the prompt used (a rare neighbour of a common
// word is no surer for being rare). A document that holds several forms
// of one term matches that term once, for the most units of its forms.
func score(terms []queryTerm, needed need, n, avgdl, minScore float64, corpora []corpus) []candidate {
	idf := func(df int) float64 { return math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5)) }
	neighboured := slices.ContainsFunc(terms, func(t queryTerm) bool { return len(t.forms) > 1 })
	var cands []candidate
	for ci, c := range corpora {
		scores := make([]float64, c.size())
		// A document matches at most maxQueryTerms terms, wordUnits
		// each: a byte counts them, and an archive's 10,000 documents
		// touch fewer pages.
		matched := make([]uint8, c.size())
		// With neighbours, which term a document last matched, and its
		// best form's score and units there.
		var last, bestUnits []uint8
		var bestForm []float64
		if neighboured {
			last, bestUnits, bestForm = make([]uint8, c.size()), make([]uint8, c.size()), make([]float64, c.size())
		}
		for k, t := range terms {
			termIDF := idf(t.forms[0].df)
			for fi, f := range t.forms {
				weight := termIDF
				if fi > 0 {
					weight = lexiconWeight * min(termIDF, idf(f.df))
				}
				l := f.lists[ci]
				for i := range l.len() {
					p := l.at(i)
					dl := float64(c.docLen(p.doc))
					s := weight * p.tf * (k1 + 1) / (p.tf + k1*(1-b+b*dl/avgdl))
					d := p.doc
					switch {
					case last == nil:
						scores[d] += s
						matched[d] += f.units
						continue
					case int(last[d]) != k+1:
						last[d], bestForm[d], bestUnits[d] = uint8(k+1), s, f.units
						scores[d] += s
						matched[d] += f.units
						continue
					}
					if s > bestForm[d] {
						scores[d] += s - bestForm[d]
						bestForm[d] = s
					}
					if f.units > bestUnits[d] {
						matched[d] += f.units - bestUnits[d]
						bestUnits[d] = f.units
					}
				}
			}
		}
		// Counted first, so the list grows once: in a big archive a
		// common word qualifies thousands.
		qualifies := func(d int, m uint8) bool {
			if scores[d] < minScore || int(m) < needed.short {
				return false
			}
			return int(m) >= needed.long || float64(c.docLen(d)) <= longDoc*avgdl
		}
		qualify := 0
		for d, m := range matched {
			if qualifies(d, m) {
				qualify++
			}
		}
		cands = slices.Grow(cands, qualify)
		for d, m := range matched {
			if qualifies(d, m) {
				cands = append(cands, candidate{ci, d, scores[d]})
			}
		}
	}
	return cands
}

// best decodes the candidates' items best first, and only as many as
// opt.Limit asks for plus any that tie with the last of them, so the full
// order (which needs dates and IDs) is exact without decoding every
// match. The candidates come off a heap in that order: a common word
// makes thousands of them in a big archive, and sorting them all cost
// more than the scoring.
func best(cands []candidate, opt Options, corpora []corpus) []Hit {
	better := func(x, y candidate) bool {
		return cmp.Or(cmp.Compare(y.score, x.score), cmp.Compare(x.corpus, y.corpus), cmp.Compare(x.doc, y.doc)) < 0
	}
	down := func(h []candidate, i int) {
		for {
			top, l, r := i, 2*i+1, 2*i+2
			if l < len(h) && better(h[l], h[top]) {
				top = l
			}
			if r < len(h) && better(h[r], h[top]) {
				top = r
			}
			if top == i {
				return
			}
			h[i], h[top] = h[top], h[i]
			i = top
		}
	}
	for i := len(cands)/2 - 1; i >= 0; i-- {
		down(cands, i)
	}
	var hits []Hit
	for h := cands; len(h) > 0; {
		c := h[0]
		h[0] = h[len(h)-1]
		h = h[:len(h)-1]
		down(h, 0)
		if opt.Limit > 0 && len(hits) >= opt.Limit && c.score < hits[len(hits)-1].Score {
			break
		}
		it, err := corpora[c.corpus].item(c.doc)
		if err != nil || (opt.Skip != nil && opt.Skip(it.ID)) {
			continue
		}
		hits = append(hits, Hit{Item: it, Score: c.score})
	}
	slices.SortFunc(hits, func(x, y Hit) int {
		return cmp.Or(cmp.Compare(y.Score, x.Score), y.Item.Date.Compare(x.Item.Date), strings.Compare(x.Item.ID, y.Item.ID))
	})
	if opt.Limit > 0 && len(hits) > opt.Limit {
		hits = hits[:opt.Limit]
	}
	return hits
}

// Select keeps hits in order while they fit: at most maxItems, and lines
// (as measure counts them) of at most maxChars in all. A hit that does not
// fit is passed over for a shorter one after it; none is cut.
func Select(hits []Hit, maxItems, maxChars int, measure func(Item) int) []Hit {
	var out []Hit
	used := 0
	for _, h := range hits {
		if len(out) >= maxItems {
			break
		}
		n := measure(h.Item)
		if used+n > maxChars {
			continue
		}
		out = append(out, h)
		used += n
	}
	return out
}

// docTerms is an item's terms with their weighted counts, and its length.
func docTerms(it Item) (map[string]float64, int) {
	tf := map[string]float64{}
	length := 0
	for _, w := range tokens(it.Text) {
		tf[w]++
		length++
	}
	for _, list := range [2][]string{it.Tags, it.Keywords} {
		for _, tag := range list {
			for _, w := range tokens(tag) {
				tf[w] += tagWeight
				length++
			}
		}
	}
	return tf, length
}

// Memory is a corpus held in memory: the few items of bimri.md itself.
// It keeps each item's terms as a list, not an index: a prompt asks for
// a handful of terms once, and one pass over the lists finds them all,
// where building a map per item and one for the corpus cost more than
// the whole search.
type Memory struct {
	items []Item
	lens  []int
	total int
	words []string  // every item's terms, item after item
	spans []memSpan // where each item's terms end in words
}

// memSpan ends an item's terms in Memory.words: those before tags come
// from its text, those from tags to end from its tags and keywords.
type memSpan struct{ tags, end int }

// NewMemory indexes items in memory.
func NewMemory(items []Item) *Memory {
	// About one term for every six bytes of text: sized once, the list
	// is not copied as it grows.
	size := 0
	for _, it := range items {
		size += len(it.Text) + len(it.Tags) + len(it.Keywords)
	}
	m := &Memory{items: items, lens: make([]int, len(items)), spans: make([]memSpan, len(items)), words: make([]string, 0, size/6)}
	for i, it := range items {
		start := len(m.words)
		m.words = appendTokens(m.words, it.Text)
		tags := len(m.words)
		for _, tag := range it.Tags {
			m.words = appendTokens(m.words, tag)
		}
		for _, k := range it.Keywords {
			m.words = appendTokens(m.words, k)
		}
		// The same counts as docTerms: a text term once, a tag's tagWeight
		// times, and every term once in the length.
		m.spans[i] = memSpan{tags, len(m.words)}
		m.lens[i] = len(m.words) - start
		m.total += m.lens[i]
	}
	return m
}

func (m *Memory) size() int          { return len(m.items) }
func (m *Memory) totalLen() int      { return m.total }
func (m *Memory) docLen(doc int) int { return m.lens[doc] }

func (m *Memory) postings(terms []string) []postingList {
	at := make(map[string]int, len(terms))
	for i, t := range terms {
		if _, dup := at[t]; !dup {
			at[t] = i
		}
	}
	out := make([]postingList, len(terms))
	tf := make([]float64, len(terms))
	var found []int // terms of the current item
	start := 0
	for doc, sp := range m.spans {
		for j := start; j < sp.end; j++ {
			i, ok := at[m.words[j]]
			if !ok {
				continue
			}
			if tf[i] == 0 {
				found = append(found, i)
			}
			if j < sp.tags {
				tf[i]++
			} else {
				tf[i] += tagWeight
			}
		}
		for _, i := range found {
			out[i].mem = append(out[i].mem, posting{doc, tf[i]})
			tf[i] = 0
		}
		found = found[:0]
		start = sp.end
	}
	for i, t := range terms {
		out[i] = out[at[t]] // a term asked twice
	}
	return out
}

func (m *Memory) item(doc int) (Item, error) { return m.items[doc], nil }

// Shared counts, for each item, the terms of prompt it holds in its
// text, tags or keywords, leaving out the terms of the words ignore
// names (folded as the prompt is: the words of a time, for a prompt that
// names one). It orders the entries of a time by what the prompt asks
// of it: "last Monday there was a fix for double bookings" wants
// Monday's fix first. The prompt is read once, whatever the items.
func Shared(prompt string, items []Item, ignore []string) []int {
	skip := map[string]bool{}
	for _, w := range ignore {
		for _, t := range tokens(w) {
			skip[t] = true
		}
	}
	var terms []string
	for _, t := range tokens(prompt) {
		if !skip[t] && !slices.Contains(terms, t) {
			terms = append(terms, t)
		}
	}
	out := make([]int, len(items))
	if len(terms) == 0 {
		return out
	}
	seen := make([]bool, len(terms))
	var buf []string
	for i, it := range items {
		clear(seen)
		buf = appendTokens(buf[:0], it.Text)
		for _, list := range [2][]string{it.Tags, it.Keywords} {
			for _, tag := range list {
				buf = appendTokens(buf, tag)
			}
		}
		for _, w := range buf {
			if k := slices.Index(terms, w); k >= 0 && !seen[k] {
				seen[k] = true
				out[i]++
			}
		}
	}
	return out
}
