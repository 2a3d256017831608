package hooks

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// An answer's JSON is written by appendJSON; it must be, byte for byte,
// what encoding/json writes without HTML escaping, whatever the text.
func TestAnswerJSONIsEncodingJSONs(t *testing.T) {
	pieces := []string{"a", " ", "<private>", "&", ">", `"`, `\`, "\n", "\r", "\t", "\b", "\f", "\x00", "\x01", "\x1f", "\x7f",
		"é", "…", "\u2028", "\u2029", "\ufffd", "\xff", "\xe2\x80", "😀", "\u202e", "/"}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		answer := map[string]any{"hookSpecificOutput": map[string]any{"additionalContext": s, "hookEventName": "SessionStart", s: nil}, "systemMessage": s}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(answer); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := (Output{JSON: answer}).Write(&got); err != nil || got.String() != want.String() {
			t.Fatalf("%q: wrote %q (%v), encoding/json %q", s, got.String(), err, want.String())
		}
	}
	if err := (Output{JSON: map[string]any{"n": 1}}).Write(&bytes.Buffer{}); err == nil {
		t.Error("a number in an answer was written")
	}
}
