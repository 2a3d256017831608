//go:build bench

package main

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A tiny conversation in LoCoMo's format, written for these tests (no
// LoCoMo data): two sessions a month apart, a photo, and questions with
// evidence in either session, one with evidence written as LoCoMo's
// files sometimes do ("D2:1; D1:3").
const tiny = `{
  "speaker_a": "Ana", "speaker_b": "Ben",
  "session_1_date_time": "1:56 pm on 8 May, 2023",
  "session_1": [
    {"speaker": "Ana", "dia_id": "D1:1", "text": "Hi Ben! How was the week?"},
    {"speaker": "Ben", "dia_id": "D1:2", "text": "Busy. I adopted a greyhound called Pixel.", "blip_caption": "a photo of a grey dog on a sofa"},
    {"speaker": "Ana", "dia_id": "D1:3", "text": "I signed up for a pottery class on Thursdays."}
  ],
  "session_2_date_time": "10:37 am on 9 June, 2023",
  "session_2": [
    {"speaker": "Ben", "dia_id": "D2:1", "text": "Pixel won a ribbon at the county fair yesterday!"},
    {"speaker": "Ana", "dia_id": "D2:2", "text": "My pottery teacher says my bowls are improving."}
  ],
  "events_session_1": {},
  "qa": [
    {"question": "What is the name of Ben's greyhound?", "answer": "Pixel", "evidence": ["D1:2"], "category": 4},
    {"question": "When did Pixel win a ribbon?", "answer": "8 June 2023", "evidence": ["D2:1"], "category": 2},
    {"question": "What does Ana make in her pottery class?", "answer": "bowls", "evidence": ["D2:1; D1:3", "D2:2"], "category": 1},
    {"question": "What did Ben's cat win?", "adversarial_answer": "a ribbon", "evidence": ["D2:1"], "category": 5},
    {"question": "What is Ana's favourite colour?", "answer": "unknown", "evidence": [], "category": 3}
  ]
}`

func tinyZip(t *testing.T) (string, string) {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create("data/multimodal_dialog/locomo10_v2/01.json")
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte(tiny))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "tiny.zip")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(buf.Bytes())
	return path, hex.EncodeToString(sum[:])
}

func TestReadZip(t *testing.T) {
	path, sum := tinyZip(t)
	if _, _, err := readZip(path, wantSHA256); err == nil || !strings.Contains(err.Error(), "sha256") {
		t.Fatalf("an archive with another checksum was read: %v", err)
	}
	convs, got, err := readZip(path, sum)
	if err != nil {
		t.Fatal(err)
	}
	if got != sum || len(convs) != 1 {
		t.Fatalf("checksum %s, %d conversations", got, len(convs))
	}
	c := convs[0]
	if c.name != "01" || len(c.sessions) != 2 || len(c.sessions[0].turns) != 3 || len(c.qa) != 5 {
		t.Fatalf("read %+v", c)
	}
	if d := c.sessions[1].date.Format("2006-01-02"); d != "2023-06-09" {
		t.Fatalf("session 2 on %s, want 2023-06-09", d)
	}
	if got := turnText(c.sessions[0].turns[1]); got != "Ben: Busy. I adopted a greyhound called Pixel. [shared a photo: a photo of a grey dog on a sofa]" {
		t.Fatalf("turnText = %q", got)
	}
	if ev := c.qa[2].evidence; !slices.Equal(ev, []string{"D2:1", "D1:3", "D2:2"}) {
		t.Fatalf("evidence %q", ev)
	}
}

func TestNamesTime(t *testing.T) {
	for q, want := range map[string]bool{
		"When did Caroline go to the support group?":   true,
		"What did Ben do last week?":                   true,
		"Where did they travel in October?":            true,
		"What happened two years ago?":                 true,
		"What did Melanie paint in 2022?":              true,
		"What is the name of Ben's greyhound?":         false,
		"What fields would Caroline pursue in school?": false,
		"Did Ana mayhem?":                              false, // a month name inside a word is no month
	} {
		if got := namesTime.MatchString(q); got != want {
			t.Errorf("namesTime(%q) = %v, want %v", q, got, want)
		}
	}
}

// TestScore scores made-up answers: the hook recalled entry b (turns D1:2
// and D2:1, recorded with the same text) for every question.
func TestScore(t *testing.T) {
	path, sum := tinyZip(t)
	convs, _, err := readZip(path, sum)
	if err != nil {
		t.Fatal(err)
	}
	l := lived{
		conv:   convs[0],
		idDias: map[string][]string{"a": {"D1:1"}, "b": {"D1:2", "D2:1"}, "c": {"D1:3"}, "d": {"D2:2"}},
		inView: []string{"d"},
		entries: []entry{{"a", "Ana: Hi Ben! How was the week?"}, {"b", "Ben: Busy. I adopted a greyhound called Pixel."},
			{"c", "Ana: I signed up for a pottery class on Thursdays."}, {"d", "Ana: My pottery teacher says my bowls are improving."}},
		recalled: [][]string{{"b"}, {"b"}, {"b"}, {"b"}, {"b"}},
	}
	rs := score(l)
	if len(rs) != 4 {
		t.Fatalf("%d results, want 4 (the question without evidence left out)", len(rs))
	}
	multi := rs[2]
	if multi.Hook != 1.0/3 || multi.HookView != 2.0/3 || multi.K != 1 {
		t.Fatalf("multi-hop: hook %v, with view %v, k %d; want 1/3, 2/3, 1", multi.Hook, multi.HookView, multi.K)
	}
	// BM25 shares "pottery" and "ana" with c and d, "ana" with a, and no
	// word with b: one item finds one of three turns, five find two.
	if multi.BM25 != 1.0/3 || multi.BM25At5 != 2.0/3 {
		t.Fatalf("multi-hop BM25: %v at 1 item, %v at 5; want 1/3 and 2/3", multi.BM25, multi.BM25At5)
	}
	// Stemmed, the question's words are ana, make, potteri, class: c.
	if multi.Stemmed != 1.0/3 {
		t.Fatalf("multi-hop stemmed BM25: %v at 1 item, want 1/3", multi.Stemmed)
	}
	// At two items stemmed BM25 takes c and d; d is in the view, so over
	// what the view leaves out it takes c and a (the other "Ana" turn).
	l.recalled[2] = []string{"b", "a"}
	two := score(l)[2]
	if two.Stemmed != 2.0/3 || two.StemmedLeftOut != 1.0/3 {
		t.Fatalf("multi-hop stemmed BM25 at 2 items: %v, not in the view %v; want 2/3 and 1/3", two.Stemmed, two.StemmedLeftOut)
	}
	if !rs[1].Timed || rs[0].Timed {
		t.Fatalf("names_time: %v, %v", rs[0].Timed, rs[1].Timed)
	}
	f := summarize(rs, func(r result) bool { return r.Category != adversarial })
	if f.n != 3 || f.hook.share != (1+1+1.0/3)/3 || f.hook.all != 2.0/3 {
		t.Fatalf("summary %+v", f)
	}
}

// TestLive lives the tiny conversation through the real binary, built
// for the test: every turn is recorded and mapped back, and the
// questions reach the hook.
func TestLive(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := filepath.Join(t.TempDir(), "bimri-hook")
	build := exec.Command("go", "build", "-o", bin, "github.com/bimri/bimri-hook/cmd/bimri-hook")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	path, sum := tinyZip(t)
	convs, _, err := readZip(path, sum)
	if err != nil {
		t.Fatal(err)
	}
	l, err := live(bin, convs[0])
	if err != nil {
		t.Fatal(err)
	}
	if l.unmapped != 0 || len(l.idDias) != 5 || len(l.entries) != 5 {
		t.Fatalf("%d turns unmapped, %d IDs, %d entries; want 0, 5, 5", l.unmapped, len(l.idDias), len(l.entries))
	}
	if len(l.recalled) != len(convs[0].qa) {
		t.Fatalf("%d questions answered, want %d", len(l.recalled), len(convs[0].qa))
	}
	// The month-old session's entries went to the archive at the second
	// session's passes; the view the next day shows the second session's.
	var second []string
	for id, dias := range l.idDias {
		if strings.HasPrefix(dias[0], "D2:") {
			second = append(second, id)
		}
	}
	slices.Sort(second)
	view := slices.Sorted(slices.Values(l.inView))
	if !slices.Equal(view, second) {
		t.Fatalf("view shows %v, want session 2's entries %v", view, second)
	}
}
