package wiring

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
)

// IgnoreLines are the ignore rules for the side files that belong to one
// clone: install adds them to the workspace's .gitignore, the first
// SessionStart of a route without install to .git/info/exclude. bimri.md
// and bimri-archive.md are the team's, shared. The rest: this machine's
// undo copy (shared, every pull would bring a conflict), unreadable files
// set aside, a crash's temporary files, install's receipts, and the lock
// and sessions' state (which also ignores itself).
var IgnoreLines = []string{
	"/bimri-backup.md",
	"/bimri.md.broken-*",
	"/.bimri-tmp-*",
	"/.claude/*.bimri-receipt",
	"/.claude/bimri/",
}

// ignoreHeading is the comment install writes above IgnoreLines.
const ignoreHeading = "# bimri-hook: personal side files (bimri.md and bimri-archive.md are shared)"

// IgnoreLinesUnder are IgnoreLines for a workspace at rel, a slash path
// from the repository's top ("" or "." for the top itself), as a file
// read from the top needs them: .git/info/exclude.
func IgnoreLinesUnder(rel string) []string {
	rel = strings.Trim(rel, "/")
	if rel == "" || rel == "." {
		return IgnoreLines
	}
	lines := make([]string, len(IgnoreLines))
	for i, l := range IgnoreLines {
		lines[i] = "/" + rel + l
	}
	return lines
}

// AddIgnoreLines makes an ignore file's content hold lines: the missing
// ones appended, under ignoreHeading if none was there. Every other line
// keeps its bytes, and the file's line ending is kept.
func AddIgnoreLines(existing []byte, lines []string) (out []byte, changed bool) {
	have := ignoreLinesOf(existing)
	var missing []string
	for _, l := range lines {
		if !slices.Contains(have, l) {
			missing = append(missing, l)
		}
	}
	if len(missing) == 0 {
		return existing, false
	}
	if !slices.Contains(have, ignoreHeading) {
		missing = append([]string{ignoreHeading}, missing...)
	}
	return appendLines(existing, missing), true
}

// appendLines appends lines to a file's content, in the file's line
// ending, after a line break if its last line has none.
func appendLines(existing []byte, lines []string) []byte {
	nl := "\n"
	if bytes.Contains(existing, []byte("\r\n")) {
		nl = "\r\n"
	}
	out := slices.Clone(existing)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, nl...)
	}
	for _, l := range lines {
		out = append(out, l+nl...)
	}
	return out
}

// ignoreLinesOf lists the lines of a .gitignore, without line endings.
func ignoreLinesOf(b []byte) []string {
	var lines []string
	for _, line := range strings.Split(string(b), "\n") {
		lines = append(lines, strings.TrimRight(line, "\r"))
	}
	return lines
}

// RemoveGitIgnore takes out of a .gitignore what AddIgnoreLines adds: the
// heading and each of IgnoreLines, exactly those lines; every other line
// keeps its bytes and its place.
func RemoveGitIgnore(existing []byte) (out []byte, changed bool) {
	drop := append([]string{ignoreHeading}, IgnoreLines...)
	return removeLines(existing, func(line string) bool {
		return slices.Contains(drop, strings.TrimRight(line, "\r\n"))
	})
}

// MergeDriver is the name of the merge driver for bimri.md: git reads its
// command from merge.bimri.driver (see MergeDriverCommand).
const MergeDriver = "bimri"

// mergeAttributes are the .gitattributes lines bimri-hook needs. bimri.md
// is rewritten as a whole, so a line merge would mangle it: its own driver
// merges it entry by entry. The archive only ever grows at its end, which
// git's built-in union driver merges by keeping both sides' lines.
type attribute struct{ pattern, driver string }

var mergeAttributes = []attribute{
	{"bimri.md", MergeDriver},
	{"bimri-archive.md", "union"},
}

// GitAttributes makes the content of a .gitattributes file give bimri.md
// the bimri merge driver and bimri-archive.md the union driver. Lines that
// already do so are left alone; otherwise the missing lines are appended,
// where they take precedence over earlier lines for the same file. Every
// other line keeps its bytes, and the file's line ending is kept.
func GitAttributes(existing []byte) (out []byte, changed bool) {
	var missing []string
	for _, a := range mergeAttributes {
		if driver, ok := mergeDriverOf(existing, a.pattern); !ok || driver != a.driver {
			missing = append(missing, a.pattern+" merge="+a.driver)
		}
	}
	if len(missing) == 0 {
		return existing, false
	}
	return appendLines(existing, missing), true
}

// mergeDriverOf returns the merge attribute that the last line for exactly
// pattern gives it: a driver name, or "" when the line sets, unsets or
// unspecifies merge without naming one. ok is false when no line does.
func mergeDriverOf(attributes []byte, pattern string) (driver string, ok bool) {
	for _, line := range strings.Split(string(attributes), "\n") {
		fields := strings.Fields(line)
		if len(fields) < 2 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		if p, err := strconv.Unquote(fields[0]); err == nil && strings.HasPrefix(fields[0], `"`) {
			fields[0] = p
		}
		if fields[0] != pattern {
			continue
		}
		for _, attr := range fields[1:] {
			switch {
			case attr == "merge", attr == "-merge", attr == "!merge":
				driver, ok = "", true
			case strings.HasPrefix(attr, "merge="):
				driver, ok = strings.TrimPrefix(attr, "merge="), true
			}
		}
	}
	return driver, ok
}

// RemoveGitAttributes takes out of a .gitattributes file the lines that
// GitAttributes adds: a line giving exactly bimri.md the bimri driver, or
// bimri-archive.md the union driver, and nothing else. Every other line
// keeps its bytes, including lines that name these files with more
// attributes, which a person wrote. out is empty when nothing else was in
// the file.
func RemoveGitAttributes(existing []byte) (out []byte, changed bool) {
	return removeLines(existing, func(line string) bool {
		fields := strings.Fields(line)
		return len(fields) == 2 && slices.ContainsFunc(mergeAttributes, func(a attribute) bool {
			return fields[0] == a.pattern && fields[1] == "merge="+a.driver
		})
	})
}

// removeLines drops from a file's content the lines ours says are ours;
// every other line keeps its bytes and its place. out is existing itself
// when nothing was dropped.
func removeLines(existing []byte, ours func(line string) bool) (out []byte, changed bool) {
	out = make([]byte, 0, len(existing))
	for _, line := range bytes.SplitAfter(existing, []byte("\n")) {
		if len(line) > 0 && ours(string(line)) {
			changed = true
			continue
		}
		out = append(out, line...)
	}
	if !changed {
		return existing, false
	}
	return out, true
}
