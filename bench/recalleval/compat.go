//go:build bench

package main

import (
	"github.com/bimri/bimri-hook/hooks"
	"github.com/bimri/bimri-hook/internal/record"
)

// withKeywords gives r the words the agent guessed, at record time, a
// later question would use (remember --keywords).
func withKeywords(r *record.Request, keywords []string) { r.Keywords = keywords }

// setLexicon turns recall's lexicon on or off; it reports whether this
// tree's recall has one.
func setLexicon(s *hooks.Settings, on bool) bool {
	s.Recall.Lexicon = on
	return true
}
