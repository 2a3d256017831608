package wiring

import (
	"bytes"
	"slices"
	"strings"
)

// IgnoreLines are the ignore rules every route gives a workspace, one per
// side file that is personal: install adds them to the .gitignore at the
// workspace's root, and the first SessionStart of any route (the plugin
// has no install step) adds them to the repository's .git/info/exclude
// unless that .gitignore holds them already (IgnoreLinesUnder). bimri.md is the team's memory, and
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

// HasIgnoreLines says whether an ignore file's content holds every one of
// lines.
func HasIgnoreLines(existing []byte, lines []string) bool {
	have := ignoreLinesOf(existing)
	for _, l := range lines {
		if !slices.Contains(have, l) {
			return false
		}
	}
	return true
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
