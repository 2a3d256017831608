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

// DefaultMinShare is the least share of the prompt's best possible
// score a recalled item needs unless the config says otherwise: an
// entry must hold, by their weight, about half of what the prompt asks.
// A share means the same in a one-entry archive and in one of 50,000,
// where an absolute score does not (rarity, BM25's idf, grows with the
// archive).
const DefaultMinShare = 0.2

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
	// docDay is the item's date as dayNumber has it.
	docDay(doc int) int
	// postings are the lists of the terms, in their order.
	postings(terms []string) []postingList
	item(doc int) (Item, error)
}

// Options bound what Rank returns.
type Options struct {
	// MinShare is the least share of the prompt's best possible score
	// an item needs (see possible): no recall beats a wrong one.
	MinShare float64
	// Skip, when set, drops items (those already recalled this session,
	// or shown in the view).
	Skip func(Item) bool
	// Limit, when above 0, returns at most that many hits.
	Limit int
	// Lexicon lets each of the prompt's words match its neighbours in
	// the lexicon too (lexicon.txt), below the word itself.
	Lexicon bool
}

// Hit is one ranked item and its BM25 score. A time's item that the
// prompt's words did not rank (see Find) has none.
type Hit struct {
	Item  Item
	Score float64
}

// Rank scores every item of the corpora against the prompt's words and
// returns those that score at least MinShare of the prompt's best
// possible score and share enough of its terms (wordsNeeded), best
// first; ties go to the newer item, then the smaller ID. With
// opt.Lexicon, an item that holds a lexicon neighbour of a prompt's term
// matches that term, for lexiconWeight of the score (see score).
// Statistics (document count, lengths, document frequencies) are over
// all corpora together, so an item ranks the same whichever corpus holds
// it. A mapped index that faults while it is read (see guard) gives no
// hits. Rank reads no time in the prompt: Find does.
func Rank(prompt string, opt Options, corpora ...corpus) (hits []Hit) {
	if guard(func() { hits, _ = rankScoped(prompt, opt, nil, corpora) }) != nil {
		return nil
	}
	return hits
}

// rankScoped is Rank; with within, it ranks the items of that time
// (inside) apart from the others, each by score.
func rankScoped(prompt string, opt Options, within *Span, corpora []corpus) (inside, outside []Hit) {
	// Postings read in place point into a mapped index, which is released
	// once the Index is collected: keep it until they are done with.
	defer runtime.KeepAlive(corpora)
	n, total := 0, 0
	for _, c := range corpora {
		n += c.size()
		total += c.totalLen()
	}
	if n == 0 {
		return nil, nil
	}
	q := queryTerms(prompt, corpora, opt.Lexicon, n)
	if within == nil {
		return best(sameDay(score(q, float64(n), float64(total)/float64(n), opt.MinShare, nil, corpora), corpora), opt, corpora), nil
	}
	from, to := dayNumber(within.From), dayNumber(within.To)
	inSpan := func(ci, doc int) bool {
		d := corpora[ci].docDay(doc)
		return d >= from && d <= to
	}
	cands := sameDay(score(q, float64(n), float64(total)/float64(n), opt.MinShare, inSpan, corpora), corpora)
	in := func(c candidate) bool { return inSpan(int(c.corpus), int(c.doc)) }
	in1 := slices.DeleteFunc(slices.Clone(cands), func(c candidate) bool { return !in(c) })
	out1 := slices.DeleteFunc(cands, in)
	return best(in1, opt, corpora), best(out1, opt, corpora)
}

// need is how many wordUnits of a prompt's terms an item must match:
// short of a document long for the corpus, long of one longer.
type need struct{ short, long int }

// wordsNeeded is what an item must share of a prompt of distinct terms,
// of which telling are not held by most items (see common): two telling
// ones' worth (one for a prompt of one telling term); and an entry more
// than longDoc times the average length, half of a prompt of more than
// five terms. A long prompt shares two words with many a long entry by
// chance ("a regex that matches German postal codes" and a busy day's
// report note whose columns "follow the German labels" and whose numbers
// "now match"); an entry that answers it shares more, and a short entry
// that shares two is no chance. A name that most entries hold ("What did
// Caroline paint?" of a chat with Caroline) does not count as one of the
// two: the prompt's other word singles the entry out.
func wordsNeeded(distinct, telling int) need {
	two := min(2, max(1, telling))
	return need{short: wordUnits * two, long: wordUnits * max(two, distinct/2)}
}

// common says whether a term held by df of n items says little of which
// item a prompt wants: more than a quarter hold it, and at least
// commonAtLeast do (in a workspace's first few entries every word is in
// most of them).
func common(df, n int) bool { return df >= commonAtLeast && 4*df > n }

const commonAtLeast = 5

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
func queryTerms(prompt string, corpora []corpus, lexicon bool, n int) query {
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
	q := query{distinct: distinct}
	for _, t := range terms {
		// A word no item holds is as telling as the rarest: it counts in
		// what the prompt asks, at the rarity of a word one item holds.
		q.possible += idf(max(1, t.forms[0].df), n)
		if !common(t.forms[0].df, n) {
			q.telling++
		}
	}
	terms = slices.DeleteFunc(terms, func(t queryTerm) bool { return postings(t) == 0 })
	slices.SortFunc(terms, func(x, y queryTerm) int {
		return cmp.Or(cmp.Compare(postings(x), postings(y)), strings.Compare(x.forms[0].text, y.forms[0].text))
	})
	if len(terms) > maxQueryTerms {
		terms = terms[:maxQueryTerms]
	}
	q.terms = terms
	return q
}

// query is a prompt's terms as queryTerms finds them: those some item
// holds, how many distinct terms it has, how many of them are telling
// (not common), and its best possible score, possible: the score of an
// item of average length that holds each of its terms once. An item's
// score over possible is how much of what the prompt asks it holds, by
// weight, whatever the archive's size.
type query struct {
	terms             []queryTerm
	distinct, telling int
	possible          float64
}

// idf is BM25's rarity of a term that df of n items hold.
func idf(df, n int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// candidate is a document that matched enough of the prompt's terms.
// Its numbers are 32-bit: a big archive's common word makes thousands.
type candidate struct {
	corpus, doc int32
	score       float64
}

// score gives every document its BM25 score over q's terms (n documents
// of average length avgdl) and keeps, in no order, those that match
// enough of them (wordsNeeded; one word for a document of the time the
// prompt names, scoped) and score at least minShare of q.possible.
//
// A term scores, in a document, the best of its forms there: the term
// itself, or a neighbour at lexiconWeight with its rarity capped at the
// term's, so a rare neighbour of a common word never outweighs the word
// the prompt used. Several forms of one term match it once, for the most
// units of those forms.
func score(q query, n, avgdl, minShare float64, scoped func(ci, doc int) bool, corpora []corpus) []candidate {
	needed := wordsNeeded(q.distinct, q.telling)
	var cands []candidate
	for ci, c := range corpora {
		size := c.size()
		scores, bestForm := make([]float64, size), make([]float64, size)
		// matched counts wordUnits (at most maxQueryTerms terms' worth);
		// last is the term a document last matched, its best form's units
		// bestUnits.
		matched, last, bestUnits := make([]uint8, size), make([]uint8, size), make([]uint8, size)
		for k, t := range q.terms {
			termIDF := idf(t.forms[0].df, int(n))
			for fi, f := range t.forms {
				weight := termIDF
				if fi > 0 {
					weight = lexiconWeight * min(termIDF, idf(f.df, int(n)))
				}
				for i := range f.lists[ci].len() {
					p := f.lists[ci].at(i)
					d := p.doc
					s := weight * p.tf * (k1 + 1) / (p.tf + k1*(1-b+b*float64(c.docLen(d))/avgdl))
					if int(last[d]) != k+1 {
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
		for d, m := range matched {
			ok := int(m) >= needed.long || (int(m) >= needed.short && float64(c.docLen(d)) <= longDoc*avgdl) ||
				// Of the time a prompt names, one of its words singles an
				// entry out: the time is the other.
				(int(m) < needed.short && int(m) >= wordUnits && scoped != nil && scoped(ci, d))
			if ok && scores[d] >= minShare*q.possible {
				cands = append(cands, candidate{int32(ci), int32(d), scores[d]})
			}
		}
	}
	return cands
}

// sameDayShare is what an item recorded on the day of the strongest
// match gains, as a share of that match's score: work of one day (one
// session, often) hangs together, and what answers a prompt is often
// beside what matches it best ("the migration locked the table" and,
// an hour later, "so we moved migrations before the rollout"). Only items
// that qualify on their own gain it: it orders, it never recalls.
const sameDayShare = 0.3

// sameDay raises, among cands, those of the best one's day (see
// sameDayShare).
func sameDay(cands []candidate, corpora []corpus) []candidate {
	if len(cands) == 0 {
		return cands
	}
	// The best's day: of equal scores the newest, so the items' order
	// does not matter; the whole day gains, the best too, so ties within
	// it stay ties.
	top, day := 0.0, 0
	for _, c := range cands {
		d := corpora[c.corpus].docDay(int(c.doc))
		if c.score > top || c.score == top && d > day {
			top, day = c.score, d
		}
	}
	for i, c := range cands {
		if corpora[c.corpus].docDay(int(c.doc)) == day {
			cands[i].score += sameDayShare * top
		}
	}
	return cands
}

// best decodes the candidates' items best first, and only as many as
// opt.Limit asks for plus any that tie with the last of them, so the full
// order (which needs dates and IDs) is exact without decoding every
// match. The candidates come off a heap: a common word makes thousands
// of them in a big archive.
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
		it, err := corpora[c.corpus].item(int(c.doc))
		if err != nil || (opt.Skip != nil && opt.Skip(it)) {
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

// Memory is a corpus held in memory: the items of bimri.md the view left
// out, and an index's tail.
type Memory struct {
	items []Item
	lens  []int
	total int
	index map[string][]posting
}

// NewMemory indexes items in memory, counting terms as docTerms does.
func NewMemory(items []Item) *Memory {
	m := &Memory{items: items, lens: make([]int, len(items)), index: map[string][]posting{}}
	var words []string
	for doc, it := range items {
		words = appendTokens(words[:0], it.Text)
		text := len(words)
		for _, tag := range slices.Concat(it.Tags, it.Keywords) {
			words = appendTokens(words, tag)
		}
		for i, w := range words {
			tf := 1.0
			if i >= text {
				tf = tagWeight
			}
			l := m.index[w]
			if n := len(l); n > 0 && l[n-1].doc == doc {
				l[n-1].tf += tf
			} else {
				m.index[w] = append(l, posting{doc, tf})
			}
		}
		m.lens[doc] = len(words)
		m.total += len(words)
	}
	return m
}

func (m *Memory) size() int          { return len(m.items) }
func (m *Memory) totalLen() int      { return m.total }
func (m *Memory) docLen(doc int) int { return m.lens[doc] }
func (m *Memory) docDay(doc int) int { return dayNumber(m.items[doc].Date) }

func (m *Memory) postings(terms []string) []postingList {
	out := make([]postingList, len(terms))
	for i, t := range terms {
		out[i].mem = m.index[t]
	}
	return out
}

func (m *Memory) item(doc int) (Item, error) { return m.items[doc], nil }
