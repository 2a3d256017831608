package memfile

// The pass stamp lets a hook skip a pass that would change nothing, and
// lets SessionStart read the file without the lock (ReadMaintained). It
// is an optimisation with its own correctness argument, so it is kept
// apart from the transaction that uses it.

import (
	"crypto/sha256"
	"fmt"
	"hash/crc32"
	"path/filepath"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/internal/safefile"
)

// A Snapshot is a memory file read without the lock that a plain pass on
// its day, under its config, would leave as it is (see ReadMaintained).
type Snapshot struct {
	File     *File
	data     []byte    // the bytes File was parsed from
	warnings []Warning // what parsing them warned of
	stamp    string    // the pass stamp they match
}

// ReadMaintained reads the memory file without the lock and returns it
// when a plain pass on today under cfg would leave it unchanged: its bytes
// are the ones the last pass left, on that day, under that config (the
// pass stamp). Otherwise, or on any error, it returns false and the caller
// takes the usual path through Update (or UpdateFrom, with the snapshot).
func (s *Store) ReadMaintained(today time.Time, cfg Config) (*Snapshot, bool) {
	path, err := s.safePath(s.names.Memory)
	if err != nil {
		return nil, false
	}
	// The stamp first: on the first run of a day it names another day,
	// and the file need not be read and hashed only to be read again
	// under the lock.
	stamp := passStamp(today, cfg)
	saved, ok := s.savedStamp(stamp)
	if !ok || s.hasPending() { // a pending entry is for the lock's path to record
		return nil, false
	}
	data, err := safefile.Read(path, MaxMemorySize)
	if err != nil || len(data) == 0 || saved != stampLine(data, stamp) {
		return nil, false
	}
	f, warnings, d, err := parseStored(data)
	if err != nil || d.any() {
		return nil, false // a damaged file is for the lock's path to repair
	}
	return &Snapshot{File: f, data: data, warnings: warnings, stamp: stamp}, true
}

// The pass stamp is a line in the state folder: the day and config a
// pass ran with, and a fingerprint of the bimri.md it left. While the
// file still has that fingerprint, the same pass would change nothing, so
// SessionStart and Stop need not run it again. It is bookkeeping like the
// session state: written atomically, not synced, and only after the file
// it names is on disk. A stamp that is lost or stale costs one pass.
const passStampName = "pass"

// passStamp is the stamp's first part, what a pass depends on besides
// the file: the day, the config and the file format's version. (A new
// binary with other rules on the same day is caught up by SessionEnd,
// whose pass always runs.)
func passStamp(today time.Time, cfg Config) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "%#v", cfg))
	return fmt.Sprintf("%s %s %x", civil(today).Format(time.DateOnly), currentVersion, sum[:8])
}

func (s *Store) stampMatches(data []byte, stamp string) bool {
	if len(data) == 0 {
		return false
	}
	saved, ok := s.savedStamp(stamp)
	return ok && saved == stampLine(data, stamp)
}

// savedStamp is the stamp the last pass saved, if it ran on the day and
// config stamp names. The day and config are compared first: the first
// pass of a day finds the stamp of another, and need not fingerprint the
// file to see it.
func (s *Store) savedStamp(stamp string) (string, bool) {
	saved, err := safefile.Read(filepath.Join(s.StatePath(), passStampName), maxStateSize)
	if err != nil || !strings.HasPrefix(string(saved), stamp+" ") {
		return "", false
	}
	return string(saved), true
}

// stampLine is the stamp for a file: its first part, then the file's
// fingerprint, its length and CRC-32 (IEEE). The fingerprint tells an
// unchanged file from an edited one; nobody gains by forging it (a match
// only skips a pass SessionEnd runs anyway), so it need not be a
// cryptographic hash: an accidental edit that keeps both the length and
// the checksum is a chance in four billion. The IEEE checksum runs in the
// processor's carry-less multiply with nothing to build first (the
// Castagnoli one builds tables on first use: ~0.3 ms of every steady
// SessionStart here, more than SHA-256 of an ordinary file took); at
// 10,000 entries (1.8 MB) it takes a tenth of SHA-256's 1.2-1.4 ms.
func stampLine(data []byte, stamp string) string {
	return fingerprintLine(len(data), crc32.ChecksumIEEE(data), stamp)
}

// fingerprintLine is stampLine for a file of size bytes whose CRC-32 is
// crc.
func fingerprintLine(size int, crc uint32, stamp string) string {
	return fmt.Sprintf("%s %d-%08x\n", stamp, size, crc)
}

// savePassStamp records that the file of size bytes and CRC-32 crc is
// what a pass with stamp left. A failure costs only a pass next time,
// so it is not an error.
func (s *Store) savePassStamp(size int, crc uint32, stamp string) {
	line := fingerprintLine(size, crc, stamp)
	path := filepath.Join(s.StatePath(), passStampName)
	if old, err := safefile.Read(path, maxStateSize); err == nil && string(old) == line {
		return
	}
	_ = s.writeState(path, []byte(line))
}
