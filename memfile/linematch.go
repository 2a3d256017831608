package memfile

// Hand-written matchers for the three line shapes every parse meets: the
// header, the tier headings and list markers. They were regular
// expressions compiled on every run (every file has a header and tiers)
// and run on every item line; the profile of a steady SessionStart put
// them among its costs. Each does what its expression, kept in a comment
// above it, does: TestLineMatchersAgreeWithRegexps compares them on the
// testdata and on random lines, and FuzzLineMatchers goes on from there.

import "strings"

func skipSpace(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

// matchHeader matches `^<!--\s*BIMRI\s+v?([^\s|]*)\s*\|(.*?)-->$` and
// returns what FindStringSubmatch would: the line, the version and the
// fields, or nil.
func matchHeader(s string) []string {
	if !strings.HasPrefix(s, "<!--") {
		return nil
	}
	i := skipSpace(s, len("<!--"))
	if !strings.HasPrefix(s[i:], "BIMRI") {
		return nil
	}
	i += len("BIMRI")
	j := skipSpace(s, i)
	if j == i {
		return nil
	}
	i = j
	if i < len(s) && s[i] == 'v' {
		i++
	}
	start := i
	for i < len(s) && !isSpace(s[i]) && s[i] != '|' {
		i++
	}
	version := s[start:i]
	i = skipSpace(s, i)
	if i >= len(s) || s[i] != '|' {
		return nil
	}
	i++
	// The lazy (.*?) before the anchored --> takes all up to the last
	// three bytes; `.` does not match a newline.
	if !strings.HasSuffix(s[i:], "-->") {
		return nil
	}
	fields := s[i : len(s)-len("-->")]
	if strings.IndexByte(fields, '\n') >= 0 {
		return nil
	}
	return []string{s, version, fields}
}

// matchTier matches `^##\s*tier\s*([123])\b` on a lower-cased line and
// returns what FindStringSubmatch would: the match and the digit, or nil.
func matchTier(s string) []string {
	if !strings.HasPrefix(s, "##") {
		return nil
	}
	i := skipSpace(s, len("##"))
	if !strings.HasPrefix(s[i:], "tier") {
		return nil
	}
	i = skipSpace(s, i+len("tier"))
	if i >= len(s) || s[i] < '1' || s[i] > '3' {
		return nil
	}
	// \b: the digit is a word character, so the next byte must not be.
	if i+1 < len(s) && isWordByte(s[i+1]) {
		return nil
	}
	return []string{s[:i+1], s[i : i+1]}
}

// isWordByte is the regexp class \w: ASCII letters, digits and '_'.
func isWordByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

// listMarkEnd matches `^(?:[-*+]|\d+[.)])\s+` and returns the length of
// the match, 0 when there is none.
func listMarkEnd(t string) int {
	i := 0
	switch {
	case t == "":
		return 0
	case t[0] == '-' || t[0] == '*' || t[0] == '+':
		i = 1
	default:
		for i < len(t) && '0' <= t[i] && t[i] <= '9' {
			i++
		}
		if i == 0 || i >= len(t) || (t[i] != '.' && t[i] != ')') {
			return 0
		}
		i++
	}
	j := skipSpace(t, i)
	if j == i {
		return 0
	}
	return j
}
