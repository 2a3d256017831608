package recall

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"slices"
	"sort"
	"strings"
	"time"
)

// The on-disk index is laid out so that a prompt reads it without decoding
// it: one read of the file, a checksum, then a binary search of the term
// table for each prompt term and a decode of only the items that score.
//
//	magic "BIMRIRX2"
//	key: archive size (u64), archive modification time (i64, ns)
//	CRC-32 (IEEE) of the body (u32)
//	body, of u32 numbers unless said:
//	  docs, terms
//	  doc lengths (docs), item offsets (docs+1)
//	  term string offsets (terms+1), postings offsets (terms+1)
//	  term strings (bytes), postings (doc u32, tf float32 bits), items (bytes)
//
// Little-endian throughout. The index is never the source of truth: a
// file that fails any check is rebuilt from the archive.

// magic names the layout. 2: the checksum is CRC-32 IEEE, not
// Castagnoli; Go builds Castagnoli's tables on first use, about 0.3 ms
// of every prompt, and checks IEEE faster.
const magic = "BIMRIRX2"

// Key identifies the archive an index was built from.
type Key struct {
	Size    int64
	ModTime int64 // nanoseconds since the epoch
}

// errCorrupt is any index that does not read: it is rebuilt.
var errCorrupt = errors.New("recall index is damaged")

// Encode builds the index of items for the archive identified by key.
func Encode(items []Item, key Key) []byte {
	type entry struct {
		term string
		list []posting
	}
	byTerm := map[string][]posting{}
	lens := make([]int, len(items))
	for i, it := range items {
		tf, length := docTerms(it)
		lens[i] = length
		for w, c := range tf {
			byTerm[w] = append(byTerm[w], posting{i, c})
		}
	}
	terms := make([]entry, 0, len(byTerm))
	for w, l := range byTerm {
		slices.SortFunc(l, func(a, b posting) int { return a.doc - b.doc })
		terms = append(terms, entry{w, l})
	}
	slices.SortFunc(terms, func(a, b entry) int { return strings.Compare(a.term, b.term) })

	le := binary.LittleEndian
	var body, itemBlob []byte
	body = le.AppendUint32(body, uint32(len(items)))
	body = le.AppendUint32(body, uint32(len(terms)))
	for _, n := range lens {
		body = le.AppendUint32(body, uint32(n))
	}
	for _, it := range items {
		body = le.AppendUint32(body, uint32(len(itemBlob)))
		itemBlob = appendItem(itemBlob, it)
	}
	body = le.AppendUint32(body, uint32(len(itemBlob)))
	n := 0
	for _, t := range terms {
		body = le.AppendUint32(body, uint32(n))
		n += len(t.term)
	}
	body = le.AppendUint32(body, uint32(n))
	n = 0
	for _, t := range terms {
		body = le.AppendUint32(body, uint32(n))
		n += len(t.list)
	}
	body = le.AppendUint32(body, uint32(n))
	for _, t := range terms {
		body = append(body, t.term...)
	}
	for _, t := range terms {
		for _, p := range t.list {
			body = le.AppendUint32(body, uint32(p.doc))
			body = le.AppendUint32(body, math.Float32bits(float32(p.tf)))
		}
	}
	body = append(body, itemBlob...)

	out := []byte(magic)
	out = le.AppendUint64(out, uint64(key.Size))
	out = le.AppendUint64(out, uint64(key.ModTime))
	out = le.AppendUint32(out, crc32.ChecksumIEEE(body))
	return append(out, body...)
}

// Index is a decoded on-disk index: slices into the file's bytes, which
// Load maps rather than reads (see Close).
type Index struct {
	unmap               func() // releases the mapped file; nil when on the heap
	key                 Key
	docs, nterms, total int
	lens, itemOff       []byte
	strOff, postOff     []byte
	strs, posts, items  []byte
}

const headerLen = len(magic) + 8 + 8 + 4

// Decode checks an index and returns it; Key says what archive it is for.
func Decode(data []byte) (*Index, error) {
	le := binary.LittleEndian
	if len(data) < headerLen+8 || string(data[:len(magic)]) != magic {
		return nil, errCorrupt
	}
	x := &Index{key: Key{Size: int64(le.Uint64(data[8:])), ModTime: int64(le.Uint64(data[16:]))}}
	body := data[headerLen:]
	if crc32.ChecksumIEEE(body) != le.Uint32(data[24:]) {
		return nil, errCorrupt
	}
	x.docs, x.nterms = int(le.Uint32(body)), int(le.Uint32(body[4:]))
	rest := body[8:]
	take := func(n int) ([]byte, bool) {
		if n < 0 || n > len(rest) {
			return nil, false
		}
		b := rest[:n]
		rest = rest[n:]
		return b, true
	}
	var ok [4]bool
	if x.docs > len(rest)/4 || x.nterms > len(rest)/4 {
		return nil, errCorrupt
	}
	x.lens, ok[0] = take(4 * x.docs)
	x.itemOff, ok[1] = take(4 * (x.docs + 1))
	x.strOff, ok[2] = take(4 * (x.nterms + 1))
	x.postOff, ok[3] = take(4 * (x.nterms + 1))
	if ok != [4]bool{true, true, true, true} {
		return nil, errCorrupt
	}
	var okS, okP bool
	x.strs, okS = take(u32(x.strOff, x.nterms))
	x.posts, okP = take(8 * u32(x.postOff, x.nterms))
	x.items = rest
	if !okS || !okP || len(x.items) != u32(x.itemOff, x.docs) {
		return nil, errCorrupt
	}
	// Offsets must rise, so every slice taken later is in range.
	for _, tab := range [][]byte{x.itemOff, x.strOff, x.postOff} {
		for i := 0; i+1 < len(tab)/4; i++ {
			if u32(tab, i) > u32(tab, i+1) {
				return nil, errCorrupt
			}
		}
	}
	for i := 0; i < x.docs; i++ {
		x.total += u32(x.lens, i)
	}
	return x, nil
}

// Close releases the file an index was mapped from. Items and hits Rank
// returned stay valid (they are copies); the Index itself must not be used
// after.
func (x *Index) Close() {
	if x.unmap != nil {
		x.unmap()
		x.unmap = nil
	}
}

// Key is the archive the index was built from.
func (x *Index) Key() Key { return x.key }

func u32(tab []byte, i int) int { return int(binary.LittleEndian.Uint32(tab[i*4:])) }

func (x *Index) size() int          { return x.docs }
func (x *Index) totalLen() int      { return x.total }
func (x *Index) docLen(doc int) int { return u32(x.lens, doc) }

func (x *Index) term(i int) string { return string(x.strs[u32(x.strOff, i):u32(x.strOff, i+1)]) }

func (x *Index) postings(terms []string) []postingList {
	out := make([]postingList, len(terms))
	for i, t := range terms {
		out[i] = x.termPostings(t)
	}
	return out
}

// termPostings are read where they lie in the index, not copied: a term
// every item holds has thousands. A list naming a document past the end
// is damage, and is dropped whole.
func (x *Index) termPostings(term string) postingList {
	i, found := sort.Find(x.nterms, func(i int) int { return strings.Compare(term, x.term(i)) })
	if !found {
		return postingList{}
	}
	l := postingList{raw: x.posts[8*u32(x.postOff, i) : 8*u32(x.postOff, i+1)]}
	for p := range l.len() {
		if u32(l.raw, 2*p) >= x.docs {
			return postingList{}
		}
	}
	return l
}

func (x *Index) item(doc int) (Item, error) {
	return readItem(x.items[u32(x.itemOff, doc):u32(x.itemOff, doc+1)])
}

// An item is stored as length-prefixed strings: ID, flags, date, importance,
// tags (comma-joined), text, archived date, reason.
func appendItem(b []byte, it Item) []byte {
	flags := "e"
	if it.Pattern {
		flags = "p"
	}
	for _, s := range []string{it.ID, flags, day(it.Date), string(rune('0' + it.Importance)), strings.Join(it.Tags, ","), it.Text, day(it.ArchivedOn), it.Reason} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b
}

func readItem(b []byte) (Item, error) {
	var f [8]string
	for i := range f {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(len(b)-k) {
			return Item{}, errCorrupt
		}
		f[i], b = string(b[k:k+int(n)]), b[k+int(n):]
	}
	it := Item{ID: f[0], Pattern: f[1] == "p", Text: f[5], Reason: f[7]}
	it.Date, _ = time.Parse(time.DateOnly, f[2])
	it.ArchivedOn, _ = time.Parse(time.DateOnly, f[6])
	if len(f[3]) == 1 {
		it.Importance = int(f[3][0] - '0')
	}
	if f[4] != "" {
		it.Tags = strings.Split(f[4], ",")
	}
	return it, nil
}

func day(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.DateOnly)
}
