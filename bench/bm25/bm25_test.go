//go:build bench

package bm25

import (
	"math"
	"slices"
	"testing"
)

func TestTokens(t *testing.T) {
	got := Tokens("Caroline's LGBTQ support-group, 7 May 2023!")
	want := []string{"caroline", "s", "lgbtq", "support", "group", "7", "may", "2023"}
	if !slices.Equal(got, want) {
		t.Fatalf("Tokens = %q, want %q", got, want)
	}
}

// Stems drop the stop words ("s" of "Caroline's", "during") and stem
// the rest.
func TestStems(t *testing.T) {
	got := Stems("Caroline's LGBTQ support-groups, during 7 May 2023!")
	want := []string{"carolin", "lgbtq", "support", "group", "7", "may", "2023"}
	if !slices.Equal(got, want) {
		t.Fatalf("Stems = %q, want %q", got, want)
	}
}

// The stemmed index meets other forms of a word, where the plain one
// does not.
func TestStemmedMeetsOtherForms(t *testing.T) {
	docs := []string{"Melanie: I painted a sunrise by the lake.", "Caroline: The support group was powerful."}
	if got := New(docs).Top("paintings of sunrises", 5); len(got) != 0 {
		t.Fatalf("plain Top = %v, want none", got)
	}
	if got := NewStemmed(docs).Top("paintings of sunrises", 5); !slices.Equal(got, []int{0}) {
		t.Fatalf("stemmed Top = %v, want [0]", got)
	}
}

// TestScoreByHand checks one score against the formula worked by hand:
// three documents, the query word in one of them once.
func TestScoreByHand(t *testing.T) {
	ix := New([]string{"the cat sat", "a dog ran far away", "the dog"})
	// idf(cat) = ln(1 + (3-1+0.5)/(1+0.5)); avg length 10/3; doc 0 has 3 words.
	idf := math.Log(1 + 2.5/1.5)
	want := idf * 1 * (k1 + 1) / (1 + k1*(1-b+b*3/(10.0/3)))
	if got := ix.Score(0, Tokens("cat")); math.Abs(got-want) > 1e-12 {
		t.Fatalf("Score = %v, want %v", got, want)
	}
	if got := ix.Score(1, Tokens("cat")); got != 0 {
		t.Fatalf("a document without the word scored %v", got)
	}
}

func TestTop(t *testing.T) {
	ix := New([]string{
		"Melanie: I painted a sunrise by the lake last year.",
		"Caroline: The support group was powerful.",
		"Melanie: The kids loved the lake, we camped there.",
		"Caroline: I want to study counseling.",
	})
	// The rarer word (sunrise) outweighs the commoner (lake): doc 0 first.
	if got := ix.Top("When did Melanie paint the sunrise at the lake?", 2); !slices.Equal(got, []int{0, 2}) {
		t.Fatalf("Top = %v, want [0 2]", got)
	}
	if got := ix.Top("counseling", 5); !slices.Equal(got, []int{3}) {
		t.Fatalf("Top returned documents sharing no word: %v", got)
	}
	if got := ix.Top("nothing matches zebra", 5); len(got) != 0 {
		t.Fatalf("Top = %v for a query sharing no word", got)
	}
	if got := ix.Top("lake", 0); len(got) != 0 {
		t.Fatalf("Top(k=0) = %v", got)
	}
}
