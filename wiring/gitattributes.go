package wiring

import (
	"bytes"
	"strconv"
	"strings"
)

// MergeDriver is the name of the merge driver for bimri.md: git reads its
// command from merge.bimri.driver (see MergeDriverCommand).
const MergeDriver = "bimri"

// mergeAttributes are the .gitattributes lines bimri-hook needs. bimri.md
// is rewritten as a whole, so a line merge would mangle it: its own driver
// merges it entry by entry. The archive only ever grows at its end, which
// git's built-in union driver merges by keeping both sides' lines.
var mergeAttributes = []struct{ pattern, driver string }{
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
	return removeLines(existing, isOurAttributeLine)
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

func isOurAttributeLine(line string) bool {
	fields := strings.Fields(line)
	if len(fields) != 2 {
		return false
	}
	for _, a := range mergeAttributes {
		if fields[0] == a.pattern && fields[1] == "merge="+a.driver {
			return true
		}
	}
	return false
}
