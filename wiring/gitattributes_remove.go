package wiring

import (
	"bytes"
	"strings"
)

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
