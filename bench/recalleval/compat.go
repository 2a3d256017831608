//go:build bench

package main

import (
	"github.com/bimri/bimri-hook/hooks"
	"github.com/bimri/bimri-hook/internal/record"
)

// withKeywords gives r the words the agent guessed, at record time, a
// later question would use. internal/record does not take keywords yet
// (memfile.NewEntry does): until it does, the entries are recorded
// without them, and docs/recall.md says so.
func withKeywords(r *record.Request, keywords []string) {}

// setLexicon turns recall's lexicon on or off; it reports whether this
// tree's recall has one.
func setLexicon(s *hooks.Settings, on bool) bool {
	s.Recall.Lexicon = on
	return true
}
