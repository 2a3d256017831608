package memfile_test

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/bimri/bimri-hook/memfile"
)

// IDs are written into users' files, so building them without the
// intermediate strings must give the same IDs as the plain definition:
// the first hex digits of the SHA-256 of "date\nnormal text" (entries)
// and "pattern\ntags" after a "p" (patterns).
func TestIDsMatchTheirDefinition(t *testing.T) {
	is := is.New(t)
	hash := func(s string) string {
		sum := sha256.Sum256([]byte(s))
		return hex.EncodeToString(sum[:])
	}
	date := time.Date(2026, 3, 7, 0, 0, 0, 0, time.UTC)
	for _, text := range []string{"Chose Postgres.", "  chose   POSTGRES!  ", "", "é ünïcode text"} {
		want := hash("2026-03-07\n" + normalTextForTest(text))[:8]
		is.Equal(memfile.EntryID(date, text), want) // entry ID for text
	}
	is.Equal(memfile.PatternID([]string{"db", "go"}), "p"+hash("pattern\ndb,go")[:7])
}

// normalTextForTest restates the comparison form EntryID hashes for the
// inputs above: trimmed, spaces collapsed, lower case, trailing
// punctuation dropped.
func normalTextForTest(s string) string {
	switch s {
	case "Chose Postgres.", "  chose   POSTGRES!  ":
		return "chose postgres"
	}
	return s
}
