package memfile

// Reading bimri.md as the store does. A committed file is read by every
// clone, so one that is damaged but still holds entries must not empty
// memory: a file saved in Latin-1 or Windows-1252 is decoded (decode.go),
// and one whose END marker is missing (cut short by hand, by a tool, by
// a disk that filled) is read up to where it ends. Either way the user
// is told, and the file as it was is set aside before the first write
// replaces it.

import (
	"errors"
	"fmt"
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
// the last line. The damage is said in the first warnings.
func ParseStored(data []byte) (*File, []Warning, Damage, error) {
	text, decoded := decodeText(data)
	d := Damage{Decoded: decoded}
	f, w, err := parseDecoded(text)
	if errors.Is(err, errCut) {
		d.Cut = true
		ended := make([]byte, 0, len(text)+len(endMarker)+2)
		ended = append(append(append(ended, text...), '\n'), endMarker+"\n"...)
		f, w, err = parseDecoded(ended)
	}
	if err != nil || !d.Any() {
		return f, w, d, err
	}
	return f, append(d.warnings(), w...), d, nil
}

// parseDecoded is Parse for text decodeText made UTF-8, which is not
// checked again.
func parseDecoded(text []byte) (*File, []Warning, error) {
	if err := checkText(text); err != nil {
		return nil, nil, err
	}
	return parseText(string(text))
}

func (d Damage) warnings() []Warning {
	var w []Warning
	if d.Decoded > 0 {
		w = append(w, Warning{Message: fmt.Sprintf("%d lines are not UTF-8; they were read as Windows-1252 (Latin-1), and the next update writes the file in UTF-8", d.Decoded)})
	}
	if d.Cut {
		w = append(w, Warning{Message: fmt.Sprintf("the file ends without its %q line (cut short?); everything up to where it ends was read", endMarker)})
	}
	return w
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
