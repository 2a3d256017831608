package recall

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/memfile"
)

// The on-disk index is laid out so that a prompt reads only what it
// needs where it lies (Load maps the file): the directory, a binary
// search of its term table for each prompt term, the postings of those
// terms, and only the items that score. Each part is checked where it is
// read, so a prompt never reads every page of a big archive's index: the
// counts and the documents' lengths and days (which scoring reads for
// every document a prompt's word holds) by one checksum in the header;
// each term the binary search looks at by its own, over its string and
// its entries in the tables (a torn table cannot send the search astray
// unnoticed); each postings list and each item by its own, kept in the
// directory, the item's offsets in range.
//
//	magic "BIMRIRXB"
//	key: archive size (u64), archive modification time (i64, ns),
//	  CRC-32 of the archive's last edgeLen bytes (u32)
//	CRC-32 of the directory's counts, doc lengths and doc days (u32)
//	directory, of u32 numbers unless said:
//	  docs, terms
//	  doc lengths (docs), doc days (docs: days since 1970 of the item's
//	  date, 0 when it has none), item offsets (docs+1), item CRCs (docs)
//	  term string offsets (terms+1), postings offsets (terms+1),
//	  postings CRCs (terms), term CRCs (terms: see termSum)
//	  term strings (bytes)
//	postings (see appendList), items (bytes)
//
// Little-endian throughout. The index is never the source of truth: a
// file that fails a check is rebuilt from the archive (see damaged).

// magic names the layout; a new one has every older index rebuilt.
const magic = "BIMRIRXB"

// indexKey identifies the archive an index was built from. Edge, the
// checksum of its last bytes, tells an archive that only grew since
// (records appended after those bytes) from one rewritten.
type indexKey struct {
	Size    int64
	ModTime int64 // nanoseconds since the epoch
	Edge    uint32
}

// edgeLen is how many of the archive's last bytes Edge covers.
const edgeLen = 4096

// edge is the checksum of data's last edgeLen bytes.
func edge(data []byte) uint32 { return sum(data[max(0, len(data)-edgeLen):]) }

// sum is a part's checksum: CRC-32 (IEEE), which Go computes with
// carry-less multiplication on amd64 and arm64 and needs no table built
// at start; CRC-32C's tables cost every prompt's fresh process more than
// checking its megabyte of the index does.
func sum(b []byte) uint32 { return crc32.ChecksumIEEE(b) }

// errCorrupt is any index that does not read: it is rebuilt.
var errCorrupt = errors.New("recall index is damaged")

// NewMemory is the index of items held in memory: the items of bimri.md
// the view left out, and the archive's records newer than its index. It
// keeps the items as they are: encoding a copy costs a prompt pages.
func NewMemory(items []Item) *Index {
	x, _ := decode(encodeStoring(items, indexKey{}, nil))
	x.kept = items
	return x
}

// encode builds the index of items for the archive identified by key: a
// tag or keyword counts tagWeight. The index is written in place into one
// buffer, sized once its terms are known: an archive's index is megabytes.
func encode(items []Item, key indexKey) []byte { return encodeStoring(items, key, items) }

// encodeStoring is encode, storing the items of stored (items, or none).
func encodeStoring(items []Item, key indexKey, stored []Item) []byte {
	index := map[string][]posting{}
	lens := make([]uint32, len(items))
	var ws []string
	itemsLen := 0
	var scratch []byte
	for doc, it := range items {
		ws = appendTokens(ws[:0], it.Text)
		text := len(ws)
		for _, tag := range it.Tags {
			ws = appendTokens(ws, tag)
		}
		for _, kw := range it.Keywords {
			ws = appendTokens(ws, kw)
		}
		for i, w := range ws {
			tf := uint32(1)
			if i >= text {
				tf = tagWeight
			}
			l := index[w]
			if n := len(l); n > 0 && l[n-1].doc == uint32(doc) {
				l[n-1].tf += tf
			} else {
				index[w] = append(l, posting{uint32(doc), tf})
			}
		}
		lens[doc] = uint32(len(ws))
	}
	for _, it := range stored {
		scratch = appendItem(scratch[:0], it)
		itemsLen += len(scratch)
	}
	terms := slices.Sorted(maps.Keys(index))
	strsLen, postsLen := 0, 0
	for _, t := range terms {
		scratch = appendList(scratch[:0], index[t])
		strsLen, postsLen = strsLen+len(t), postsLen+len(scratch)
	}
	docs, nterms := len(items), len(terms)
	dirLen := 8 + 16*docs + 16*nterms + 12 + strsLen
	out := make([]byte, headerLen+dirLen+postsLen, headerLen+dirLen+postsLen+itemsLen)
	le := binary.LittleEndian
	le.PutUint32(out[headerLen:], uint32(docs))
	le.PutUint32(out[headerLen+4:], uint32(nterms))
	var x Index // the directory's parts, where they lie in out
	x.setParts(out[headerLen+8:headerLen+dirLen], docs, nterms)
	for doc, it := range items {
		le.PutUint32(x.lens[4*doc:], lens[doc])
		le.PutUint32(x.days[4*doc:], uint32(dayNumber(it.Date)))
	}
	posts, n := out[headerLen+dirLen:headerLen+dirLen], 0 // written in place
	for i, t := range terms {
		le.PutUint32(x.strOff[4*i:], uint32(n))
		n += copy(x.strs[n:], t)
		from := len(posts)
		le.PutUint32(x.postOff[4*i:], uint32(from))
		posts = appendList(posts, index[t])
		le.PutUint32(x.postCRC[4*i:], sum(posts[from:]))
	}
	le.PutUint32(x.strOff[4*nterms:], uint32(n))
	le.PutUint32(x.postOff[4*nterms:], uint32(len(posts)))
	for i := range terms {
		le.PutUint32(x.termCRC[4*i:], x.termSum(i, x.strs[u32(x.strOff, i):u32(x.strOff, i+1)]))
	}
	itemsAt := len(out)
	for doc, it := range stored {
		from := len(out)
		le.PutUint32(x.itemOff[4*doc:], uint32(from-itemsAt))
		out = appendItem(out, it)
		le.PutUint32(x.itemCRC[4*doc:], sum(out[from:]))
	}
	le.PutUint32(x.itemOff[4*docs:], uint32(len(out)-itemsAt))

	copy(out, magic)
	le.PutUint64(out[8:], uint64(key.Size))
	le.PutUint64(out[16:], uint64(key.ModTime))
	le.PutUint32(out[24:], key.Edge)
	le.PutUint32(out[28:], sum(out[headerLen:headerLen+8+8*docs]))
	return out
}

// posting is one document holding a term, and how often: a tag or
// keyword counts tagWeight.
type posting struct{ doc, tf uint32 }

// appendList appends a term's postings as the index keeps them, in a few
// bytes each, as a prompt reads every page of its words' lists: their
// number, then each document as the gap from the one before (the first
// from 0) and how often it holds the term, all uvarints.
func appendList(b []byte, l []posting) []byte {
	b = binary.AppendUvarint(b, uint64(len(l)))
	prev := uint32(0)
	for _, p := range l {
		b = binary.AppendUvarint(binary.AppendUvarint(b, uint64(p.doc-prev)), uint64(p.tf))
		prev = p.doc
	}
	return b
}

// Index is a decoded on-disk index: slices into the file's bytes, which
// Load maps rather than reads; the mapping goes once the Index is
// collected, or with the process.
type Index struct {
	mapped bool
	kept   []Item // the items of an index held in memory (NewMemory)
	// onDamage, when set, is called once when a part read after decode
	// fails its check (see damaged).
	onDamage func()
	// tail holds the records appended to the archive since the index was
	// built (see Load), searched beside it.
	tail                              *Index
	key                               indexKey
	docs, nterms, total               int
	lens, days, itemOff, itemCRC      []byte
	strOff, postOff, postCRC, termCRC []byte
	strs, posts, items                []byte
}

const headerLen = len(magic) + 8 + 8 + 4 + 4

// decode checks an index's header and directory and returns it (its key
// says which archive it is of); postings and items are checked when read.
func decode(data []byte) (*Index, error) {
	le := binary.LittleEndian
	if len(data) < headerLen+8 || string(data[:len(magic)]) != magic {
		return nil, errCorrupt
	}
	x := &Index{key: indexKey{Size: int64(le.Uint64(data[8:])), ModTime: int64(le.Uint64(data[16:])), Edge: le.Uint32(data[24:])}}
	rest := data[headerLen:]
	docs, nterms := int(le.Uint32(rest)), int(le.Uint32(rest[4:]))
	// The directory's length, from numbers not yet checked: bounded
	// before they are trusted with anything.
	fixed := 8 + 16*docs + 16*nterms + 12 // the counts, then the parts of setParts
	if docs > len(rest)/16 || nterms > len(rest)/16 || fixed > len(rest) || sum(rest[:8+8*docs]) != le.Uint32(data[28:]) {
		return nil, errCorrupt
	}
	strsLen := int(le.Uint32(rest[fixed-8*nterms-4*(nterms+1)-4:]))
	if strsLen > len(rest)-fixed {
		return nil, errCorrupt
	}
	dir := rest[:fixed+strsLen]
	x.docs, x.nterms = docs, nterms
	x.setParts(dir[8:], docs, nterms)
	rest = rest[len(dir):]
	postsLen, itemsLen := u32(x.postOff, nterms), u32(x.itemOff, docs)
	if postsLen+itemsLen != len(rest) {
		return nil, errCorrupt
	}
	x.posts, x.items = rest[:postsLen], rest[postsLen:]
	for i := 0; i < x.docs; i++ {
		x.total += u32(x.lens, i)
	}
	return x, nil
}

// setParts points x's directory parts into d, the directory past its
// two counts.
func (x *Index) setParts(d []byte, docs, nterms int) {
	for _, p := range []struct {
		part *[]byte
		n    int
	}{{&x.lens, docs}, {&x.days, docs}, {&x.itemOff, docs + 1}, {&x.itemCRC, docs}, {&x.strOff, nterms + 1}, {&x.postOff, nterms + 1}, {&x.postCRC, nterms}, {&x.termCRC, nterms}} {
		*p.part, d = d[:4*p.n], d[4*p.n:]
	}
	x.strs = d
}

// damaged is called when a part read after decode fails its check: the
// part is not used, and onDamage (Load removes the file, so the next
// prompt rebuilds it) runs once.
func (x *Index) damaged() {
	if x.onDamage != nil {
		x.onDamage()
		x.onDamage = nil
	}
}

func u32(tab []byte, i int) int { return int(binary.LittleEndian.Uint32(tab[i*4:])) }

func (x *Index) size() int          { return x.docs }
func (x *Index) docLen(doc int) int { return u32(x.lens, doc) }
func (x *Index) docDay(doc int) int { return u32(x.days, doc) }

// termBytes is the i-th term's string, nil (and x damaged) when it or its
// entries in the tables fail their check.
func (x *Index) termBytes(i int) []byte {
	from, to := u32(x.strOff, i), u32(x.strOff, i+1)
	if from > to || to > len(x.strs) || x.termSum(i, x.strs[from:to]) != uint32(u32(x.termCRC, i)) {
		x.damaged()
		return nil
	}
	return x.strs[from:to]
}

// termSum is the checksum of term i: its entries in the string offsets,
// postings offsets and postings checksums as they are stored, then its
// string.
func (x *Index) termSum(i int, term []byte) uint32 {
	crc := uint32(0)
	for _, part := range [][]byte{x.strOff[4*i : 4*i+8], x.postOff[4*i : 4*i+8], x.postCRC[4*i : 4*i+4], term} {
		crc = crc32.Update(crc, crc32.IEEETable, part)
	}
	return crc
}

// termPostings is term's list, read where it lies in the index, not
// copied: a term every item holds has thousands. A list that fails its
// checksum or names a document past the end is damage, and is dropped whole.
func (x *Index) termPostings(term string) []byte {
	// A binary search of the terms, each compared where it lies (a string
	// made of each cost an allocation a step, and the lexicon looks up
	// dozens) once it passes its check.
	lo, hi := 0, x.nterms
	for lo < hi {
		i := int(uint(lo+hi) >> 1)
		b := x.termBytes(i)
		switch {
		case b == nil: // damaged (no term is empty)
			return nil
		case term < string(b):
			hi = i
		case term > string(b):
			lo = i + 1
		default:
			return x.list(i)
		}
	}
	return nil
}

// list is term i's postings list, checked: its checksum, and that it
// reads whole as appendList writes one, of documents of the index.
func (x *Index) list(i int) []byte {
	from, to := u32(x.postOff, i), u32(x.postOff, i+1)
	if from > to || to > len(x.posts) || sum(x.posts[from:to]) != uint32(u32(x.postCRC, i)) {
		x.damaged()
		return nil
	}
	l := x.posts[from:to]
	n, at := binary.Uvarint(l)
	ok := at > 0
	for doc := uint64(0); ok && n > 0; n-- {
		gap, k := binary.Uvarint(l[at:])
		if ok = k > 0 && gap < uint64(x.docs) && doc+gap < uint64(x.docs); ok {
			doc += gap
			_, m := binary.Uvarint(l[at+k:])
			ok, at = m > 0, at+k+m
		}
	}
	if !ok || at != len(l) {
		x.damaged()
		return nil
	}
	return l
}

func (x *Index) item(doc int) (Item, error) {
	if x.kept != nil {
		return x.kept[doc], nil
	}
	from, to := u32(x.itemOff, doc), u32(x.itemOff, doc+1)
	if from > to || to > len(x.items) || sum(x.items[from:to]) != uint32(u32(x.itemCRC, doc)) {
		x.damaged()
		return Item{}, errCorrupt
	}
	return readItem(x.items[from:to])
}

// An item is stored as length-prefixed strings: ID, flags, date, importance,
// tags (comma-joined), text, archived date, reason, keywords (comma-joined).
func appendItem(b []byte, it Item) []byte {
	flags := "e"
	if it.Pattern {
		flags = "p"
	}
	for _, s := range []string{it.ID, flags, memfile.Day(it.Date), string(rune('0' + it.Importance)), strings.Join(it.Tags, ","), it.Text, memfile.Day(it.ArchivedOn), it.Reason, strings.Join(it.Keywords, ",")} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b
}

func readItem(b []byte) (Item, error) {
	var f [9]string
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
	if f[8] != "" {
		it.Keywords = strings.Split(f[8], ",")
	}
	return it, nil
}

// dayNumber is t's day as days since 1970-01-01, 0 for no date: what
// the index keeps to find a time's items.
func dayNumber(t time.Time) int {
	if t.IsZero() {
		return 0
	}
	return int(t.Unix() / 86400)
}
