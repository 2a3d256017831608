// Package wiring edits the files that connect bimri-hook to the tools
// around it: Claude Code's settings.json and plugin, the other clients'
// hooks and MCP configs, .gitignore and .gitattributes. It is pure: bytes
// in, bytes out, the caller decides where files live. Whatever bimri-hook
// does not own keeps its exact bytes, and an edit run twice changes
// nothing the second time.
package wiring

import "strings"

// Name is the binary's name: an entry whose command names it is ours.
const Name = "bimri-hook"

// Command describes how configuration should call bimri-hook.
type Command struct {
	Binary string // an absolute path, or a bare name found on PATH
}

// Hook is the command line settings run for every hook event: the binary,
// always quoted so that any path survives the shell, then "hook".
func (c Command) Hook() string {
	return shellQuote(c.Binary) + " hook"
}

// Sub is the command prefix the agent types to run the subcommand sub,
// before its flags and arguments. It quotes the binary only when the
// shell needs it, because Rule matches this exact prefix: whoever tells
// the agent how to run a memory command must give it this string.
func (c Command) Sub(sub string) string {
	return ShellWord(c.Binary) + " " + sub
}

// Remember is Sub("remember"), the command the agent records with.
func (c Command) Remember() string { return c.Sub("remember") }

// Rule is the permissions.allow rule that lets the agent run Sub(sub)
// without asking the user each time.
func (c Command) Rule(sub string) string {
	return "Bash(" + c.Sub(sub) + ":*)"
}

// Rules are the rules of every MemoryCommands subcommand, in its order:
// install writes each, doctor checks each.
func (c Command) Rules() []string {
	rules := make([]string, len(MemoryCommands))
	for i, sub := range MemoryCommands {
		rules[i] = c.Rule(sub)
	}
	return rules
}

// MergeDriverCommand is the value of git's merge.bimri.driver setting: git
// runs it through the shell with the ancestor's, ours and theirs versions of
// bimri.md in place of %O, %A and %B, and keeps what it leaves in %A.
func MergeDriverCommand(c Command) string {
	return shellQuote(c.Binary) + " merge-driver %O %A %B"
}

// shellQuote puts s in double quotes for a POSIX shell, which is what runs
// hook commands (Git Bash on Windows) and git merge drivers. Inside double
// quotes a backslash is literal unless it comes before $, `, ", \ or a
// newline, so Windows paths keep their single backslashes.
func shellQuote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '$', '`', '"':
			b.WriteByte('\\')
		case '\\':
			// Before a special character, or before the closing quote,
			// the backslash itself has to be escaped to stay literal.
			if i+1 == len(s) || strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
				b.WriteByte('\\')
			}
		}
		b.WriteByte(s[i])
	}
	b.WriteByte('"')
	return b.String()
}

// ShellWord returns s unchanged when the shell reads it as one literal word,
// and in single quotes otherwise. It must agree with the quoting of the
// command that the hooks package tells the agent to run, or the permission
// rule would not match it.
func ShellWord(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`!*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// TrustAdvice is the one piece of advice for a rule Claude Code does not
// apply because the workspace is not trusted: install, doctor and the
// hooks' message after a denial all give it.
func TrustAdvice(c Command) string {
	return "accept this workspace's trust dialog in Claude Code, or run " + ShellWord(c.Binary) +
		" install --scope user, which puts the rules where no trust is needed, for every workspace"
}
