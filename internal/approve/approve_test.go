package approve

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/wiring"
)

// bin is the command the hooks teach in the plugin: the bare name, which
// the plugin's bin/ on the agent's PATH resolves.
const bin = "bimri-hook"

// session is the session the tests approve for: the bare name, and the
// workspace /p.
var session = Session{Binary: bin, Workspace: "/p"}

// approved are commands the hooks teach, in the forms a model writes
// them, each with the argv a shell gives the binary.
var approved = []struct {
	command string
	argv    []string
}{
	{`bimri-hook remember --dir /p --importance 3 --tags tag1,tag2 -- "One-line summary of what happened and the outcome."`,
		[]string{bin, "remember", "--dir", "/p", "--importance", "3", "--tags", "tag1,tag2", "--", "One-line summary of what happened and the outcome."}},
	{`bimri-hook remember --dir '/p' --tier 1 --importance 5 --tags setup -- "It's a CLI; it \"wraps\" git \$HOME and \` + "`x\\`" + `."`,
		[]string{bin, "remember", "--dir", "/p", "--tier", "1", "--importance", "5", "--tags", "setup", "--", "It's a CLI; it \"wraps\" git $HOME and `x`."}},
	{`bimri-hook remember --dir /p -- 'Single quotes keep $(this) and ` + "`that`" + ` and "these" as text.'`,
		[]string{bin, "remember", "--dir", "/p", "--", `Single quotes keep $(this) and ` + "`that`" + ` and "these" as text.`}},
	{`bimri-hook forget --dir /p 3f9a1c2b`, []string{bin, "forget", "--dir", "/p", "3f9a1c2b"}},
	{`bimri-hook forget --dir /p --reason re-recorded n-0001`, []string{bin, "forget", "--dir", "/p", "--reason", "re-recorded", "n-0001"}},
	{`bimri-hook revive --dir /p 77e0d4a1`, []string{bin, "revive", "--dir", "/p", "77e0d4a1"}},
	{`bimri-hook remember --dir /p --replaces 3f9a1c2b,77e0d4a1 -- "Login: sessions in Postgres, tests added."`,
		[]string{bin, "remember", "--dir", "/p", "--replaces", "3f9a1c2b,77e0d4a1", "--", "Login: sessions in Postgres, tests added."}},
	{`bimri-hook remember --dir /p --promote 3f9a1c2b`, []string{bin, "remember", "--dir", "/p", "--promote", "3f9a1c2b"}},
	{`bimri-hook remember --dir /p -- "Décidé: SQLite — 100 % local, naïve ok."`,
		[]string{bin, "remember", "--dir", "/p", "--", "Décidé: SQLite — 100 % local, naïve ok."}},
	{"bimri-hook remember --dir /p --tags=a,b -- \"tab\there\"  \n", []string{bin, "remember", "--dir", "/p", "--tags=a,b", "--", "tab\there"}},
	{`bimri-hook   remember   --dir   /p   x`, []string{bin, "remember", "--dir", "/p", "x"}},
	{`bimri-hook remember --dir=/p/ "quoted "'and'" joined"`, []string{bin, "remember", "--dir=/p/", "quoted and joined"}},
	{`bimri-hook remember -dir /p "back\slash stays, \\ is one"`, []string{bin, "remember", "-dir", "/p", `back\slash stays, \ is one`}},
	{`bimri-hook remember --dir "/p" --dir '/p' -- x`, []string{bin, "remember", "--dir", "/p", "--dir", "/p", "--", "x"}},
	{"bimri-hook remember --dir /p <<'EOF'\nA body with $(id) and `id` and $HOME; rm -rf / && x | y\nEOF", []string{bin, "remember", "--dir", "/p"}},
	{"bimri-hook remember --dir /p <<\"EOF\"\n$(id)\nEOF\n", []string{bin, "remember", "--dir", "/p"}},
	{"bimri-hook remember --dir /p <<\\EOF\n$(id)\nEOF", []string{bin, "remember", "--dir", "/p"}},
	{"bimri-hook remember --dir /p <<-'EOF'\n\t$(id)\n\tEOF", []string{bin, "remember", "--dir", "/p"}},
	{"bimri-hook install --link", []string{bin, "install", "--link"}},
}

// hostile must never be approved: each chains, expands, redirects or runs
// another program, or is not one of the memory commands.
var hostile = []string{
	``,
	` `,
	`bimri-hook`,
	`bimri-hook show`,
	`bimri-hook doctor`,
	`bimri-hook install --scope user`,
	`bimri-hook install --link --bin-dir /usr/bin`,
	`bimri-hook install --link; rm -rf ~`,
	`BIMRI_BIN_DIR=/usr/bin bimri-hook install --link`,
	`bimri-hook uninstall`,
	`bimri-hook rememberx`,
	`bimri-hook Remember x`,
	`bimri-hook --dir /p remember x`,
	`bimri-hook-evil remember x`,
	`/tmp/bimri-hook remember x`,
	`./bimri-hook remember x`,
	`echo bimri-hook remember x`,
	`bimri-hook remember x; rm -rf ~`,
	`bimri-hook remember x;rm -rf ~`,
	`bimri-hook remember x;`,
	`bimri-hook remember x && rm -rf ~`,
	`bimri-hook remember x || rm -rf ~`,
	`bimri-hook remember x | sh`,
	`bimri-hook remember x |& sh`,
	`bimri-hook remember x &`,
	`bimri-hook remember x & rm -rf ~`,
	`bimri-hook remember x > /etc/passwd`,
	`bimri-hook remember x >> ~/.bashrc`,
	`bimri-hook remember x 2>/dev/null`,
	`bimri-hook remember x 2>&1`,
	`bimri-hook remember x &>/tmp/out`,
	`bimri-hook remember x < /etc/passwd`,
	`bimri-hook remember x <<< "$(id)"`,
	`bimri-hook remember x <<< word`,
	`bimri-hook remember x <> /tmp/f`,
	`bimri-hook remember x >| /tmp/f`,
	`bimri-hook remember "$(id)"`,
	`bimri-hook remember $(id)`,
	"bimri-hook remember `id`",
	"bimri-hook remember \"`id`\"",
	`bimri-hook remember $HOME`,
	`bimri-hook remember "$HOME"`,
	`bimri-hook remember ${HOME}`,
	`bimri-hook remember "${HOME}"`,
	`bimri-hook remember "${HOME:-x}"`,
	`bimri-hook remember $1`,
	`bimri-hook remember "$@"`,
	`bimri-hook remember $$`,
	`bimri-hook remember "$((1+1))"`,
	`bimri-hook remember $((1+1))`,
	`bimri-hook remember $[1+1]`,
	`bimri-hook remember <(id)`,
	`bimri-hook remember >(id)`,
	`bimri-hook remember $'\x41'`,
	`bimri-hook remember $"localized"`,
	`bimri-hook remember *`,
	`bimri-hook remember ./*.go`,
	`bimri-hook remember file?`,
	`bimri-hook remember [abc]`,
	`bimri-hook remember {a,b}`,
	`bimri-hook remember x{1..3}`,
	`bimri-hook remember ~`,
	`bimri-hook remember ~/x`,
	`bimri-hook remember ~root`,
	`bimri-hook remember =ls`,
	`bimri-hook remember !!`,
	`bimri-hook remember x^y`,
	`bimri-hook remember x#`,
	`bimri-hook remember x # a comment`,
	`# bimri-hook remember x`,
	`bimri-hook remember @(a|b)`,
	`bimri-hook remember a\;b`,
	`bimri-hook remember a\ b`,
	"bimri-hook remember a\\\nb",
	"bimri-hook remember x\nrm -rf ~",
	"bimri-hook remember x\n\nrm -rf ~",
	"bimri-hook remember \"x\ny\"",
	"bimri-hook remember 'x\ny'",
	"bimri-hook remember x\r",
	"bimri-hook remember x\rrm -rf ~",
	"bimri-hook remember x\x00",
	"bimri-hook remember x\x1b[2J",
	"bimri-hook remember \xff\xfe",
	"\nbimri-hook remember x",
	`FOO=1 bimri-hook remember x`,
	`PATH=/tmp bimri-hook remember x`,
	`env bimri-hook remember x`,
	`command bimri-hook remember x`,
	`exec bimri-hook remember x`,
	`time bimri-hook remember x`,
	`nohup bimri-hook remember x`,
	`sudo bimri-hook remember x`,
	`! bimri-hook remember x`,
	`(bimri-hook remember x)`,
	`{ bimri-hook remember x; }`,
	`bimri-hook remember x) ; (id`,
	`if true; then bimri-hook remember x; fi`,
	`for i in 1; do bimri-hook remember x; done`,
	`f() { id; }; bimri-hook remember x`,
	`bimri-hook remember "unterminated`,
	`bimri-hook remember 'unterminated`,
	`[[ -n x ]] && bimri-hook remember x`,
	`coproc bimri-hook remember x`,
	"bimri-hook remember --dir /p <<EOF\n$(id)\nEOF",
	"bimri-hook remember --dir /p <<EOF\nplain\nEOF",
	"bimri-hook remember --dir /p <<'EOF'\nbody\nEOF\nrm -rf ~",
	"bimri-hook remember --dir /p <<'EOF' && rm -rf ~\nbody\nEOF",
	"bimri-hook remember --dir /p <<'EOF' > /tmp/f\nbody\nEOF",
	"bimri-hook remember --dir /p <<'EOF' <<'END'\nbody\nEOF\nbody\nEND",
	"bimri-hook remember --dir /p 3<<'EOF'\nbody\nEOF",
	"bimri-hook remember --dir /p <<'EOF'$(id)\nbody\nEOF",
	"bimri-hook remember --dir /p <<$'EOF'\nbody\nEOF",
	"bimri-hook remember --dir /p <<'EOF'\nbody\nEOF\n# trailing comment",
	"bimri-hook remember --dir /p <<'EOF'\nbody\nEOF\n\nid",
	strings.Repeat("x", maxCommand+1),
	`bimri-hook remember ` + strings.Repeat("a", maxCommand),
}

func TestApprovesTheTaughtCommands(t *testing.T) {
	for _, c := range approved {
		argv, ok := Argv(c.command)
		if !ok || !slices.Equal(argv, c.argv) {
			t.Errorf("Argv(%q) = %q, %v; want %q", c.command, argv, ok, c.argv)
		}
		if !Tool("Bash", c.command, session) {
			t.Errorf("not approved: %q", c.command)
		}
		if !Tool("Bash", c.command, session) {
			t.Errorf("Tool(Bash) not approved: %q", c.command)
		}
	}
}

func TestRefusesHostileCommands(t *testing.T) {
	for _, c := range hostile {
		if Tool("Bash", c, session) {
			t.Errorf("approved a hostile command: %q", c)
		}
	}
}

// TestRefusesOtherBinariesAndTools: the approval is for the binary the
// hooks teach, through the Bash tool, and for no other tool.
func TestRefusesOtherBinariesAndTools(t *testing.T) {
	cmd := `bimri-hook remember --dir /p -- "x"`
	if Tool("Bash", cmd, Session{Binary: "/opt/bimri/bimri-hook", Workspace: "/p"}) {
		t.Error("approved the bare name when the taught binary is a path")
	}
	if !Tool("Bash", `'/opt/my tools/bimri-hook' remember --dir /p -- "x"`, Session{Binary: "/opt/my tools/bimri-hook", Workspace: "/p"}) {
		t.Error("did not approve the taught binary by its quoted path")
	}
	for _, tool := range []string{"Write", "Edit", "Read", "bash", "BashOutput", "mcp__other__remember", "Task", ""} {
		if Tool(tool, cmd, session) {
			t.Errorf("approved tool %q", tool)
		}
	}
}

func TestMCPTools(t *testing.T) {
	name := wiring.MCPToolName("bimri", "remember")
	if name != "mcp__plugin_bimri-hook_bimri__remember" {
		t.Fatalf("MCPToolName = %q", name)
	}
	saved := wiring.MCPTools
	t.Cleanup(func() { wiring.MCPTools = saved })
	wiring.MCPTools = []string{name}
	if !Tool(name, "", session) {
		t.Errorf("did not approve the listed MCP tool %q", name)
	}
	for _, other := range []string{wiring.MCPToolName("bimri", "other"), "mcp__plugin_other_bimri__remember", name + "x"} {
		if Tool(other, "", session) {
			t.Errorf("approved an MCP tool not listed: %q", other)
		}
	}
}

// TestEveryMemoryCommandIsApproved: each subcommand the hooks teach is
// approved in its plain form, so adding one to wiring.MemoryCommands is
// all the approval needs.
func TestEveryMemoryCommandIsApproved(t *testing.T) {
	for _, sub := range wiring.MemoryCommands {
		if c := bin + " " + sub + " --dir /p x"; !Tool("Bash", c, session) {
			t.Errorf("not approved: %q", c)
		}
	}
}

// TestShellAgrees runs every approved command in the shells the client's
// Bash tool may use, with a stand-in bimri-hook that records its argv
// and stdin: the shell ran it once, with the words Argv said, and a
// here-document's body reached it unexpanded.
func TestShellAgrees(t *testing.T) {
	sh := newShellOracle(t)
	for _, c := range approved {
		sh.check(t, c.command)
	}
}

func FuzzApprove(f *testing.F) {
	for _, c := range approved {
		f.Add(c.command)
	}
	for _, c := range hostile {
		if len(c) < 1000 {
			f.Add(c)
		}
	}
	sh := newShellOracle(f)
	f.Fuzz(func(t *testing.T, command string) {
		if !Tool("Bash", command, session) {
			return
		}
		sh.check(t, command)
	})
}

// shellOracle runs a command in bash (and zsh, where installed) under
// restrictions that keep a wrongly approved command harmless: restricted
// mode (no cd, no redirection to files, no command with a slash), an
// empty environment whose PATH holds only the stand-in, a throwaway
// folder.
type shellOracle struct {
	shells []string
	dir    string
}

// recorder is the stand-in bimri-hook: it appends its arguments, each as
// LENGTH:BYTES, then its stdin, to $OUT, with builtins only.
const recorder = `#!/bin/sh
{
	printf 'call %d\n' "$#"
	for a in "$@"; do printf '%d:%s' "${#a}" "$a"; done
	printf '\nstdin\n'
	while IFS= read -r line || [ -n "$line" ]; do printf '%s\n' "$line"; done
} >>"$OUT"
`

func newShellOracle(t testing.TB) *shellOracle {
	if runtime.GOOS == "windows" {
		t.Skip("the shell oracle needs a POSIX system")
	}
	o := &shellOracle{dir: t.TempDir()}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatalf("the oracle needs bash: %v", err)
	}
	o.shells = append(o.shells, bash)
	if zsh, err := exec.LookPath("zsh"); err == nil {
		o.shells = append(o.shells, zsh)
	}
	if err := os.MkdirAll(filepath.Join(o.dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(o.dir, "bin", bin), []byte(recorder), 0o755); err != nil {
		t.Fatal(err)
	}
	return o
}

func (o *shellOracle) check(t *testing.T, command string) {
	t.Helper()
	want, ok := Argv(command)
	if !ok {
		t.Fatalf("approved, but Argv refuses %q", command)
	}
	for _, sh := range o.shells {
		work, err := os.MkdirTemp(o.dir, "run-")
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(work, "out")
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		cmd := exec.CommandContext(ctx, sh, "-r", "-c", command)
		if filepath.Base(sh) == "zsh" {
			cmd = exec.CommandContext(ctx, sh, "-f", "-r", "-c", command)
		}
		cmd.Dir = work
		cmd.Env = []string{"PATH=" + filepath.Join(o.dir, "bin"), "HOME=" + work, "OUT=" + out, "LC_ALL=C"}
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err = cmd.Run()
		cancel()
		if err != nil || stdout.Len() > 0 || stderr.Len() > 0 {
			t.Fatalf("%s -c %q: %v\nstdout: %s\nstderr: %s", sh, command, err, stdout.Bytes(), stderr.Bytes())
		}
		rec, err := os.ReadFile(out)
		if err != nil {
			t.Fatalf("%s -c %q never ran the binary: %v", sh, command, err)
		}
		calls, got, stdin := parseRecord(t, rec)
		if calls != 1 || !slices.Equal(got[1:], want[1:]) {
			t.Fatalf("%s -c %q: %d calls with %q; Argv said %q", sh, command, calls, got, want)
		}
		if body := heredocBody(command); body != "" && !strings.Contains(stdin, body) {
			t.Fatalf("%s -c %q: stdin %q does not hold the body %q as written", sh, command, stdin, body)
		}
		os.RemoveAll(work)
	}
}

// parseRecord reads what the recorder wrote: how many calls, the argv of
// the last (with the binary's name first, as Argv gives it) and its stdin.
func parseRecord(t *testing.T, rec []byte) (calls int, argv []string, stdin string) {
	t.Helper()
	s := string(rec)
	for s != "" {
		head, rest, _ := strings.Cut(s, "\n")
		n, err := strconv.Atoi(strings.TrimPrefix(head, "call "))
		if err != nil {
			t.Fatalf("bad record %q", rec)
		}
		calls++
		argv = []string{bin}
		for range n {
			ln, after, _ := strings.Cut(rest, ":")
			l, err := strconv.Atoi(ln)
			if err != nil || l > len(after) {
				t.Fatalf("bad record %q", rec)
			}
			argv = append(argv, after[:l])
			rest = after[l:]
		}
		rest = strings.TrimPrefix(rest, "\nstdin\n")
		stdin, s, _ = strings.Cut(rest, "call ")
		if s != "" {
			s = "call " + s
		}
	}
	return calls, argv, stdin
}

// heredocBody is the first line of a here-document's body in command,
// without the tabs <<- strips, or "".
func heredocBody(command string) string {
	_, rest, ok := strings.Cut(command, "\n")
	if !ok {
		return ""
	}
	first, _, _ := strings.Cut(rest, "\n")
	return strings.TrimLeft(first, "\t")
}

// BenchmarkBash: the approval's own cost on the PreToolUse path, for the
// common call (another command) and a taught one.
func BenchmarkBash(b *testing.B) {
	for _, c := range []struct{ name, command string }{
		{"other", "go test ./... -run TestX -count=1"},
		{"taught", approved[0].command},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				Tool("Bash", c.command, session)
			}
		})
	}
}

// TestApprovesOnlyTheSessionsWorkspace: a memory command aimed at another
// folder (~/.ssh, another repository's memory), at none, or with a config
// file of the agent's choosing, is left to the client's permission
// prompt (issue 34, item 5).
func TestApprovesOnlyTheSessionsWorkspace(t *testing.T) {
	ws := Session{Binary: bin, Workspace: "/home/dev/my proj"}
	for _, c := range []string{
		`bimri-hook remember --dir '/home/dev/my proj' -- x`,
		`bimri-hook remember --dir "/home/dev/my proj/" --importance 4 --tags a,b --keywords c -- x`,
		`bimri-hook remember '--dir=/home/dev/my proj' --supersedes 3f9a1c2b --both-hold 1,2 -- x`,
		`bimri-hook forget --dir '/home/dev/my proj' --reason stale 3f9a1c2b`,
	} {
		if !Tool("Bash", c, ws) {
			t.Errorf("not approved in its own workspace: %q", c)
		}
	}
	for _, c := range []string{
		`bimri-hook remember --dir /home/dev/.ssh -- x`,
		`bimri-hook remember --dir /home/dev/other -- x`,
		`bimri-hook remember --dir '/home/dev/my proj/..' -- x`,
		`bimri-hook remember --dir 'my proj' -- x`,
		`bimri-hook remember --dir . -- x`,
		`bimri-hook remember -- x`,
		`bimri-hook remember x`,
		`bimri-hook remember --dir '/home/dev/my proj' --dir /home/dev/.ssh -- x`,
		`bimri-hook remember --dir=/home/dev/.ssh --dir '/home/dev/my proj' -- x`,
		`bimri-hook remember --dir '/home/dev/my proj' --config /tmp/c.json -- x`,
		`bimri-hook remember --config=/tmp/c.json --dir '/home/dev/my proj' -- x`,
		`bimri-hook remember --dir '/home/dev/my proj' --global -- x`,
		`bimri-hook remember --dir '/home/dev/my proj' --today 2020-01-01 -- x`,
		`bimri-hook remember --dir '/home/dev/my proj' --unknown -- x`,
		`bimri-hook remember --dir '/home/dev/my proj' --tags`,
		`bimri-hook remember --dir`,
	} {
		if Tool("Bash", c, ws) {
			t.Errorf("approved outside the session's workspace: %q", c)
		}
	}
	if Tool("Bash", `bimri-hook remember --dir /p -- x`, Session{Binary: bin}) {
		t.Error("approved with no workspace known")
	}
}

// TestRefusesEqualsAfterEmptyQuotes: zsh expands an empty quote then =ls as it
// does =ls, to the path of the program (issue 34, item 6).
func TestRefusesEqualsAfterEmptyQuotes(t *testing.T) {
	for _, c := range []string{
		`bimri-hook remember --dir /p -- ''=ls`,
		`bimri-hook remember --dir /p -- ""=ls`,
		`bimri-hook remember --dir /p -- ''""=ls`,
		`bimri-hook remember --dir ''=ls -- x`,
	} {
		if _, ok := Argv(c); ok {
			t.Errorf("read as literal: %q", c)
		}
	}
	if _, ok := Argv(`bimri-hook remember --dir /p -- 'a'=ls`); !ok {
		t.Error("refused = after text")
	}
}
