// Package recall finds the memory a prompt needs among what the session
// cannot see (what the SessionStart view left out, and the archive), by
// BM25 over each item's text, tags and keywords: no model call, no
// randomness. Only indexfile.go touches the disk.
package recall

import (
	"cmp"
	"container/heap"
	"encoding/binary"
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
	Keywords   []string // searched as tags are, never shown
	Text       string
	ArchivedOn time.Time // zero unless it is in the archive
	Reason     string    // why it was archived
	// Current, set by the caller, is the line of the newer entry that
	// supersedes this one (Possibly: only looks like it does).
	Current  string
	Possibly bool
}

// FromEntry is an entry of bimri.md without its <private> spans. Secrets
// are redacted only from what is returned (Cleaned): a secret that matches
// can only be one the prompt itself holds.
func FromEntry(e *memfile.Entry) Item {
	return Item{ID: e.ID, Date: e.Date, Importance: e.Importance, Tags: e.Tags, Keywords: e.Keywords, Text: privacy.StripPrivate(privacy.DropInvisible(e.Text))}
}

// FromPattern is a pattern of bimri.md, as FromEntry.
func FromPattern(p *memfile.Pattern) Item {
	return Item{ID: p.ID, Pattern: true, Date: p.Last, Tags: p.Tags, Text: privacy.StripPrivate(privacy.DropInvisible(p.Text))}
}

// fromArchive is an archive record, cleaned: the index holds nothing
// Cleaned would not show.
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

// Cleaned is it passed through privacy.Clean: what may be shown or stored.
func (it Item) Cleaned() Item {
	it.Text, it.Reason = privacy.Clean(it.Text), privacy.Clean(it.Reason)
	it.Tags, it.Keywords = cleanWords(it.Tags), cleanWords(it.Keywords)
	return it
}

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

// tagWeight is how many occurrences in the text a tag or keyword is
// worth: the author's own word for what the entry is about.
const tagWeight = 2

// DefaultMinShare is the least share of the prompt's best possible score
// a recalled item needs: a share means the same at any archive size,
// where an absolute score does not.
const DefaultMinShare = 0.2

const k1, b = 1.2, 0.75 // BM25's usual constants

// maxQueryTerms bounds a long prompt (pasted code) to its rarest terms.
const maxQueryTerms = 64

// cursor is where score left a postings list: the next byte to read and
// the last document read (the list holds each as the gap from the last).
type cursor struct{ at, doc int }

// Hit is a ranked item and its BM25 score; a time's item that no word
// ranked (see Find) has none.
type Hit struct {
	Item  Item
	Score float64
}

// rankScoped returns the items of the corpora that share enough of the
// prompt's terms (wordsNeeded) and score at least MinShare of its best
// possible score, best first, ties to the newer item, then the smaller ID;
// with within, those of that time (inside) apart from the others.
// Statistics are over all corpora together, so an item ranks the same in
// whichever corpus holds it.
func rankScoped(prompt string, q Query, within *Span, corpora []*Index) (inside, outside []Hit) {
	// Postings read in place point into a mapped index, released once the
	// Index is collected.
	defer runtime.KeepAlive(corpora)
	n, total := 0, 0
	for _, c := range corpora {
		n += c.size()
		total += c.total
	}
	if n == 0 {
		return nil, nil
	}
	var inSpan func(ci, doc int) bool
	if within != nil {
		from, to := dayNumber(within.From), dayNumber(within.To)
		inSpan = func(ci, doc int) bool {
			d := corpora[ci].docDay(doc)
			return d >= from && d <= to
		}
	}
	terms := queryTerms(prompt, corpora, q.Lexicon, n)
	l := shortlist{corpora: corpora}
	if inSpan == nil && q.Limit > 0 {
		l.keep = 4 * q.Limit // room for the hits Skip passes over
	}
	// Reserved, as a list grown by copies touches its pages twice: room for
	// every document, or the few hundred a shortlist keeps and its runs' days.
	l.cands, l.dropped = make([]candidate, 0, cmp.Or(16*l.keep, n)), make([]int32, 0, 4096)
	for {
		score(terms, float64(n), float64(total)/float64(n), q.MinShare, inSpan, &l)
		cands, whole := l.sameDay()
		if inSpan != nil {
			in := func(c candidate) bool { return inSpan(int(c.corpus), int(c.doc)) }
			out := slices.DeleteFunc(slices.Clone(cands), in)
			inside, _ := best(slices.DeleteFunc(cands, func(c candidate) bool { return !in(c) }), q, corpora, l.floor())
			outside, _ := best(out, q, corpora, l.floor())
			return inside, outside
		}
		if hits, ok := best(cands, q, corpora, l.floor()); whole && ok {
			return hits, nil
		}
		l = shortlist{corpora: corpora, cands: l.cands[:0]} // the dropped ones are needed: keep every one
	}
}

// shortlist gathers score's candidates. With keep above 0 it keeps only
// those that score at least the least of the keep best seen so far (a
// common word qualifies thousands in a big archive, each bytes of fresh
// memory), and every one of the best one's day, which sameDay raises: it
// settles a run of one day's candidates once another day's come (an
// archive's records are mostly in the order of their days). One dropped
// that is needed after all (of the best one's day, or below the floor
// once Skip has passed over most of them) is reported by sameDay or
// best, and the ranking is done again keeping every candidate.
type shortlist struct {
	corpora []*Index
	keep    int
	least   []float64 // the keep best scores so far, ascending
	cands   []candidate
	run     int     // where the candidates of runDay, not yet settled, begin
	dropped []int32 // the day of each run of which some were dropped
	runDay  int
	top     float64 // the best candidate's score and day, of all
	day     int
}

func (l *shortlist) add(c candidate) {
	day := l.corpora[c.corpus].docDay(int(c.doc))
	if c.score > l.top || (c.score == l.top && day > l.day) {
		l.top, l.day = c.score, day
	}
	if l.keep > 0 && day != l.runDay {
		l.settle()
		l.runDay = day
	}
	l.cands = append(l.cands, c)
}

// settle drops the candidates of runDay that score below the least of
// the keep best, unless it is the best one's day.
func (l *shortlist) settle() {
	kept, dropped := l.cands[:l.run], false
	for _, c := range l.cands[l.run:] {
		if l.runDay != l.day && len(l.least) == l.keep && c.score < l.least[0] {
			dropped = true
			continue
		}
		i, _ := slices.BinarySearch(l.least, c.score)
		if l.least = slices.Insert(l.least, i, c.score); len(l.least) > l.keep {
			l.least = l.least[:copy(l.least, l.least[1:])]
		}
		kept = append(kept, c)
	}
	l.cands, l.run = kept, len(kept)
	if dropped {
		l.dropped = append(l.dropped, int32(l.runDay))
	}
}

// floor is the score every dropped candidate is below (-Inf: none was
// dropped).
func (l *shortlist) floor() float64 {
	if len(l.dropped) == 0 {
		return math.Inf(-1)
	}
	return l.least[0]
}

// need is how many wordUnits an item must match: short, of an item of at
// most longDoc times the average length; long, of a longer one.
type need struct{ short, long int }

// wordsNeeded is two telling terms' worth (one, for a prompt of one
// telling term), and for a long item half of a prompt of more than five
// terms: a long prompt shares two words with many a long entry by chance.
// A name most entries hold ("What did Caroline paint?" of a chat with
// Caroline) is not telling: the prompt's other word singles the entry out.
func wordsNeeded(distinct, telling int) need {
	two := min(2, max(1, telling))
	return need{short: wordUnits * two, long: wordUnits * max(two, distinct/2)}
}

// common says whether a term held by df of n items tells little: more
// than a quarter hold it, and at least commonAtLeast (in a workspace's
// first entries every word is in most of them).
func common(df, n int) bool { return df >= commonAtLeast && 4*df > n }

const commonAtLeast = 5

// longDoc is how many times the average length makes an entry long.
const longDoc = 3

// queryTerm is one of the prompt's terms, then the lexicon neighbours
// that stand for it.
type queryTerm []termForm

// termForm is a term with its posting list in each corpus, its document
// frequency over all of them, and what a match of it counts (wordUnits).
type termForm struct {
	text  string
	lists [][]byte
	df    int
	units uint8
}

// wordUnits is what a match of the prompt's word counts toward the two
// words a recall needs, as does a neighbour naming the same thing; one
// only of the word's family counts half: "the mobile release" does not
// answer "dark mode in the iOS app".
const wordUnits = 2

// maxNeighbours bounds the lexicon's lookups for a pasted log.
const maxNeighbours = 4 * maxQueryTerms

// queryTerms are the prompt's distinct terms that some corpus holds,
// itself or (with lexicon) through a neighbour, commonest last, at most
// maxQueryTerms. A neighbour stands for the nearest of the prompt's terms
// (the first of those as near), and for none the prompt holds itself: one
// word of an item never counts as two of the prompt's.
func queryTerms(prompt string, corpora []*Index, lexicon bool, n int) query {
	var all []string // the prompt's distinct terms, then their neighbours
	at := map[string]int{}
	for _, w := range tokens(prompt) {
		if _, dup := at[w]; !dup {
			at[w] = len(all)
			all = append(all, w)
		}
	}
	distinct := len(all)
	var owner, near []int // for all[distinct+i]: the term it stands for, how near
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
	terms := make([]queryTerm, distinct)
	for j, w := range all {
		f := termForm{text: w, lists: make([][]byte, len(corpora)), units: wordUnits}
		if j >= distinct && (neighbour{near: near[j-distinct]}).family() {
			f.units = wordUnits / 2
		}
		for ci, c := range corpora {
			l := c.termPostings(w)
			n, k := binary.Uvarint(l) // how many postings follow
			f.lists[ci] = l[k:]
			f.df += int(n)
		}
		switch {
		case j < distinct: // the term itself comes first, held or not
			terms[j] = queryTerm{f}
		case f.df > 0:
			k := owner[j-distinct]
			terms[k] = append(terms[k], f)
		}
	}
	// postings is the work a term costs; the commoner, the less it tells.
	postings := func(t queryTerm) int {
		n := 0
		for _, f := range t {
			n += f.df
		}
		return n
	}
	q := query{distinct: distinct}
	for _, t := range terms {
		// A word no item holds counts as one a single item holds.
		q.possible += idf(max(1, t[0].df), n)
		if !common(t[0].df, n) {
			q.telling++
		}
	}
	terms = slices.DeleteFunc(terms, func(t queryTerm) bool { return postings(t) == 0 })
	slices.SortFunc(terms, func(x, y queryTerm) int {
		return cmp.Or(cmp.Compare(postings(x), postings(y)), strings.Compare(x[0].text, y[0].text))
	})
	q.terms = terms[:min(len(terms), maxQueryTerms)]
	return q
}

// query is what queryTerms found: the terms some item holds, how many
// distinct and telling terms the prompt has, and possible, the score of an
// item of average length holding each term once.
type query struct {
	terms             []queryTerm
	distinct, telling int
	possible          float64
}

// idf is BM25's rarity of a term that df of n items hold.
func idf(df, n int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// candidate is a document that qualified; 32-bit, as there may be thousands.
type candidate struct {
	corpus, doc int32
	score       float64
}

// score gives every document its BM25 score over q's terms (n documents
// of average length avgdl) and adds to l, in no order, those that match
// enough of them (wordsNeeded; one word for a document of the time the
// prompt names, scoped) and score at least minShare of q.possible.
//
// A term scores, in a document, the best of its forms there: the term
// itself, or a neighbour at lexiconWeight with its rarity capped at the
// term's, so a rare neighbour of a common word never outweighs the word
// the prompt used. Several forms of one term match it once, for the most
// units of those forms.
func score(q query, n, avgdl, minShare float64, scoped func(ci, doc int) bool, l *shortlist) {
	corpora := l.corpora
	needed := wordsNeeded(q.distinct, q.telling)
	// Documents are scored a block at a time, each list read on from where
	// the block before left it: the arrays stay a few pages whatever the
	// archive's size (docs/performance.md), and a document takes its terms
	// in the same order, so its score is the same to the bit.
	width := 0
	for _, c := range corpora {
		width = max(width, min(c.size(), scoreBlock))
	}
	scores, bestForm := make([]float64, width), make([]float64, width)
	// matched counts wordUnits (at most maxQueryTerms terms' worth); last
	// is the term a document last matched, its best form's units bestUnits.
	matched, last, bestUnits := make([]uint8, width), make([]uint8, width), make([]uint8, width)
	next := make([][]cursor, len(q.terms)) // each term's forms' lists, where left
	for k, t := range q.terms {
		next[k] = make([]cursor, len(t))
	}
	for ci, c := range corpora {
		for _, at := range next {
			clear(at)
		}
		for lo := 0; lo < c.size(); lo += scoreBlock {
			hi := min(lo+scoreBlock, c.size())
			clear(scores)
			clear(matched)
			clear(last)
			for k, t := range q.terms {
				termIDF := idf(t[0].df, int(n))
				for fi, f := range t {
					weight := termIDF
					if fi > 0 {
						weight = lexiconWeight * min(termIDF, idf(f.df, int(n)))
					}
					l, cur := f.lists[ci], next[k][fi]
					for cur.at < len(l) {
						gap, n := uint64(l[cur.at]), 1 // most gaps and counts take a byte
						if gap >= 0x80 {
							gap, n = binary.Uvarint(l[cur.at:])
						}
						doc := cur.doc + int(gap)
						if doc >= hi {
							break
						}
						count, m := uint64(l[cur.at+n]), 1
						if count >= 0x80 {
							count, m = binary.Uvarint(l[cur.at+n:])
						}
						cur.at, cur.doc = cur.at+n+m, doc
						tf := float64(count)
						s := weight * tf * (k1 + 1) / (tf + k1*(1-b+b*float64(c.docLen(doc))/avgdl))
						d := doc - lo
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
					next[k][fi] = cur
				}
			}
			for j := range hi - lo {
				d, m := lo+j, int(matched[j])
				if m < wordUnits || scores[j] < minShare*q.possible {
					continue
				}
				if m >= needed.long || (m >= needed.short && float64(c.docLen(d)) <= longDoc*avgdl) ||
					// Of the time a prompt names, one of its words singles an
					// entry out: the time is the other.
					(m < needed.short && scoped != nil && scoped(ci, d)) {
					l.add(candidate{int32(ci), int32(d), scores[j]})
				}
			}
		}
	}
}

// scoreBlock is how many documents score takes at a time.
const scoreBlock = 1024

// sameDayShare is what an item of the best match's day gains, as a share
// of that match's score: one day's work hangs together, and what answers
// a prompt is often beside what matches it best. It orders, never recalls.
const sameDayShare = 0.3

// sameDay raises the candidates of the best one's day (the newest of
// equal scores, so the order of add does not matter); whole is false
// when one of that day was dropped.
func (l *shortlist) sameDay() (cands []candidate, whole bool) {
	if l.keep > 0 {
		l.settle()
	}
	for i, c := range l.cands {
		if l.corpora[c.corpus].docDay(int(c.doc)) == l.day {
			l.cands[i].score += sameDayShare * l.top
		}
	}
	return l.cands, !slices.Contains(l.dropped, int32(l.day))
}

// best decodes the candidates best first, only as many as q.Limit asks
// plus any that tie with the last, so the order by date and ID is exact
// without decoding every match. They come off a heap: a common word
// makes thousands in a big archive, which a full sort would order for
// nothing. ok is false when candidates below floor (dropped by a
// shortlist) would be needed.
func best(cands []candidate, q Query, corpora []*Index, floor float64) (hits []Hit, ok bool) {
	h := candidates(cands)
	heap.Init(&h)
	for h.Len() > 0 {
		c := heap.Pop(&h).(candidate)
		if q.Limit > 0 && len(hits) >= q.Limit && c.score < hits[len(hits)-1].Score {
			break
		}
		if c.score < floor {
			return nil, false
		}
		it, err := corpora[c.corpus].item(int(c.doc))
		if err != nil || (q.Skip != nil && q.Skip(it)) {
			continue
		}
		hits = append(hits, Hit{Item: it, Score: c.score})
	}
	if len(hits) < q.Limit && floor > math.Inf(-1) {
		return nil, false
	}
	slices.SortFunc(hits, func(x, y Hit) int {
		return cmp.Or(cmp.Compare(y.Score, x.Score), y.Item.Date.Compare(x.Item.Date), strings.Compare(x.Item.ID, y.Item.ID))
	})
	if q.Limit > 0 && len(hits) > q.Limit {
		hits = hits[:q.Limit]
	}
	return hits, true
}

// candidates is a heap, best first: the higher score, then the first
// corpus and document.
type candidates []candidate

func (h candidates) Len() int { return len(h) }
func (h candidates) Less(i, j int) bool {
	x, y := h[i], h[j]
	if x.score != y.score {
		return x.score > y.score
	}
	return x.corpus < y.corpus || (x.corpus == y.corpus && x.doc < y.doc)
}
func (h candidates) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *candidates) Push(x any)   { *h = append(*h, x.(candidate)) }
func (h *candidates) Pop() any {
	c := (*h)[len(*h)-1]
	*h = (*h)[:len(*h)-1]
	return c
}
