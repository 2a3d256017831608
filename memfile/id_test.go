package memfile_test

import (
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/bimri/bimri-hook/memfile"
)

// IDs are written into users' files, so EntryID must keep to its
// definition: the first 8 hex digits of the SHA-256 of "YYYY-MM-DD\n"
// and the text in its comparison form (trimmed, each run of white space
// one space as \s+ matches it, lower case, trailing ".!;: " dropped).
// entryIDByDefinition restates that with the standard library only, so
// the hand-built buffers and date digits of EntryID answer to it.
func entryIDByDefinition(date time.Time, text string) string {
	norm := regexp.MustCompile(`\s+`).ReplaceAllString(strings.TrimSpace(text), " ")
	norm = strings.TrimRight(strings.ToLower(norm), ".!;: ")
	sum := sha256.Sum256([]byte(date.Format(time.DateOnly) + "\n" + norm))
	return hex.EncodeToString(sum[:])[:8]
}

func TestEntryIDMatchesItsDefinition(t *testing.T) {
	// Random texts of the bytes the comparison form treats specially
	// (white space of each kind, upper case, the trailing punctuation,
	// a multi-byte letter), on random dates from year 1 to 9999.
	pieces := []string{"a", "B", "z", "Chose", "POSTGRES", "é", "Ü", " ", "  ", "\t", "\n", "\r", "\f", "\v", ".", "!", ";", ":", ",", "?", "-"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		text := b.String()
		date := time.Date(1+rng.IntN(9999), time.Month(1+rng.IntN(12)), 1+rng.IntN(28), 0, 0, 0, 0, time.UTC)
		if got, want := memfile.EntryID(date, text), entryIDByDefinition(date, text); got != want {
			t.Fatalf("EntryID(%s, %q) = %s, want %s", date.Format(time.DateOnly), text, got, want)
		}
	}
}

// What the comparison form promises: case, spacing and trailing
// punctuation do not make two entries different; words and days do.
func TestEntryIDSameAndDifferent(t *testing.T) {
	is := is.New(t)
	day := time.Date(2026, 3, 7, 0, 0, 0, 0, time.UTC)
	id := memfile.EntryID(day, "Chose Postgres.")
	is.True(regexp.MustCompile(`^[0-9a-f]{8}$`).MatchString(id))
	for _, same := range []string{"chose postgres", "  CHOSE\tPostgres!  ", "Chose  Postgres;:", "Chose\nPostgres."} {
		is.Equal(memfile.EntryID(day, same), id) // the same entry
	}
	for _, other := range []string{"Chose MySQL.", "Chose Postgres 16.", "Chose, Postgres.", "ChosePostgres."} {
		is.True(memfile.EntryID(day, other) != id) // another entry
	}
	is.True(memfile.EntryID(day.AddDate(0, 0, 1), "Chose Postgres.") != id) // another day
}

// IDs already written in users' files never change: these were derived
// by the definition above, and every later EntryID must agree.
func TestEntryIDsOfExistingFiles(t *testing.T) {
	is := is.New(t)
	day := time.Date(2026, 3, 7, 0, 0, 0, 0, time.UTC)
	for text, id := range map[string]string{
		"Chose Postgres.": "7c922db8",
		"":                "6dbe9973",
		"é ünïcode text":  "73756104",
	} {
		is.Equal(memfile.EntryID(day, text), id) // the ID this text has always had
	}
}

func TestPatternIDMatchesItsDefinition(t *testing.T) {
	is := is.New(t)
	for _, tags := range [][]string{{"db", "go"}, {"testing"}, {}} {
		sum := sha256.Sum256([]byte("pattern\n" + strings.Join(tags, ",")))
		is.Equal(memfile.PatternID(tags), "p"+hex.EncodeToString(sum[:])[:7]) // "p" and 7 hex digits of the hash
	}
}
