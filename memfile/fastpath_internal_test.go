package memfile

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"
)

// The parser's fast paths skip work only where the slow path would change
// nothing. Each is checked against the slow path on the lines of every
// test file and on random strings over an alphabet rich in the characters
// that matter.

// testdataFile is a file in testdata: the real and odd memory files the
// fast paths are checked on.
type testdataFile struct {
	name string
	data []byte
}

func testdataFiles(t *testing.T) []testdataFile {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join("testdata", "*"))
	var out []testdataFile
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, testdataFile{name, data})
	}
	return out
}

// parsedTestdata are the testdata files Parse accepts, parsed.
func parsedTestdata(t *testing.T) []parsedFile {
	t.Helper()
	var out []parsedFile
	for _, file := range testdataFiles(t) {
		if f, _, err := Parse(file.data); err == nil {
			out = append(out, parsedFile{file.name, f})
		}
	}
	return out
}

type parsedFile struct {
	name string
	f    *File
}

func fastPathSamples(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, file := range testdataFiles(t) {
		for _, l := range strings.Split(string(file.data), "\n") {
			out = append(out, l, strings.TrimSpace(l))
			out = append(out, strings.FieldsFunc(l, func(r rune) bool { return r == '[' || r == ']' || r == ':' || r == ',' })...)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "Z", "0", "9", " ", "  ", "\t", "-", "_", ".", "#", "[", "]", ":", "<", ">", "!", "<!--", "-->", "é", "\u2028", "\x7f", "\x01", "\xff", ","}
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		out = append(out, b.String())
	}
	return out
}

func TestPlainLineLeavesNeutralizeUnchanged(t *testing.T) {
	plain := 0
	for _, s := range fastPathSamples(t) {
		if plainLine(s) {
			plain++
			if slow := neutralizeSlow(s); slow != s {
				t.Errorf("plainLine(%q) but Neutralize's steps give %q", s, slow)
			}
		}
	}
	if plain < 100 {
		t.Fatalf("only %d plain samples", plain)
	}
}

// neutralizeSlow is Neutralize without its fast path.
func neutralizeSlow(s string) string {
	if s == "" {
		return Neutralize(s)
	}
	// A leading control character defeats plainLine; Neutralize turns it
	// into a space and trims it, so the rest goes through the full path.
	return Neutralize("\x01" + s)
}

func TestValidIDMatchesItsPattern(t *testing.T) {
	re := regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,31}$`)
	samples := append(fastPathSamples(t), strings.Repeat("a", 32), strings.Repeat("a", 33), "-a", "a-", "ab12cd34")
	for _, s := range samples {
		if validID(s) != re.MatchString(s) {
			t.Errorf("validID(%q) = %v, the pattern says %v", s, validID(s), re.MatchString(s))
		}
	}
}

func TestCivilUnixMatchesCivil(t *testing.T) {
	zones := []*time.Location{time.UTC, time.FixedZone("east", 11*3600), time.FixedZone("west", -9*3600-1800)}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		sec := rng.Int64N(1<<38) - 1<<37 // some 4,000 years either side of 1970
		for _, z := range zones {
			tm := time.Unix(sec, rng.Int64N(1e9)).In(z)
			if got, want := civilUnix(tm), civil(tm).Unix(); got != want {
				t.Fatalf("civilUnix(%v) = %d, civil gives %d", tm, got, want)
			}
		}
	}
	for _, tm := range []time.Time{{}, time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC), time.Date(-1, 1, 1, 23, 59, 59, 999, time.UTC)} {
		if got, want := civilUnix(tm), civil(tm).Unix(); got != want {
			t.Errorf("civilUnix(%v) = %d, civil gives %d", tm, got, want)
		}
	}
}

func TestLengthMatchesUTF16(t *testing.T) {
	for _, s := range append(fastPathSamples(t), "abc𝄞", "\xff", "é", "a\xe2\x82b", "") {
		want := 0
		for _, r := range s {
			want += utf16.RuneLen(r)
		}
		if got := Length(s); got != want {
			t.Errorf("Length(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestRuneCountMatchesUTF8(t *testing.T) {
	samples := fastPathSamples(t)
	long := strings.Repeat("abcdefgh", 5)
	for _, s := range samples[:2000] {
		samples = append(samples, long+s, long[:13]+s+long, s+long)
	}
	for _, s := range samples {
		if got, want := runeCount(s), utf8.RuneCountInString(s); got != want {
			t.Errorf("runeCount(%q) = %d, want %d", s, got, want)
		}
		if p := asciiPrefix(s); strings.IndexFunc(s[:p], func(r rune) bool { return r >= utf8.RuneSelf }) >= 0 || (p < len(s) && s[p] < utf8.RuneSelf) {
			t.Errorf("asciiPrefix(%q) = %d", s, p)
		}
	}
}

// TestCountsAtEveryOffset puts a byte that is not ASCII (a valid rune of
// two, three or four bytes, a cut one, a stray continuation byte) at every
// offset within and across the eight-byte words asciiPrefix reads, with
// more after it, and checks Length against a plain UTF-16 count and
// runeCount against utf8's. (The UTF-16 count is what Claude Code
// measures: checked once with node on the JSON the hook writes.)
func TestCountsAtEveryOffset(t *testing.T) {
	for n := 0; n <= 40; n++ { // past two turns of sixteen bytes and one of eight
		for off := 0; off <= n; off++ {
			for _, odd := range []string{"\x80", "\xff", "é", "€", "😀", "\xf0\x9f", "\xe2\x82", "\x7f", "\x00"} {
				for _, tail := range []string{"", "a", "😀", "\xc3"} {
					s := strings.Repeat("a", off) + odd + strings.Repeat("b", n-off) + tail
					if got, want := Length(s), len(utf16.Encode([]rune(s))); got != want {
						t.Errorf("Length(%q) = %d, want %d", s, got, want)
					}
					if got, want := runeCount(s), utf8.RuneCountInString(s); got != want {
						t.Errorf("runeCount(%q) = %d, want %d", s, got, want)
					}
				}
			}
		}
	}
}

// plainLine reads eight bytes at a time; it must say what reading a
// byte at a time says, with every kind of byte at every offset of the
// words and across their edges.
func TestPlainLineWordAtATime(t *testing.T) {
	byteAtATime := func(s string) bool {
		if s == "" || s[0] == ' ' || s[0] == '#' || s[len(s)-1] == ' ' {
			return false
		}
		for i := 0; i < len(s); i++ {
			switch c := s[i]; {
			case c < 0x20 || c >= 0x7f || c == '[' || c == '<' || c == '>':
				return false
			case c == ' ' && s[i+1] == ' ':
				return false
			}
		}
		return true
	}
	// Every byte, at every position, alone and with a second one after
	// it within the word or in the next.
	var special []byte
	for c := range 256 {
		special = append(special, byte(c))
	}
	base := "The quick brown fox jumps over the lazy dog again."
	checked := 0
	for i := 0; i < len(base); i++ {
		for _, c := range special {
			for _, second := range []int{-1, i + 1, i + 7, i + 8, i + 9} {
				b := []byte(base)
				b[i] = c
				if second >= 0 && second < len(b) {
					b[second] = c
				}
				for _, s := range []string{string(b), string(b[1:]), string(b[:len(b)-3])} {
					if got, want := plainLine(s), byteAtATime(s); got != want {
						t.Fatalf("plainLine(%q) = %v, byte at a time %v", s, got, want)
					}
					checked++
				}
			}
		}
	}
	for _, s := range fastPathSamples(t) {
		if got, want := plainLine(s), byteAtATime(s); got != want {
			t.Fatalf("plainLine(%q) = %v, byte at a time %v", s, got, want)
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d strings checked", checked)
	}
}
func TestAppendDateMatchesAppendFormat(t *testing.T) {
	for _, d := range []time.Time{
		{}, // year 1
		time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC),
		time.Date(2026, 1, 2, 23, 59, 59, 0, time.FixedZone("east", 14*3600)),
		time.Date(999, 12, 31, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), // past four digits: the general formatter
		time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC),
	} {
		if got, want := string(appendDate([]byte("x"), d)), "x"+d.Format(dateLayout); got != want {
			t.Errorf("appendDate(%v) = %q, want %q", d, got, want)
		}
	}
}
