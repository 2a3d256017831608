package store

// Setting aside a damaged bimri.md that still reads (memfile.ParseStored
// reads it) before the first write replaces it.

import (
	"fmt"
	"path/filepath"

	"github.com/bimri/bimri-hook/memfile"
)

// keepDamaged sets aside the damaged bimri.md at path, whose bytes are
// data, before the transaction's write replaces it, and says so in the
// transaction's notice, for the user.
func (s *Store) keepDamaged(path string, data []byte, d memfile.Damage, tx *Tx) error {
	aside, err := s.setAsideOnce(path, data)
	if err != nil {
		return fmt.Errorf("%s: %s, and could not be set aside: %w", s.names.Memory, d.Describe(), err)
	}
	tx.Notice = fmt.Sprintf("%s %s; kept the file as it was as %s", s.names.Memory, d.Describe(), filepath.Base(aside))
	return nil
}

// complete says whether data reads as a whole memory file, END marker
// and all: what a writer that finished leaves.
func complete(data []byte) bool {
	_, _, d, err := memfile.ParseStored(data)
	return err == nil && !d.Cut
}
