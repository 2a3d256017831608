package memfile

// Reading bimri.md as the store does: a committed file is read by every
// clone, so a damaged one that still holds entries must not empty memory.
// One saved in Latin-1 or Windows-1252 (editors' defaults on Windows) is
// decoded, one missing its END marker read up to where it ends; the user
// is told, and the store sets the file aside before replacing it.

import (
	"bytes"
	"errors"
	"fmt"
	"unicode/utf8"
)

// Damage is what was wrong with a bimri.md that still reads.
type Damage struct {
	Decoded int  // lines that were not UTF-8, read as Windows-1252
	Cut     bool // no END marker: read up to where the file ends
}

// Any says whether anything was wrong.
func (d Damage) Any() bool { return d.Decoded > 0 || d.Cut }

// ParseStored parses bimri.md's bytes as the store reads them: decoded
// to UTF-8, and, when the END marker is missing, read as if it followed
// the last line. The damage is said in the first warning.
func ParseStored(data []byte) (*File, []Warning, Damage, error) {
	text, decoded := decodeText(data)
	d := Damage{Decoded: decoded}
	f, w, err := Parse(text)
	if errors.Is(err, errCut) {
		d.Cut = true
		ended := make([]byte, 0, len(text)+len(endMarker)+2)
		ended = append(append(append(ended, text...), '\n'), endMarker+"\n"...)
		f, w, err = Parse(ended)
	}
	if err != nil || !d.Any() {
		return f, w, d, err
	}
	return f, append([]Warning{{Message: "the file " + d.Describe()}}, w...), d, nil
}

// Describe says what was wrong, for the user.
func (d Damage) Describe() string {
	var what string
	if d.Decoded > 0 {
		what = fmt.Sprintf("was not UTF-8 (%d lines): read it as Windows-1252 (Latin-1), and it is written back in UTF-8", d.Decoded)
	}
	if d.Cut {
		if what != "" {
			what += ", and it "
		}
		what += fmt.Sprintf("ended without its %q line, as if cut short: kept every entry up to where it ends", endMarker)
	}
	return what
}

// windows1252 is what the bytes 0x80-0x9F are in Windows-1252, the five
// it leaves undefined their Latin-1 controls (as WHATWG decodes them).
// 32 runes, not golang.org/x/text, which TestWindows1252IsCharmaps checks
// them against.
var windows1252 = [32]rune{
	'\u20AC', '\u0081', '\u201A', '\u0192', '\u201E', '\u2026', '\u2020', '\u2021',
	'\u02C6', '\u2030', '\u0160', '\u2039', '\u0152', '\u008D', '\u017D', '\u008F',
	'\u0090', '\u2018', '\u2019', '\u201C', '\u201D', '\u2022', '\u2013', '\u2014',
	'\u02DC', '\u2122', '\u0161', '\u203A', '\u0153', '\u009D', '\u017E', '\u0178',
}

// decodeText is data as UTF-8 text, and how many of its lines were
// decoded from Windows-1252: a line that is valid UTF-8 is kept, so a
// file edited both ways reads whole.
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
