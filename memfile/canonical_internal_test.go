package memfile

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
)

// canonicalSamples are tag lines for the canonicalReader: the lines of
// every test file, tag lines Render writes for entries both ordinary and
// odd, and each of those mutated at random, a byte at a time, toward the
// characters the slow path reads in other ways.
func canonicalSamples(t *testing.T) (samples, rendered []string) {
	t.Helper()
	for _, file := range testdataFiles(t) {
		for _, l := range strings.Split(string(file.data), "\n") {
			samples = append(samples, strings.TrimSpace(l))
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	tags := []string{"db", "go", "ci", "a.b", "x_y", "k-8", "-x", "x.", "Up", "a#b", "ünï", "a b", "", "zz", "0", strings.Repeat("t", 40), strings.Repeat("t", 41)}
	ids := []string{"ab12cd34", "x", "n-2", "0", "-x", "AB12", "a_b", "ab]", strings.Repeat("a", 32), strings.Repeat("a", 33)}
	day := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	for i := range 4000 {
		e := &Entry{
			ID:         ids[rng.IntN(len(ids))],
			Importance: rng.IntN(7),
			Date:       day.AddDate(0, 0, -rng.IntN(400)),
			Weight:     Weight(i % 10010),
			HasWeight:  rng.IntN(8) != 0,
		}
		if rng.IntN(40) == 0 {
			e.Date = time.Time{}
		}
		if rng.IntN(3) != 0 {
			e.Weight = Weight(rng.IntN(1001) * 10) // what a pass writes: tenths
		}
		for range rng.IntN(4) {
			e.Tags = append(e.Tags, tags[rng.IntN(len(tags))])
		}
		if rng.IntN(2) == 0 {
			for range rng.IntN(4) {
				e.Keywords = append(e.Keywords, tags[rng.IntN(len(tags))])
			}
		}
		rendered = append(rendered, entryLine(e))
	}
	alphabet := "[]:, #*_-.0123456789aZ\t\u00e9"
	for _, l := range rendered {
		samples = append(samples, l)
		b := []byte(l)
		for range 1 + rng.IntN(3) {
			k := rng.IntN(len(b) + 1)
			c := alphabet[rng.IntN(len(alphabet))]
			switch rng.IntN(3) {
			case 0:
				b = append(b[:k], append([]byte{c}, b[k:]...)...)
			case 1:
				if k < len(b) {
					b = append(b[:k], b[k+1:]...)
				}
			default:
				if k < len(b) {
					b[k] = c
				}
			}
		}
		samples = append(samples, string(b))
	}
	return samples, rendered
}

// the canonicalReader may take a line only where the slow path reads
// it as the same entry with nothing converted, and it must take the
// lines Render writes.
func TestCanonicalEntryLineIsTheSlowPath(t *testing.T) {
	samples, rendered := canonicalSamples(t)
	fast := 0
	var r canonicalReader
	for _, s := range samples {
		got, ok := r.entryLine(s)
		if !ok {
			continue
		}
		fast++
		st, ok := readItemStart(s, nil)
		if !ok || st.rest != "" || len(st.how) > 0 {
			t.Fatalf("%q: fast path took it, the slow one reads rest %q, how %q (ok %v)", s, st.rest, st.how, ok)
		}
		if _, isPattern := st.fields.get("PATTERN"); isPattern {
			t.Fatalf("%q: fast path took a pattern", s)
		}
		want, how, err := entryFromFields(&Entry{}, st.fields, []string{"text"}, nil)
		if err != nil || len(how) > 0 {
			t.Fatalf("%q: fast path took it, the slow one says %v, how %q", s, err, how)
		}
		got.Text = "text"
		if !reflect.DeepEqual(&got, want) {
			t.Fatalf("%q: fast path reads %+v, the slow one %+v", s, got, *want)
		}
	}
	if fast < len(rendered)/4 {
		t.Fatalf("the fast path took only %d of %d samples", fast, len(samples))
	}
	// Every line a pass writes for an entry as a pass leaves it (a date,
	// importance 1-5, normal ASCII tags, a weight in tenths up to 100, a
	// valid ID) takes the fast path.
	for _, l := range rendered {
		_, ok := r.entryLine(l)
		st, _ := readItemStart(l, nil)
		e, how, err := entryFromFields(&Entry{}, st.fields, []string{"text"}, nil)
		ordinary := err == nil && len(how) == 0 && !e.Date.IsZero() && (!e.HasWeight || e.Weight%10 == 0) && entryLine(e) == l && isASCII(l)
		if ordinary && !ok {
			t.Fatalf("%q: a line as Render writes it missed the fast path", l)
		}
	}
}

// Weights as Weight.appendTo writes them, every one from 0.0 to 100.0,
// read as the slow path reads them.
func TestCanonicalWeight(t *testing.T) {
	for w := Weight(0); w <= 10000; w += 10 {
		s := w.String()
		got, n, ok := canonicalWeight(s + "]")
		v, _ := leadingNumber(s)
		if !ok || n != len(s) || got != Weight(v*100+0.5) || got != w {
			t.Fatalf("%s: read %d (%d bytes, %v), the slow path %d", s, got, n, ok, Weight(v*100+0.5))
		}
	}
	for _, s := range []string{"100.1", "05.0", "1.", ".5", "1000.0", "1.x", ""} {
		if _, _, ok := canonicalWeight(s); ok {
			t.Errorf("%q read as a canonical weight", s)
		}
	}
}

// A parse gives the same file and warnings with the fast path as without.
func TestParseWithoutCanonicalEntryLinesIsTheSame(t *testing.T) {
	var inputs [][]byte
	for _, file := range testdataFiles(t) {
		inputs = append(inputs, file.data)
	}
	samples, _ := canonicalSamples(t)
	var mixed strings.Builder
	mixed.WriteString("# BIMRI Memory\n\n## Tier 2: Active Context\n\n")
	for _, s := range samples[len(samples)-3000:] {
		mixed.WriteString(s + "\nSummary of " + s + "\n\n")
	}
	inputs = append(inputs, []byte(mixed.String()))
	for i, data := range inputs {
		f, w, err := Parse(data)
		slowEntryLines = true
		sf, sw, serr := Parse(data)
		slowEntryLines = false
		if (err == nil) != (serr == nil) || !reflect.DeepEqual(f, sf) || !reflect.DeepEqual(w, sw) {
			t.Fatalf("input %d: the parse differs without the fast path (errors %v, %v)", i, err, serr)
		}
	}
}

// The pass reports the tokens its budget check counted down instead of
// estimating the file again: they must be the estimate of the file it
// leaves, whatever the budgets made it archive.
func TestPassTokensAreTheEstimate(t *testing.T) {
	today := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	checked := 0
	for _, parsed := range parsedTestdata(t) {
		name, f := parsed.name, parsed.f
		for _, budgets := range [][4]int{{6000, 6000, 6000, 18000}, {50, 40, 30, 100}, {1000, 1000, 1, 500}, {1, 1, 1, 1}} {
			cfg := DefaultConfig()
			cfg.Budgets = [3]int{budgets[0], budgets[1], budgets[2]}
			cfg.TotalBudget = budgets[3]
			for _, opt := range []Options{{}, {CountSession: true, Deep: true}} {
				out, rep := Maintain(f, today, cfg, opt)
				if want := Estimate(out); rep.Tokens != want {
					t.Fatalf("%s, budgets %v: the pass reports %+v, the file it leaves is %+v", name, budgets, rep.Tokens, want)
				}
				checked++
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d passes checked", checked)
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
