//go:build bench

package benchwork

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

// Take finds files in nested folders, by slash paths, with their times.
func TestTake(t *testing.T) {
	is := is.New(t)
	root := t.TempDir()
	is.NoErr(os.MkdirAll(filepath.Join(root, ".claude", "bimri"), 0o755))
	is.NoErr(os.WriteFile(filepath.Join(root, "bimri.md"), []byte("memory"), 0o644))
	state := filepath.Join(root, ".claude", "bimri", "pass")
	is.NoErr(os.WriteFile(state, []byte("stamp"), 0o644))
	when := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	is.NoErr(os.Chtimes(state, when, when))

	s, err := Take(root)
	is.NoErr(err)
	is.Equal(len(s.Data), 2)
	is.Equal(string(s.Data["bimri.md"]), "memory")
	is.Equal(string(s.Data[".claude/bimri/pass"]), "stamp")
	is.True(s.MTimes[".claude/bimri/pass"].Equal(when))

	_, err = Take(filepath.Join(root, "missing"))
	is.True(err != nil)
}

// The session is 60 lines of JSON, as Claude Code writes a transcript.
func TestSessionTranscriptIsJSONLines(t *testing.T) {
	is := is.New(t)
	lines := strings.Split(strings.TrimSuffix(string(SessionTranscript()), "\n"), "\n")
	is.Equal(len(lines), 60)
	for _, l := range lines {
		is.True(json.Valid([]byte(l))) // each line is one JSON object
	}
}
