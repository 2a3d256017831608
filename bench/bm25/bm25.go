//go:build bench

// Package bm25 is the plain baseline the recall evaluations set beside
// bimri-hook's recall: Okapi BM25 (k1 = 1.2, b = 0.75) over lower-case
// word tokens, no stemming, no stop words, nothing learned. It is kept
// deliberately textbook so that "better than BM25" means something.
// NewStemmed is the usual first step beyond it, for a second, harder
// baseline: the Snowball project's English stop words dropped and the
// rest stemmed by Porter2, as a careful engineer's BM25 would do.
package bm25

import (
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/kljensen/snowball/english"
)

const (
	k1 = 1.2
	b  = 0.75
)

var word = regexp.MustCompile(`[\p{L}\p{N}]+`)

// Tokens are text's lower-case words: runs of letters and digits.
func Tokens(text string) []string { return word.FindAllString(strings.ToLower(text), -1) }

// Stems are Tokens less the Snowball English stop words, each stemmed by
// Porter2 (github.com/kljensen/snowball). Recall drops those stop words
// too, with a few of its own, and stems alike.
func Stems(text string) []string {
	var out []string
	for _, w := range Tokens(text) {
		if !english.IsStopWord(w) {
			out = append(out, english.Stem(w, true))
		}
	}
	return out
}

// Index holds the documents' term counts and the collection's statistics.
type Index struct {
	tokens func(string) []string
	tf     []map[string]int
	length []int
	df     map[string]int
	avg    float64
}

// New indexes docs by Tokens; a document's place in docs is its number
// in Top.
func New(docs []string) *Index { return newIndex(docs, Tokens) }

// NewStemmed indexes docs, and reads queries, by Stems.
func NewStemmed(docs []string) *Index { return newIndex(docs, Stems) }

func newIndex(docs []string, tokens func(string) []string) *Index {
	ix := &Index{tokens: tokens, df: map[string]int{}}
	total := 0
	for _, d := range docs {
		tf := map[string]int{}
		toks := tokens(d)
		for _, t := range toks {
			if tf[t]++; tf[t] == 1 {
				ix.df[t]++
			}
		}
		ix.tf, ix.length = append(ix.tf, tf), append(ix.length, len(toks))
		total += len(toks)
	}
	if len(docs) > 0 {
		ix.avg = float64(total) / float64(len(docs))
	}
	return ix
}

// Score is document i's BM25 score for the query's tokens (each distinct
// query word counted once).
func (ix *Index) Score(i int, query []string) float64 {
	n, s := float64(len(ix.tf)), 0.0
	seen := map[string]bool{}
	for _, q := range query {
		if seen[q] {
			continue
		}
		seen[q] = true
		df, tf := float64(ix.df[q]), float64(ix.tf[i][q])
		if tf == 0 {
			continue
		}
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		s += idf * tf * (k1 + 1) / (tf + k1*(1-b+b*float64(ix.length[i])/ix.avg))
	}
	return s
}

// Top returns the numbers of the k best documents for query, best first;
// documents that share no word with it are never returned, and equal
// scores keep the documents' order.
func (ix *Index) Top(query string, k int) []int {
	q := ix.tokens(query)
	type hit struct {
		doc   int
		score float64
	}
	var hits []hit
	for i := range ix.tf {
		if s := ix.Score(i, q); s > 0 {
			hits = append(hits, hit{i, s})
		}
	}
	slices.SortStableFunc(hits, func(x, y hit) int {
		if x.score != y.score {
			if x.score > y.score {
				return -1
			}
			return 1
		}
		return 0
	})
	out := []int{}
	for _, h := range hits[:min(k, len(hits))] {
		out = append(out, h.doc)
	}
	return out
}
