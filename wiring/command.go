// Package wiring edits the files that connect bimri-hook to the clients
// and git, purely: bytes in, bytes out. What bimri-hook does not own keeps
// its bytes, and an edit run twice changes nothing the second time.
package wiring

import "strings"

// Name is the binary's name: an entry whose command names it is ours.
const Name = "bimri-hook"

// Command describes how configuration should call bimri-hook.
type Command struct {
	Binary string // an absolute path, or a bare name found on PATH
}

// Hook is the command settings run at every event: the binary, always
// quoted so any path survives the shell, then "hook".
func (c Command) Hook() string { return shellQuote(c.Binary) + " hook" }

// Sub is the prefix the agent types to run sub, quoted only when the shell
// needs it: Rule matches this exact string.
func (c Command) Sub(sub string) string { return ShellWord(c.Binary) + " " + sub }

// Remember is Sub("remember"), the command the agent records with.
func (c Command) Remember() string { return c.Sub("remember") }

// Rule is the permissions.allow rule that lets the agent run Sub(sub).
func (c Command) Rule(sub string) string { return "Bash(" + c.Sub(sub) + ":*)" }

// Rules are the rules of MemoryCommands, in its order.
func (c Command) Rules() []string {
	rules := make([]string, len(MemoryCommands))
	for i, sub := range MemoryCommands {
		rules[i] = c.Rule(sub)
	}
	return rules
}

// MergeDriverCommand is merge.bimri.driver: git gives it the ancestor's,
// ours and theirs bimri.md as %O %A %B, and keeps %A.
func MergeDriverCommand(c Command) string { return shellQuote(c.Binary) + " merge-driver %O %A %B" }

// shellQuote double-quotes s for the POSIX shell that runs hooks and merge
// drivers; a backslash stays literal but before $ ` " \ or a newline, so
// Windows paths keep their single backslashes.
func shellQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '$', '`', '"':
			b.WriteByte('\\')
		case '\\':
			if i+1 == len(s) || strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
				b.WriteByte('\\')
			}
		}
		b.WriteByte(s[i])
	}
	b.WriteByte('"')
	return b.String()
}

// ShellWord returns s as one literal shell word, single-quoted if need be.
func ShellWord(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`!*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// TrustAdvice is the advice for rules Claude Code ignores in a workspace
// not trusted, from install, doctor and the hooks alike.
func TrustAdvice(c Command) string {
	return "accept this workspace's trust dialog in Claude Code, or run " + ShellWord(c.Binary) +
		" install --scope user, which puts the rules where no trust is needed, for every workspace"
}
