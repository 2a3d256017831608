package wiring

import (
	"bytes"
	"slices"
	"strings"
)

// IgnoreLines are the .gitignore lines install adds at a workspace's root,
// one per side file that is personal: bimri.md is the team's memory, and
// bimri-archive.md its history, which recall searches and git's union
// driver merges (mergeAttributes), so both are shared. The rest belong to
// one clone:
//   - bimri-backup.md is this machine's undo copy of the last write: shared,
//     every pull would bring another person's undo and a conflict;
//   - bimri.md.broken-* are the unreadable files the store set aside here;
//   - .bimri-tmp-* are temporary files a crash left behind (store/atomicfile);
//   - *.bimri-receipt under .claude says what install changed in this
//     machine's settings file, for uninstall here;
//   - .claude/bimri/ is the lock and the sessions' state (it also ignores
//     itself, for routes that never run install).
var IgnoreLines = []string{
	"/bimri-backup.md",
	"/bimri.md.broken-*",
	"/.bimri-tmp-*",
	"/.claude/*.bimri-receipt",
	"/.claude/bimri/",
}

// ignoreHeading is the comment install writes above IgnoreLines.
const ignoreHeading = "# bimri-hook: personal side files (bimri.md and bimri-archive.md are shared)"

// GitIgnore makes the content of a .gitignore hold IgnoreLines: the
// missing ones are appended, under ignoreHeading if none was there. Every
// other line keeps its bytes, and the file's line ending is kept.
func GitIgnore(existing []byte) (out []byte, changed bool) {
	have := ignoreLinesOf(existing)
	var missing []string
	for _, l := range IgnoreLines {
		if !slices.Contains(have, l) {
			missing = append(missing, l)
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
	if !slices.Contains(have, ignoreHeading) {
		out = append(out, ignoreHeading+nl...)
	}
	for _, l := range missing {
		out = append(out, l+nl...)
	}
	return out, true
}

// ignoreLinesOf lists the lines of a .gitignore, without line endings.
func ignoreLinesOf(b []byte) []string {
	var lines []string
	for _, line := range strings.Split(string(b), "\n") {
		lines = append(lines, strings.TrimRight(line, "\r"))
	}
	return lines
}
