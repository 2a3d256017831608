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
	"path/filepath"
)

// damage is what was wrong with a bimri.md that still reads.
type damage struct {
	decoded int  // lines that were not UTF-8, read as Windows-1252
	cut     bool // no END marker: read up to where the file ends
}

func (d damage) any() bool { return d.decoded > 0 || d.cut }

// parseStored parses bimri.md's bytes as the store reads them: decoded
// to UTF-8, and, when the END marker is missing, read as if it followed
// the last line. The damage is said in the first warnings. A file that
// is UTF-8, as nearly all are, is checked once, here (parseDecoded).
func parseStored(data []byte) (*File, []Warning, damage, error) {
	text, decoded := decodeText(data)
	d := damage{decoded: decoded}
	f, w, err := parseDecoded(text)
	if errors.Is(err, errCut) {
		d.cut = true
		ended := make([]byte, 0, len(text)+len(endMarker)+2)
		ended = append(append(append(ended, text...), '\n'), endMarker+"\n"...)
		f, w, err = parseDecoded(ended)
	}
	if err != nil || !d.any() {
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

// complete says whether data reads as a whole memory file, END marker
// and all: what a writer that finished leaves.
func complete(data []byte) bool {
	_, _, d, err := parseStored(data)
	return err == nil && !d.cut
}

func (d damage) warnings() []Warning {
	var w []Warning
	if d.decoded > 0 {
		w = append(w, Warning{Message: fmt.Sprintf("%d lines are not UTF-8; they were read as Windows-1252 (Latin-1), and the next update writes the file in UTF-8", d.decoded)})
	}
	if d.cut {
		w = append(w, Warning{Message: fmt.Sprintf("the file ends without its %q line (cut short?); everything up to where it ends was read", endMarker)})
	}
	return w
}

// keepDamaged sets aside the damaged bimri.md at path, whose bytes are
// data, before the transaction's write replaces it, and says so in the
// transaction's notice, for the user.
func (s *Store) keepDamaged(path string, data []byte, d damage, tx *Tx) error {
	aside, err := s.setAsideOnce(path, data)
	if err != nil {
		return fmt.Errorf("%s: %s, and could not be set aside: %w", s.names.Memory, d.describe(), err)
	}
	tx.Notice = fmt.Sprintf("%s %s; kept the file as it was as %s", s.names.Memory, d.describe(), filepath.Base(aside))
	return nil
}

func (d damage) describe() string {
	var what string
	if d.decoded > 0 {
		what = fmt.Sprintf("was not UTF-8 (%d lines): read it as Windows-1252 (Latin-1), and it is written back in UTF-8", d.decoded)
	}
	if d.cut {
		if what != "" {
			what += ", and it "
		}
		what += fmt.Sprintf("ended without its %q line, as if cut short: kept every entry up to where it ends", endMarker)
	}
	return what
}
