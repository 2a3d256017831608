package store

import (
	"fmt"
	"os"
)

// Purge removes the backup and the archive under the lock, so no writer
// is halfway through them, then the state folder, lock included; never
// bimri.md. removed lists what was there and is gone.
func (s *Store) Purge() (removed []string, err error) {
	var there []string
	for _, p := range []string{s.Path(s.names.Backup), s.Path(s.names.Archive), s.StatePath()} {
		if _, err := os.Lstat(p); err == nil {
			there = append(there, p)
		}
	}
	if len(there) == 0 {
		return nil, nil
	}
	unlock, _, err := s.lock()
	if err != nil {
		return nil, err
	}
	defer func() { unlock() }()
	for _, p := range there {
		if p == s.StatePath() {
			unlock() // first: Windows removes no file held open
			unlock = func() {}
		}
		if err := os.RemoveAll(p); err != nil {
			return removed, fmt.Errorf("remove %s: %w", p, err)
		}
		removed = append(removed, p)
	}
	return removed, nil
}
