package transcript

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bimri/bimri-hook/privacy"
)

const (
	fallbackNames = 3 // how many changed files FallbackSummary names
	// minPromptRunes is the least of the prompt worth showing when the line
	// must be shortened; with less room the whole line is cut instead.
	minPromptRunes = 12
)

// FallbackSummary describes a session in one line for when the agent left
// no note of its own, for example
//
//	Session: Please write a NOTES.md recording that we chose SQLite; changed NOTES.md, main.go, db.go (+2 more)
//
// through privacy.Clean, without control characters. Past maxLen runes
// (<= 0: no limit) the prompt is shortened first, then the line. It is ""
// when there is no prompt and no changed file.
func FallbackSummary(s Summary, maxLen int) string {
	prompt := oneLine(privacy.Clean(s.FirstPrompt))

	var names []string
	for _, path := range s.FilesChanged {
		path = strings.TrimRight(path, `/\`) // a Unix or Windows path
		name := oneLine(privacy.Clean(path[strings.LastIndexAny(path, `/\`)+1:]))
		if name != "" && !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	if prompt == "" && len(names) == 0 {
		return ""
	}

	changed := ""
	if len(names) > 0 {
		shown := names[:min(len(names), fallbackNames)]
		changed = "changed " + strings.Join(shown, ", ")
		if more := len(names) - len(shown); more > 0 {
			changed += fmt.Sprintf(" (+%d more)", more)
		}
	}
	line := func(prompt string) string {
		return "Session: " + strings.Join(slices.DeleteFunc([]string{prompt, changed}, func(p string) bool { return p == "" }), "; ")
	}

	out := line(prompt)
	if maxLen <= 0 || utf8.RuneCountInString(out) <= maxLen {
		return out
	}
	// Without a prompt, room is negative: the whole line is cut.
	if room := maxLen - (utf8.RuneCountInString(out) - utf8.RuneCountInString(prompt)); room >= minPromptRunes {
		return line(shorten(prompt, room))
	}
	return shorten(out, maxLen)
}

// shorten cuts s, valid UTF-8, to at most n runes, marking the cut with "…".
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	return strings.TrimRightFunc(string([]rune(s)[:n-1]), unicode.IsSpace) + "…"
}

// oneLine makes s one line: control characters and runs of white space
// become one space, invalid UTF-8 U+FFFD.
func oneLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
	return strings.Join(strings.Fields(s), " ")
}
