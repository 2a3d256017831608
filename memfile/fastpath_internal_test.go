package memfile

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
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

func TestValidIDMatchesItsPattern(t *testing.T) {
	re := regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,31}$`)
	samples := append(fastPathSamples(t), strings.Repeat("a", 32), strings.Repeat("a", 33), "-a", "a-", "ab12cd34")
	for _, s := range samples {
		if validID(s) != re.MatchString(s) {
			t.Errorf("validID(%q) = %v, the pattern says %v", s, validID(s), re.MatchString(s))
		}
	}
}
