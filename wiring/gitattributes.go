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
	nl := "\n"
	if bytes.Contains(existing, []byte("\r\n")) {
		nl = "\r\n"
	}
	out = append([]byte(nil), existing...)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, nl...)
	}
	for _, line := range missing {
		out = append(out, line+nl...)
	}
	return out, true
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
