package memfile

import (
	"testing"
	"unicode/utf8"

	"github.com/matryer/is"
	"golang.org/x/text/encoding/charmap"
)

// A file edited both ways, lines bimri-hook wrote in UTF-8 and one a
// Latin-1 editor added, keeps both right.
func TestMixedEncodingsDecodeByLine(t *testing.T) {
	is := is.New(t)
	in := []byte("caf\xc3\xa9 in UTF-8\n\x93caf\xe9\x94 in Windows-1252 \x80\nplain\n")
	out, n := decodeText(in)
	is.Equal(n, 1)
	is.Equal(string(out), "café in UTF-8\n“café” in Windows-1252 €\nplain\n")
	same, n := decodeText([]byte("café\n"))
	is.Equal(n, 0)
	is.Equal(string(same), "café\n")
}

// The table is Windows-1252, as golang.org/x/text has it, for every byte.
func TestWindows1252IsCharmaps(t *testing.T) {
	for b := 0x80; b < 0x100; b++ {
		want := charmap.Windows1252.DecodeByte(byte(b))
		if want == utf8.RuneError {
			// One of the five bytes Windows-1252 leaves undefined: read as
			// its Latin-1 control code, as the WHATWG standard does, so
			// that no byte is lost.
			want = rune(b)
		}
		got, _ := decodeText([]byte{byte(b)})
		if r, _ := utf8.DecodeRune(got); r != want {
			t.Errorf("byte %#x decodes to %U, want %U", b, r, want)
		}
	}
}
