// Package approve decides which tool calls the plugin's PreToolUse hook
// lets run without asking, since Claude Code ignores a plugin's allow
// rules: its own MCP tools, `install --link`, and memory commands that are
// one simple command of literal words (nothing a shell would expand, chain
// or redirect, but a here-document with a quoted delimiter) with the
// taught flags and --dir naming the session's workspace. mvdan.cc/sh's
// bash parser reads the command and a whitelist judges the parts, so what
// the parser does not know is refused rather than approved.
package approve

import (
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/bimri/bimri-hook/wiring"
	"mvdan.cc/sh/v3/syntax"
)

// maxCommand bounds the command parsed: a taught one is a few hundred bytes.
const maxCommand = 64 << 10

// Session is what the hooks of this session taught the agent.
type Session struct {
	Binary    string // the command the agent runs
	Workspace string // the absolute --dir taught; "" approves no Bash command
}

// Tool reports whether the call of tool (with command, for Bash) is one
// of the plugin's own in session s.
func Tool(tool, command string, s Session) bool {
	if tool != "Bash" {
		return slices.Contains(wiring.MCPTools, tool)
	}
	argv, ok := Argv(command)
	return ok && (slices.Equal(argv, []string{s.Binary, "install", "--link"}) ||
		(len(argv) >= 2 && argv[0] == s.Binary && slices.Contains(wiring.MemoryCommands, argv[1]) && taughtFlags(argv[2:], s.Workspace)))
}

// valueFlags are the flags the hooks teach besides --dir; any other
// (--config, --global, --today) is left to the client's prompt.
var valueFlags = []string{"importance", "tags", "keywords", "tier", "replaces", "supersedes", "both-hold", "promote", "reason"}

// taughtFlags reports whether a memory command's args hold only taught
// flags, and --dir at least once, each time naming workspace. Flags end
// where Go's flag package stops: at "--" or the first other word.
func taughtFlags(args []string, workspace string) bool {
	dir := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || len(a) < 2 || a[0] != '-' {
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
		if name != "dir" && !slices.Contains(valueFlags, name) {
			return false
		}
		if !hasValue {
			if i++; i == len(args) {
				return false
			}
			value = args[i]
		}
		if name == "dir" {
			// Absolute: a relative one depends on the shell's folder,
			// which the approval does not know.
			if workspace == "" || !filepath.IsAbs(value) || !filepath.IsAbs(workspace) || filepath.Clean(value) != filepath.Clean(workspace) {
				return false
			}
			dir = true
		}
	}
	return dir
}

// Argv is the words a shell would pass to the program, when command is
// one simple command of literal words (the package comment); transcript
// reads a denied remember call with it too.
func Argv(command string) (argv []string, ok bool) {
	command = strings.TrimRight(command, " \t\n")
	// Control characters but tab and newline, and invalid UTF-8, a shell
	// may read otherwise than the parser.
	if command == "" || len(command) > maxCommand || strings.ContainsFunc(command, func(r rune) bool {
		return r == unicode.ReplacementChar || (unicode.IsControl(r) && r != '\t' && r != '\n')
	}) {
		return nil, false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(true)).Parse(strings.NewReader(command), "")
	if err != nil || len(f.Stmts) != 1 || len(f.Last) > 0 {
		return nil, false
	}
	st := f.Stmts[0]
	call, isCall := st.Cmd.(*syntax.CallExpr)
	if !isCall || st.Negated || st.Background || st.Coprocess || st.Disown || st.Semicolon.IsValid() || len(st.Comments) > 0 ||
		len(call.Assigns) > 0 || len(call.Args) == 0 {
		return nil, false
	}
	// Only the here-document's body may hold a newline.
	line := strings.IndexByte(command, '\n')
	if line >= 0 && call.End().Offset() > uint(line) || !quotedHeredocOnly(st.Redirs, command, line) {
		return nil, false
	}
	for _, w := range call.Args {
		s, lit := literal(w)
		if !lit {
			return nil, false
		}
		argv = append(argv, s)
	}
	return argv, true
}

// quotedHeredocOnly allows no redirection but one here-document whose
// delimiter is quoted (no shell expands its body), on the command's line.
func quotedHeredocOnly(redirs []*syntax.Redirect, command string, line int) bool {
	if len(redirs) != 1 {
		return len(redirs) == 0 && line < 0
	}
	r := redirs[0]
	if (r.Op != syntax.Hdoc && r.Op != syntax.DashHdoc) || r.N != nil || r.Word == nil || r.Hdoc == nil || line < 0 {
		return false
	}
	return r.Word.End().Offset() <= uint(line) && quotedWord(r.Word) && allLit(r.Hdoc.Parts)
}

// quotedWord is a literal here-document delimiter quoted at least in part,
// which turns expansion off.
func quotedWord(w *syntax.Word) bool {
	quoted := false
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted:
			quoted = quoted || !p.Dollar
		case *syntax.DblQuoted:
			if p.Dollar || !allLit(p.Parts) {
				return false
			}
			quoted = true
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, `$`+"`") {
				return false
			}
			quoted = quoted || strings.Contains(p.Value, `\`)
		default:
			return false
		}
	}
	return quoted
}

func allLit(parts []syntax.WordPart) bool {
	return !slices.ContainsFunc(parts, func(p syntax.WordPart) bool { _, lit := p.(*syntax.Lit); return !lit })
}

// literal returns the text a shell makes of w, when every part is literal:
// plainWord text, single-quoted text, double-quoted text without
// expansion; no newline in any.
func literal(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			// zsh reads ''=ls as =ls, the path of ls.
			if !plainWord(p.Value, b.Len() == 0) {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar || strings.Contains(p.Value, "\n") {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar || !allLit(p.Parts) {
				return "", false
			}
			for _, q := range p.Parts {
				s, ok := doubleQuoted(q.(*syntax.Lit).Value)
				if !ok {
					return "", false
				}
				b.WriteString(s)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// plainWord is unquoted text of letters, digits and _ . / , : + - = @ %
// (no glob, brace, tilde or history mark of bash or zsh), not starting
// the word with = (zsh expands =cmd).
func plainWord(s string, start bool) bool {
	return s != "" && !(start && s[0] == '=') && !strings.ContainsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("_./,:+-=@%", r)
	})
}

// doubleQuoted unescapes double-quoted text as bash and zsh do: \ before
// $ ` " or \ is that character, else itself; a newline, or an unescaped
// $ or `, refuses it.
func doubleQuoted(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\n', '$', '`':
			return "", false
		case '\\':
			if i+1 < len(s) && strings.IndexByte("$`\"\\", s[i+1]) >= 0 {
				i++
				b.WriteByte(s[i])
				continue
			}
			if i+1 < len(s) && s[i+1] == '\n' {
				return "", false
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}
