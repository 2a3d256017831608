//go:build bench

package main

import (
	"github.com/bimri/bimri-hook/hooks"
	"github.com/bimri/bimri-hook/internal/record"
)

// withKeywords gives r the words the agent guessed a later question
// would use.
func withKeywords(r *record.Request, keywords []string) {}

// setLexicon turns recall's lexicon on or off; false when this tree's
// recall has none.
func setLexicon(s *hooks.Settings, on bool) bool { return false }
