package wiring

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
)

// IgnoreLines keep one clone's side files out of git (install: .gitignore;
// a route without install: .git/info/exclude): the undo copy, files set
// aside, a crash's temporary files, receipts, the state folder. bimri.md
// and bimri-archive.md are the team's.
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
// from the repository's top, as .git/info/exclude needs them.
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

// AddIgnoreLines appends the missing lines to an ignore file, under
// ignoreHeading if it is not there.
func AddIgnoreLines(existing []byte, lines []string) (out []byte, changed bool) {
	have := strings.Split(string(existing), "\n")
	for i, l := range have {
		have[i] = strings.TrimRight(l, "\r")
	}
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

// appendLines appends lines in the file's line ending, after a line break
// if its last line has none.
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

// RemoveGitIgnore takes out the heading and IgnoreLines, exactly those lines.
func RemoveGitIgnore(existing []byte) (out []byte, changed bool) {
	drop := append([]string{ignoreHeading}, IgnoreLines...)
	return removeLines(existing, func(line string) bool {
		return slices.Contains(drop, strings.TrimRight(line, "\r\n"))
	})
}

// MergeDriver is the name of bimri.md's merge driver in git's config.
const MergeDriver = "bimri"

// mergeAttributes: bimri.md is rewritten whole, so its driver merges it
// entry by entry; the archive only grows at its end: git's union driver.
type attribute struct{ pattern, driver string }

var mergeAttributes = []attribute{
	{"bimri.md", MergeDriver},
	{"bimri-archive.md", "union"},
}

// GitAttributes appends to a .gitattributes the mergeAttributes lines it
// lacks, where they take precedence over earlier lines for the same file.
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

// mergeDriverOf returns the merge driver the last line for exactly pattern
// gives it ("" for merge, -merge or !merge); ok is false when none does.
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

// RemoveGitAttributes takes out exactly the lines GitAttributes adds; a
// line with more attributes is a person's and stays.
func RemoveGitAttributes(existing []byte) (out []byte, changed bool) {
	return removeLines(existing, func(line string) bool {
		fields := strings.Fields(line)
		return len(fields) == 2 && slices.ContainsFunc(mergeAttributes, func(a attribute) bool {
			return fields[0] == a.pattern && fields[1] == "merge="+a.driver
		})
	})
}

// removeLines drops the lines ours says are ours; every other byte stays.
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
