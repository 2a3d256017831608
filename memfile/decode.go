package memfile

// A bimri.md is UTF-8, as bimri-hook writes it. One saved by an editor
// set to Latin-1 or Windows-1252 (the usual defaults on Windows) is not:
// its accented letters and typographic quotes are single bytes that are
// not UTF-8, and read as UTF-8 the file is garbage (Parse refuses it as
// not text once more than a few such bytes appear). The store decodes
// such a file before parsing it, and the next write puts it back in
// UTF-8.
//
// The decoding is line by line: a line that is valid UTF-8 is kept as it
// is, any other is read as Windows-1252, which reads Latin-1 too, so a
// file edited both ways reads whole. The hook binary needs 32 runes of
// it, not golang.org/x/text's encoding framework, against whose charmap
// TestWindows1252IsCharmaps checks the table.

import (
	"bytes"
	"unicode/utf8"
)

// windows1252 is what the bytes 0x80-0x9F are in Windows-1252. The five
// it leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) are their Latin-1
// control codes, as the WHATWG encoding standard decodes them.
var windows1252 = [32]rune{
	'\u20AC', '\u0081', '\u201A', '\u0192', '\u201E', '\u2026', '\u2020', '\u2021',
	'\u02C6', '\u2030', '\u0160', '\u2039', '\u0152', '\u008D', '\u017D', '\u008F',
	'\u0090', '\u2018', '\u2019', '\u201C', '\u201D', '\u2022', '\u2013', '\u2014',
	'\u02DC', '\u2122', '\u0161', '\u203A', '\u0153', '\u009D', '\u017E', '\u0178',
}

// decodeText is data as UTF-8 text, and how many of its lines were
// decoded from Windows-1252.
func decodeText(data []byte) ([]byte, int) {
	if utf8.Valid(data) {
		return data, 0
	}
	out := make([]byte, 0, len(data)+len(data)/8)
	decoded := 0
	for rest := data; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line = rest[:i+1]
		}
		rest = rest[len(line):]
		if utf8.Valid(line) {
			out = append(out, line...)
			continue
		}
		decoded++
		for _, c := range line {
			switch {
			case c < 0x80:
				out = append(out, c)
			case c < 0xA0:
				out = utf8.AppendRune(out, windows1252[c-0x80])
			default:
				out = utf8.AppendRune(out, rune(c))
			}
		}
	}
	return out, decoded
}
