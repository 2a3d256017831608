package hooks_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/bimri/bimri-hook/hooks"
	"github.com/matryer/is"
)

// encodingJSON is how Output.Write printed answers before it wrote them by
// hand: the bytes the hand-written encoder must keep.
func encodingJSON(t *testing.T, m map[string]any) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func written(t *testing.T, m map[string]any) string {
	t.Helper()
	var buf bytes.Buffer
	if err := (hooks.Output{JSON: m}).Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

var trickyStrings = []string{
	"",
	"plain text",
	`quote " and backslash \ and slash /`,
	"new\nline\r\ttab\b\f",
	"\x00\x01\x1f\x7f",
	"html <b>&amp;</b> > <",
	"line sep \u2028 para sep \u2029",
	"invalid \xff\xfe utf-8 \xc3",
	"truncated rune \xe2\x80",
	"surrogate \xed\xa0\x80",
	"emoji 🧠 and accents é ü ñ",
	"\ufffd already a replacement",
	strings.Repeat("long ", 3000),
}

// TestAnswerJSONMatchesEncodingJSON: the answer's bytes are encoding/json's
// (HTML escaping off) for every tricky string, as a value, as a key and
// nested the way additionalContext nests it.
func TestAnswerJSONMatchesEncodingJSON(t *testing.T) {
	for _, s := range trickyStrings {
		for _, m := range []map[string]any{
			{"systemMessage": s},
			{s: "value", "b": s, "a": ""},
			{"hookSpecificOutput": map[string]any{"hookEventName": "SessionStart", "additionalContext": s}, "systemMessage": s},
			{},
		} {
			if got, want := written(t, m), encodingJSON(t, m); got != want {
				t.Errorf("for %q:\n got %q\nwant %q", s, got, want)
			}
		}
	}
}

// TestAnswerJSONRandomStrings: random bytes, weighted towards the ones
// that need escaping, give encoding/json's bytes.
func TestAnswerJSONRandomStrings(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 2026))
	pieces := []string{"a", " ", "\"", "\\", "\n", "\x00", "\x1f", "<", "&", "\u2028", "\u2029", "é", "🧠", "\xff", "\xe2", "\x80", "\xed\xa0\x80"}
	for range 2000 {
		var b strings.Builder
		for range rng.IntN(40) {
			if rng.IntN(3) == 0 {
				b.WriteByte(byte(rng.IntN(256)))
			} else {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
		}
		s := b.String()
		m := map[string]any{"hookSpecificOutput": map[string]any{"additionalContext": s, s: s}, s + "k": s}
		if got, want := written(t, m), encodingJSON(t, m); got != want {
			t.Fatalf("for %q:\n got %q\nwant %q", s, got, want)
		}
	}
}

// TestAnswerJSONOtherValues: a value that is not a string or an object of
// strings still prints, through encoding/json.
func TestAnswerJSONOtherValues(t *testing.T) {
	is := is.New(t)
	for _, m := range []map[string]any{
		{"continue": false, "systemMessage": "x"},
		{"n": 3, "list": []string{"<a>"}},
		{"nilObject": map[string]any(nil)},
		{"deep": map[string]any{"x": map[string]any{"y": true}}},
	} {
		is.Equal(written(t, m), encodingJSON(t, m))
	}
}

func FuzzAnswerJSON(f *testing.F) {
	for _, s := range trickyStrings {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, key, value string) {
		m := map[string]any{key: value, "hookSpecificOutput": map[string]any{"additionalContext": value, key: key}}
		if got, want := written(t, m), encodingJSON(t, m); got != want {
			t.Fatalf("got %q\nwant %q", got, want)
		}
	})
}
