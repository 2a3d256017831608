package memfile

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkLikelySuccessors: the view's mark on a file of 1,000 lasting
// entries on twelve subjects, most with an alike neighbour.
func BenchmarkLikelySuccessors(b *testing.B) {
	day := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	f := New(DefaultConfig())
	words := []string{"cache", "queue", "login", "deploy", "schema", "index", "billing", "search", "upload", "report", "mail", "sms"}
	for i := range 1000 {
		tag := words[i%12]
		_, _, _ = f.Add(NewEntry{Tier: 2, Importance: 4 + i%2, Date: day.AddDate(0, 0, -i/3), Tags: []string{tag, "decision"},
			Text: fmt.Sprintf("Decided the %s %s uses option %d with %s because of reason %d.", tag, words[(i*7)%12], i%17, words[(i*5)%12], i%9)})
	}
	b.ResetTimer()
	for b.Loop() {
		likelySuccessors(f)
	}
}

// BenchmarkLikelySuccessorsWorst: every lasting entry on one subject and
// none alike, so every pair of the newest 300 is compared.
func BenchmarkLikelySuccessorsWorst(b *testing.B) {
	day := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	f := New(DefaultConfig())
	for i := range 1000 {
		_, _, _ = f.Add(NewEntry{Tier: 2, Importance: 4 + i%2, Date: day.AddDate(0, 0, -i/3), Tags: []string{"api", "decision"},
			Text: fmt.Sprintf("Word%da word%db word%dc word%dd word%de word%df word%dg word%dh.", i, i, i, i, i, i, i, i)})
	}
	b.ResetTimer()
	for b.Loop() {
		likelySuccessors(f)
	}
}
