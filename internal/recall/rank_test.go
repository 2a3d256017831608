package recall

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

// Rank is Find's ranking alone, of any corpora, with no time read.
func Rank(prompt string, q Query, corpora ...*Index) (hits []Hit) {
	if guard(func() { hits, _ = rankScoped(prompt, q, nil, corpora) }) != nil {
		return nil
	}
	return hits
}

func date(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t
}

// corpusItems is a small archive: a few decisions among routine entries,
// enough that common words are common.
func corpusItems() []Item {
	items := []Item{
		{ID: "aaaa0001", Date: date("2026-03-20"), Importance: 4, Tags: []string{"cache", "redis"}, Text: "Decided to use Redis for the session cache, not memcached."},
		{ID: "aaaa0002", Date: date("2026-04-02"), Importance: 4, Tags: []string{"db", "decision"}, Text: "Migrated the database layer from SQLite to PostgreSQL."},
		{ID: "aaaa0003", Date: date("2026-05-11"), Importance: 3, Tags: []string{"auth"}, Text: "Added unit tests for the auth module, 94% coverage."},
		{ID: "aaaa0004", Date: date("2026-05-12"), Importance: 2, Tags: []string{"lint"}, Text: "Fixed a typo in the config loader."},
		{ID: "aaaa0005", Date: date("2026-06-01"), Importance: 3, Tags: []string{"deploy"}, Text: "Deploys go through the staging cluster first, then production."},
		{ID: "paaaa006", Pattern: true, Date: date("2026-06-03"), Tags: []string{"flaky-tests"}, Text: "Tag flaky-tests recurs: 4 entries from 2026-05-01 to 2026-06-03."},
	}
	for i := range 30 {
		items = append(items, Item{ID: fmt.Sprintf("bbbb%04d", i), Date: date("2026-02-01").AddDate(0, 0, i), Importance: 1,
			Tags: []string{"routine"}, Text: fmt.Sprintf("Ran the lint pass and the tests on module %d, no issues.", i)})
	}
	return items
}

func ids(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Item.ID)
	}
	return out
}

func TestRank(t *testing.T) {
	cases := []struct {
		prompt string
		want   []string // the first hits, in order; nil: no hit at all
	}{
		{"Which cache did we settle on for sessions?", []string{"aaaa0001"}},
		{"Remind me why we migrated the database", []string{"aaaa0002"}},
		{"are the auth tests still at 94% coverage", []string{"aaaa0003"}},
		{"how do deploys reach production", []string{"aaaa0005"}},
		{"the flaky tests again", []string{"paaaa006"}},
		{"ok", nil},
		{"yes", nil},
		{"please continue with the next step", nil},
		{"cache", []string{"aaaa0001"}}, // a one-word prompt needs one word
	}
	mem := NewMemory(corpusItems())
	for _, c := range cases {
		got := ids(Rank(c.prompt, Query{MinShare: DefaultMinShare}, mem))
		if c.want == nil {
			if got != nil {
				t.Errorf("Rank(%q) = %v, want nothing", c.prompt, got)
			}
			continue
		}
		if len(got) < len(c.want) || !slices.Equal(got[:len(c.want)], c.want) {
			t.Errorf("Rank(%q) = %v, want it to start %v", c.prompt, got, c.want)
		}
	}
}

// A word in the tags counts for more than the same word in the text, and a
// rare word for more than a common one.
func TestRankWeights(t *testing.T) {
	is := is.New(t)
	filler := corpusItems()[6:]
	tagged := Item{ID: "tag", Date: date("2026-01-01"), Tags: []string{"tokio", "runtime"}, Text: "Chose one executor for everything."}
	texted := Item{ID: "text", Date: date("2026-01-01"), Text: "Chose the tokio runtime executor for everything."}
	hits := Rank("tokio runtime", Query{}, NewMemory(append([]Item{texted, tagged}, filler...)))
	is.Equal(ids(hits)[:2], []string{"tag", "text"})

	rare := Item{ID: "rare", Date: date("2026-01-01"), Text: "The zstd level is pinned at lint time."}
	hits = Rank("zstd lint", Query{}, NewMemory(append([]Item{rare}, filler...)))
	is.Equal(ids(hits)[0], "rare")
}

// Equal scores go to the newer item, then the smaller ID; the order of the
// items given does not matter.
func TestRankTieBreak(t *testing.T) {
	is := is.New(t)
	items := []Item{
		{ID: "c", Date: date("2026-01-01"), Text: "kafka consumer lag alert"},
		{ID: "b", Date: date("2026-01-02"), Text: "kafka consumer lag alert"},
		{ID: "a", Date: date("2026-01-01"), Text: "kafka consumer lag alert"},
	}
	items = append(items, corpusItems()[6:]...)
	want := []string{"b", "a", "c"}
	is.Equal(ids(Rank("kafka consumer lag", Query{}, NewMemory(items))), want)
	slices.Reverse(items)
	is.Equal(ids(Rank("kafka consumer lag", Query{}, NewMemory(items))), want)
}

func TestRankSkipAndMinScore(t *testing.T) {
	is := is.New(t)
	mem := NewMemory(corpusItems())
	hits := Rank("which cache did we pick for sessions", Query{Skip: func(it Item) bool { return it.ID == "aaaa0001" }}, mem)
	is.True(!slices.Contains(ids(hits), "aaaa0001"))
	is.Equal(Rank("which cache did we pick for sessions", Query{MinShare: 1000}, mem), nil)
}

// Room goes by rank: a long item is never passed over for a shorter,
// weaker one after it; the best always comes, shortened when it must;
// and an item far below the best gets no room.
func TestSelect(t *testing.T) {
	is := is.New(t)
	var hits []Hit
	for i, n := range []int{600, 1000, 300, 200, 100, 100, 100} {
		hits = append(hits, Hit{Item: Item{ID: fmt.Sprint(i), Text: strings.Repeat("x", n)}, Score: 10 - float64(i)/2})
	}
	measure := func(it Item) int { return len([]rune(it.Text)) }
	is.Equal(ids(Select(hits, 5, 1500, measure)), []string{"0"})               // 1000 does not fit after 600: the answer ends there
	is.Equal(ids(Select(hits[2:], 3, 1500, measure)), []string{"2", "3", "4"}) // three at most
	short := Select(hits[1:], 5, 500, measure)
	is.Equal(ids(short), []string{"1"}) // the best, shortened to fit
	is.True(measure(short[0].Item) <= 500 && strings.HasSuffix(short[0].Item.Text, "…"))
	hits[3].Score = 2 // under three tenths of the best
	is.Equal(ids(Select(hits[2:], 5, 1500, measure)), []string{"2"})
	is.Equal(len(Select(nil, 5, 1500, measure)), 0)
}

// The on-disk index ranks exactly as the in-memory one, alone and beside
// another corpus.
func TestIndexRanksAsMemory(t *testing.T) {
	is := is.New(t)
	items := corpusItems()
	x, err := decode(encode(items, indexKey{Size: 1, ModTime: 2}))
	is.NoErr(err)
	is.Equal(x.key, indexKey{Size: 1, ModTime: 2})
	for _, c := range []struct {
		p   string
		opt Query
	}{
		{"which cache for sessions", Query{}}, {"database postgres", Query{}}, {"lint tests module 7", Query{}}, {"flaky tests", Query{}},
		{"which postgres db did we move to", Query{Lexicon: true}}, {"sign-in spec coverage", Query{Lexicon: true}},
		{"memcache redis session", Query{Lexicon: true}}, {"lint tests module 7", Query{Lexicon: true}},
	} {
		p, opt := c.p, c.opt
		want := Rank(p, opt, NewMemory(items))
		is.True(len(want) > 0 || !opt.Lexicon) // each lexicon case finds something
		got := Rank(p, opt, x)
		is.Equal(len(got), len(want))
		for i := range got {
			is.Equal(got[i].Item.ID, want[i].Item.ID)
			is.True(got[i].Score-want[i].Score < 1e-4 && want[i].Score-got[i].Score < 1e-4) // tf is stored as float32
			is.Equal(got[i].Item.Text, want[i].Item.Text)
			is.Equal(got[i].Item.Tags, want[i].Item.Tags)
			is.True(got[i].Item.Date.Equal(want[i].Item.Date))
		}
		split := Rank(p, opt, NewMemory(items[:3]), mustDecode(t, encode(items[3:], indexKey{})))
		is.Equal(ids(split), ids(want))
	}
}

func mustDecode(t *testing.T, data []byte) *Index {
	x, err := decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// Any damage is caught, never a panic or a wrong answer: by decode, or
// when the part is read.
func TestDecodeDamaged(t *testing.T) {
	data := encode(corpusItems(), indexKey{Size: 10})
	for i := 0; i < len(data); i += 7 {
		bad := slices.Clone(data)
		bad[i] ^= 0x40
		x, err := decode(bad)
		if err != nil || i < 8+16 {
			continue
		}
		damaged := false
		x.onDamage = func() { damaged = true }
		readAll(x)
		if !damaged {
			t.Errorf("flipping byte %d went unnoticed", i)
		}
	}
	for _, n := range []int{0, 5, headerLen, len(data) / 2, len(data) - 1} {
		if _, err := decode(data[:n]); err == nil {
			t.Errorf("a cut to %d bytes went unnoticed", n)
		}
	}
	x, err := decode(data)
	if err != nil {
		t.Fatal(err)
	}
	x.onDamage = func() { t.Error("an index as built reads as damaged") }
	readAll(x)
}

// readAll reads every postings list and item of x.
func readAll(x *Index) {
	for i := 0; i < x.nterms; i++ {
		_ = x.termPostings(string(x.termBytes(i)))
	}
	for d := 0; d < x.size(); d++ {
		_, _ = x.item(d)
		_ = x.docLen(d)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(encode(corpusItems()[:5], indexKey{}))
	f.Add(encode(nil, indexKey{}))
	f.Fuzz(func(t *testing.T, data []byte) {
		// Recompute the checksums so the fuzzer reaches the layout checks.
		if len(data) >= headerLen+8 {
			data = fixChecksums(data)
		}
		x, err := decode(data)
		if err != nil {
			return
		}
		readAll(x)
	})
}

// fixChecksums gives data the magic and, where the layout lets them be
// found, the checksums of its directory, terms, postings and items.
func fixChecksums(data []byte) []byte {
	out := slices.Clone(data)
	copy(out, magic)
	le := binary.LittleEndian
	rest := out[headerLen:]
	docs, nterms := int(le.Uint32(rest)), int(le.Uint32(rest[4:]))
	fixed := 8 + 16*docs + 16*nterms + 12
	if docs > len(rest)/16 || nterms > len(rest)/16 || fixed > len(rest) {
		return out
	}
	le.PutUint32(out[28:], sum(rest[:8+8*docs]))
	var x Index
	x.setParts(rest[8:fixed], docs, nterms)
	strsLen := u32(x.strOff, nterms)
	if strsLen > len(rest)-fixed {
		return out
	}
	x.strs = rest[fixed : fixed+strsLen]
	body := rest[fixed+strsLen:]
	postsLen := u32(x.postOff, nterms)
	if postsLen <= len(body) {
		for i := 0; i < nterms; i++ {
			if from, to := u32(x.postOff, i), u32(x.postOff, i+1); from <= to && to <= postsLen {
				le.PutUint32(x.postCRC[4*i:], sum(body[from:to]))
			}
		}
		items := body[postsLen:]
		for d := 0; d < docs; d++ {
			if from, to := u32(x.itemOff, d), u32(x.itemOff, d+1); from <= to && to <= len(items) {
				le.PutUint32(x.itemCRC[4*d:], sum(items[from:to]))
			}
		}
	}
	for i := 0; i < nterms; i++ {
		if from, to := u32(x.strOff, i), u32(x.strOff, i+1); from <= to && to <= len(x.strs) {
			le.PutUint32(x.termCRC[4*i:], x.termSum(i, x.strs[from:to]))
		}
	}
	return out
}

// Load builds the index once, reuses it while the archive is unchanged,
// reads the records appended since beside it (never rebuilding it for
// a few), rebuilds it when many were appended, the archive was
// rewritten, or the index is damaged or gone.
func TestLoad(t *testing.T) {
	is := is.New(t)
	dir := t.TempDir()
	archive, index := filepath.Join(dir, memfile.ArchiveName), filepath.Join(dir, IndexName)

	x, err := Load(archive, index) // no archive yet
	is.NoErr(err)
	is.Equal(x.size(), 0)

	e := &memfile.Entry{ID: "0f3e2a11", Importance: 4, Date: date("2026-03-01"), Tags: []string{"cache", "redis"}, Text: "Decided to use Redis for the session cache."}
	appendArchive(t, archive, e, "weight 0.5 below threshold 1.5")
	x, err = Load(archive, index)
	is.NoErr(err)
	is.Equal(x.size(), 1)
	hits := Rank("redis cache", Query{}, x)
	is.Equal(len(hits), 1)
	is.Equal(hits[0].Item.Reason, "weight 0.5 below threshold 1.5")
	is.Equal(hits[0].Item.ArchivedOn.Format(time.DateOnly), "2026-03-24")

	// An index Load still trusts is read, not written again: dated in the
	// past, it keeps its date (a rewrite would date it now).
	past := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	is.NoErr(os.Chtimes(index, past, past))
	_, err = Load(archive, index)
	is.NoErr(err)
	info, err := os.Stat(index)
	is.NoErr(err)
	is.True(info.ModTime().Equal(past)) // reused, not rewritten

	appendArchive(t, archive, &memfile.Entry{ID: "1f3e2a11", Importance: 2, Date: date("2026-03-02"), Text: "Ran lint on the billing module."}, "weight below threshold")
	x, err = Load(archive, index)
	is.NoErr(err)
	is.Equal(x.size(), 1)      // the index as it was,
	is.Equal(x.tail.size(), 1) // and the appended record beside it
	info, err = os.Stat(index)
	is.NoErr(err)
	is.True(info.ModTime().Equal(past)) // not rebuilt
	is.Equal(ids(Find(Query{Text: "lint the billing module"}, nil, x)), []string{"1f3e2a11"})

	// Many records appended: the index is rebuilt with them.
	for i := range 300 {
		appendArchive(t, archive, &memfile.Entry{ID: fmt.Sprintf("2%07x", i), Importance: 2, Date: date("2026-03-03"), Text: "Routine work " + strings.Repeat("on the reports module, ", 10)}, "weight below threshold")
	}
	x, err = Load(archive, index)
	is.NoErr(err)
	is.Equal(x.size(), 302)
	is.True(x.tail == nil)
	// Rebuilt from its own items and the tail, it is the index a rebuild
	// from the whole archive writes, its Edge that of the archive now.
	grown, err := os.ReadFile(index)
	is.NoErr(err)
	is.NoErr(os.Remove(index))
	_, err = Load(archive, index)
	is.NoErr(err)
	whole, err := os.ReadFile(index)
	is.NoErr(err)
	is.True(bytes.Equal(grown, whole))

	// A rewritten archive (not only grown) is read again whole.
	data, err := os.ReadFile(archive)
	is.NoErr(err)
	is.NoErr(os.WriteFile(archive, append([]byte("\n"), data[:len(data)/2]...), 0o644))
	appendArchive(t, archive, e, "weight 0.5 below threshold 1.5")
	x, err = Load(archive, index)
	is.NoErr(err)
	is.True(x.tail == nil && x.size() < 302)
	is.NoErr(os.WriteFile(archive, data, 0o644))
	x, err = Load(archive, index)
	is.NoErr(err)
	is.Equal(x.size(), 302)

	is.NoErr(os.WriteFile(index, []byte("BIMRIRX3 not really"), 0o644))
	x, err = Load(archive, index)
	is.NoErr(err)
	is.Equal(x.size(), 302)
	data, err = os.ReadFile(index)
	is.NoErr(err)
	_, err = decode(data)
	is.NoErr(err) // the damaged index was replaced

	is.NoErr(os.Remove(index))
	x, err = Load(archive, index)
	is.NoErr(err)
	is.Equal(x.size(), 302)
}

func appendArchive(t *testing.T, path string, e *memfile.Entry, reason string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(memfile.RenderArchived([]memfile.Removal{{Entry: e, Tier: 2, Reason: reason}}, date("2026-03-24"))); err != nil {
		t.Fatal(err)
	}
}

// Secrets and <private> text never reach the index or a recall.
func TestPrivacy(t *testing.T) {
	is := is.New(t)
	e := &memfile.Entry{ID: "x", Date: date("2026-01-01"), Text: "Deploy key for staging is <private>hunter2 swordfish</private> and token ghp_" + "FAKEq8Rz2LmW7vXc0NbT5yHs3JkD9pGa4UeQ stored."}
	it := FromEntry(e)
	is.True(!strings.Contains(it.Text, "hunter2"))
	items := append([]Item{it}, corpusItems()...)
	is.Equal(Rank("hunter2 swordfish", Query{}, NewMemory(items)), nil)
	// What recall returns holds no secret, nor what the index holds.
	is.True(!strings.Contains(it.Cleaned().Text, "ghp_"+"FAKE"))
	arch, ok := fromArchive(memfile.ArchiveRecord{Entry: e, ArchivedOn: date("2026-02-01"), Reason: "password=" + "hunter2"})
	is.True(ok)
	is.True(!strings.Contains(arch.Text, "ghp_"+"FAKE") && !strings.Contains(arch.Text, "hunter2"))
	is.Equal(arch.Reason, "password=[redacted]")
}

// A postings list or item found damaged when a prompt reads it is not
// used, and the index goes, so the next prompt rebuilds it.
func TestDamageFoundOnReadRebuilds(t *testing.T) {
	is := is.New(t)
	dir := t.TempDir()
	archive, index := filepath.Join(dir, memfile.ArchiveName), filepath.Join(dir, IndexName)
	appendArchive(t, archive, &memfile.Entry{ID: "0f3e2a11", Importance: 4, Date: date("2026-03-01"), Tags: []string{"cache", "redis"}, Text: "Decided to use Redis for the session cache."}, "weight 0.5 below threshold 1.5")
	_, err := Load(archive, index)
	is.NoErr(err)
	data, err := os.ReadFile(index)
	is.NoErr(err)
	good, err := decode(data)
	is.NoErr(err)
	postings := len(data) - len(good.posts) - len(good.items)
	is.True(len(good.posts) > 0)

	for _, c := range []struct {
		at   int
		hits int // what the damaged index still finds
	}{
		{postings, 1},      // the first term's list goes; the other two still match
		{len(data) - 1, 0}, // the only item
	} {
		at := c.at
		bad := slices.Clone(data)
		bad[at] ^= 0x40
		is.NoErr(os.WriteFile(index, bad, 0o644))
		info, err := os.Stat(archive)
		is.NoErr(err)
		is.NoErr(os.Chtimes(archive, info.ModTime(), info.ModTime())) // the index still names the archive
		x, err := Load(archive, index)
		is.NoErr(err) // the directory is whole
		is.Equal(len(Rank("redis cache session", Query{}, x)), c.hits)
		_, err = os.Stat(index)
		is.True(errors.Is(err, fs.ErrNotExist)) // gone, to be rebuilt

		x, err = Load(archive, index)
		is.NoErr(err)
		is.Equal(len(Rank("redis cache session", Query{}, x)), 1) // rebuilt
	}
}

// A limited Rank is the top of the unlimited one, exactly, ties and all:
// candidates come off a heap best first and decoding stops early, which
// must not change which items make the cut or their order.
func TestRankLimitIsTopOfAll(t *testing.T) {
	is := is.New(t)
	rng := rand.New(rand.NewPCG(3, 4))
	words := []string{"cache", "redis", "session", "upload", "retry", "loop", "billing", "webhook", "latency", "tests"}
	for range 40 {
		var items []Item
		for range 60 + rng.IntN(200) {
			var text []string
			for range 2 + rng.IntN(6) {
				text = append(text, words[rng.IntN(len(words))])
			}
			items = append(items, Item{ID: fmt.Sprintf("%08x", rng.Uint32()), Date: date("2026-01-01").AddDate(0, 0, rng.IntN(30)),
				Tags: []string{words[rng.IntN(len(words))]}, Text: strings.Join(text, " ")}) // many share a text: ties
		}
		split := rng.IntN(len(items))
		x := mustDecode(t, encode(items[split:], indexKey{}))
		mem := NewMemory(items[:split])
		prompt := words[rng.IntN(len(words))] + " " + words[rng.IntN(len(words))] + " " + words[rng.IntN(len(words))]
		skipped := map[string]bool{}
		for _, it := range items {
			if rng.IntN(4) == 0 {
				skipped[it.ID] = true
			}
		}
		skip := func(it Item) bool { return skipped[it.ID] }
		all := Rank(prompt, Query{Skip: skip}, mem, x)
		for _, limit := range []int{1, 5, 20} {
			got := Rank(prompt, Query{Skip: skip, Limit: limit}, mem, x)
			want := all[:min(limit, len(all))]
			is.Equal(ids(got), ids(want)) // the top of the unlimited ranking
		}
	}
}

// A long prompt shares two words with a long entry by chance: a busy
// day's note on the reports module is not the answer to a regex for
// German postal codes, nor to squashing the last three commits. A short
// entry that shares the same two words still is.
func TestChanceWordsOfLongEntries(t *testing.T) {
	long := "Reports module, CSV export: column names follow the German labels first, with the English ones second. " +
		"The numbers now match the spreadsheet the pilot clinic keeps by hand. Wrote a table test with three fake clinics. " +
		"Removed report types nobody opened in the last six months. Large exports now stream row by row instead of building the file in memory. " +
		"Empty months show a zero instead of being left out, so the chart's axis no longer jumps."
	items := append(corpusItems(), Item{ID: "cccc0001", Date: date("2026-06-05"), Importance: 3, Tags: []string{"reports"}, Text: long})
	// Months of routine work, so a word of the note is rare, and the rest
	// of the busy day: long notes on the module.
	for i := range 400 {
		items = append(items, Item{ID: fmt.Sprintf("dddd%04d", i), Date: date("2026-01-01").AddDate(0, 0, i%150), Importance: 2,
			Tags: []string{"routine"}, Text: fmt.Sprintf("Fixed a flaky test in the booking flow, ticket %d.", i)})
	}
	for i := range 6 {
		items = append(items, Item{ID: fmt.Sprintf("cccc01%02d", i), Date: date("2026-06-05"), Importance: 3, Tags: []string{"reports"},
			Text: fmt.Sprintf("Reports module, chart %d: the chart library redraws on every filter change; debounced it to 300 ms. "+
				"The download button shows progress and can be cancelled; before, a second click started a second export. "+
				"Percentages round half up now, so the rows of a table add up to 100 in the cases we tried.", i)})
	}
	for _, p := range []string{"write a regex that matches German postal codes", "how do I squash the last three commits in git?"} {
		if hits := Rank(p, Query{MinShare: DefaultMinShare}, NewMemory(items)); len(hits) > 0 {
			t.Errorf("%q recalls %v", p, ids(hits))
		}
	}
	short := append(corpusItems(), Item{ID: "cccc0002", Date: date("2026-06-05"), Importance: 3, Tags: []string{"i18n"}, Text: "Postal codes are validated with the German rules."})
	if got := ids(Rank("write a regex that matches German postal codes", Query{MinShare: DefaultMinShare}, NewMemory(short))); !slices.Equal(got, []string{"cccc0002"}) {
		t.Errorf("a short entry sharing the prompt's words: hits %v, want cccc0002", got)
	}
}

// BenchmarkChecksums compares the index's checksum (CRC-32, IEEE) with
// CRC-32C on a megabyte, about what a prompt checks (docs/performance.md).
func BenchmarkChecksums(b *testing.B) {
	data := make([]byte, 1<<20)
	for i := range data {
		data[i] = byte(i * 7)
	}
	b.Run("IEEE", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			sum(data)
		}
	})
	b.Run("Castagnoli", func(b *testing.B) {
		table := crc32.MakeTable(crc32.Castagnoli)
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			crc32.Checksum(data, table)
		}
	})
}

// TestShortlistKeepsTheBest: a ranking with a Limit keeps only the best
// scores it sees, yet gives the first Limit hits of the ranking with
// none, Skip passing over some and the best one's day raised (its
// candidates dropped first, then needed), over one corpus and two.
func TestShortlistKeepsTheBest(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	words := strings.Fields("cache deploy billing webhook latency session handler queue worker schema table index report alert")
	items := make([]Item, 3000)
	for i := range items { // an eighth of one day in 40, the others of one in 3,000
		text := make([]string, 3+rng.IntN(8))
		for j := range text {
			text[j] = words[rng.IntN(len(words))]
		}
		items[i] = Item{ID: fmt.Sprintf("%08x", i), Date: date("2026-01-01").AddDate(0, 0, rng.IntN(map[bool]int{true: 40, false: 3000}[i%8 == 0])), Text: strings.Join(text, " ")}
	}
	pruned := 0
	for _, prompt := range []string{"billing webhook latency", "cache deploy", "the session handler queue worker report", "alert"} {
		for _, corpora := range [][]*Index{{NewMemory(items)}, {NewMemory(items[:700]), NewMemory(items[700:])}} {
			for _, skip := range []func(Item) bool{nil, func(it Item) bool { return it.ID[7]%3 == 0 }, func(it Item) bool { return it.ID[7] != '0' }} {
				all := Rank(prompt, Query{MinShare: 0.05, Skip: skip}, corpora...)
				for _, limit := range []int{1, 3, 10} {
					want := all[:min(limit, len(all))]
					is.New(t).Equal(Rank(prompt, Query{MinShare: 0.05, Skip: skip, Limit: limit}, corpora...), want)
					if len(all) > 4*limit {
						pruned++
					}
				}
			}
		}
	}
	is.New(t).True(pruned > 20) // the shortlist dropped candidates
}

// TestShortlistKeepsTheBestDay: an item of the best one's day that the
// shortlist dropped (days out of order) ranks where sameDay puts it.
func TestShortlistKeepsTheBestDay(t *testing.T) {
	var items []Item
	add := func(day, text string) {
		items = append(items, Item{ID: fmt.Sprintf("%08x", len(items)), Date: date(day), Text: text})
	}
	for i := range 8 {
		add(fmt.Sprintf("2026-03-%02d", i+1), "alpha beta")
	}
	add("2026-05-01", "alpha beta filler words and more words")
	for i := range 8 {
		add(fmt.Sprintf("2026-04-%02d", i+1), "alpha beta")
	}
	add("2026-05-01", "alpha beta gamma")
	for range 40 {
		add("2026-01-01", "unrelated")
	}
	all := Rank("alpha beta gamma", Query{MinShare: 0.05}, NewMemory(items))
	is := is.New(t)
	is.Equal(all[1].Item.ID, items[8].ID) // raised by its day above the others
	is.Equal(Rank("alpha beta gamma", Query{MinShare: 0.05, Limit: 2}, NewMemory(items)), all[:2])
}
