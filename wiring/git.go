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
var mergeAttributes = []string{"bimri.md merge=" + MergeDriver, "bimri-archive.md merge=union"}

// GitAttributes appends to a .gitattributes the mergeAttributes lines it
// lacks, where they take precedence over earlier lines for the same file.
func GitAttributes(existing []byte) (out []byte, changed bool) {
	var missing []string
	for _, line := range mergeAttributes {
		if pattern, merge, _ := strings.Cut(line, " "); mergeAttribute(existing, pattern) != merge {
			missing = append(missing, line)
		}
	}
	if len(missing) == 0 {
		return existing, false
	}
	return appendLines(existing, missing), true
}

// mergeAttribute returns the merge attribute (merge=DRIVER, merge, -merge
// or !merge) the last line for exactly pattern gives it; "" when none does.
func mergeAttribute(attributes []byte, pattern string) (merge string) {
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
			if slices.Contains([]string{"merge", "-merge", "!merge"}, attr) || strings.HasPrefix(attr, "merge=") {
				merge = attr
			}
		}
	}
	return merge
}

// RemoveGitAttributes takes out exactly the lines GitAttributes adds; a
// line with more attributes is a person's and stays.
func RemoveGitAttributes(existing []byte) (out []byte, changed bool) {
	return removeLines(existing, func(line string) bool {
		return slices.Contains(mergeAttributes, strings.Join(strings.Fields(line), " "))
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
