package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/matryer/is"
)

// Transcript lines in the shape Claude Code writes them, trimmed to the
// fields that matter.

func jsonText(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func userLine(content string) string {
	return `{"parentUuid":"p","isSidechain":false,"type":"user","message":{"role":"user","content":` + content + `},"uuid":"u"}` + "\n"
}

func prompt(text string) string { return userLine(jsonText(text)) }

func metaLine(text string) string {
	return `{"type":"user","message":{"role":"user","content":` + jsonText(text) + `},"isMeta":true}` + "\n"
}

func toolUses(blocks ...string) string {
	return `{"type":"assistant","message":{"role":"assistant","content":[` + strings.Join(blocks, ",") + `]}}` + "\n"
}

func toolUse(name, input string) string { return toolUseAs("toolu_1", name, input) }

func toolUseAs(id, name, input string) string {
	return `{"type":"tool_use","id":` + jsonText(id) + `,"name":"` + name + `","input":` + input + `}`
}

// write and edit are file-changing calls with the ids writeID and
// editID; succeeded gives calls their successful results.
func write(path string) string {
	return toolUseAs(writeID(path), "Write", `{"file_path":`+jsonText(path)+`,"content":"x"}`)
}
func edit(path string) string {
	return toolUseAs(editID(path), "Edit", `{"file_path":`+jsonText(path)+`,"old_string":"a","new_string":"b"}`)
}
func writeID(path string) string { return "toolu_w" + path }
func editID(path string) string  { return "toolu_e" + path }

// written is write(path) and its successful result; edited, edit's.
func written(path string) string { return toolUses(write(path)) + succeeded(writeID(path)) }
func edited(path string) string  { return toolUses(edit(path)) + succeeded(editID(path)) }

// succeeded is one user line with a successful result for each id.
func succeeded(ids ...string) string {
	var blocks []string
	for _, id := range ids {
		blocks = append(blocks, `{"tool_use_id":`+jsonText(id)+`,"type":"tool_result","content":"ok"}`)
	}
	return userLine("[" + strings.Join(blocks, ",") + "]")
}
func bash(command string) string { return toolUse("Bash", `{"command":`+jsonText(command)+`}`) }

// rememberAs is a remember call with tool_use id id.
func rememberAs(id string) string {
	return toolUses(`{"type":"tool_use","id":"` + id + `","name":"Bash","input":{"command":"bimri-hook remember -- chose SQLite"}}`)
}

// resultFor is the tool_result of call id; content is JSON.
func resultFor(id string, isError bool, content string) string {
	e := ""
	if isError {
		e = `,"is_error":true`
	}
	return userLine(`[{"tool_use_id":"` + id + `","type":"tool_result","content":` + content + e + `}]`)
}

var (
	toolResult = userLine(`[{"tool_use_id":"toolu_1","type":"tool_result","content":"ok"}]`)
	compaction = `{"type":"user","message":{"role":"user","content":"This session is being continued from a previous conversation that ran out of context."},"isCompactSummary":true,"isVisibleInTranscriptOnly":true}` + "\n"
	attachment = `{"type":"attachment","attachment":{"type":"date","date":"2026-11-29"}}` + "\n"
	remember   = toolUses(bash(`/home/dev/bin/bimri-hook remember --note "chose SQLite"`))
	recorded   = resultFor("toolu_1", false, `"Recorded E5."`)
	deniedText = "This command requires approval"
)

func TestRead(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Summary // Offset is len(in) unless wantOffset is set
		// wantOffset, when not 0, is the expected Offset.
		wantOffset int
	}{
		{name: "empty"},
		{
			name: "prompt",
			in:   prompt("  Please write a NOTES.md\n"),
			want: Summary{FirstPrompt: "Please write a NOTES.md", Prompts: 1, PromptsSinceRemember: 1},
		},
		{
			name: "prompt is cleaned",
			in:   prompt("use password=hunter2FAKE <private>my notes</private>please"),
			want: Summary{FirstPrompt: "use password=[redacted] please", Prompts: 1, PromptsSinceRemember: 1},
		},
		{
			name: "prompt is cut",
			in:   prompt(strings.Repeat("ab ", maxPromptRunes)),
			want: Summary{FirstPrompt: strings.Repeat("ab ", (maxPromptRunes-1)/3) + "a…", Prompts: 1, PromptsSinceRemember: 1},
		},
		{
			name: "wholly private prompt leaves room for the next",
			in:   prompt("<private>secret plan</private>") + prompt("public"),
			want: Summary{FirstPrompt: "public", Prompts: 2, PromptsSinceRemember: 2},
		},
		{
			name: "first prompt wins",
			in:   prompt("one") + prompt("two"),
			want: Summary{FirstPrompt: "one", Prompts: 2, PromptsSinceRemember: 2},
		},
		{
			name: "prompt as text blocks",
			in:   userLine(`[{"type":"text","text":"look at this"},{"type":"image","source":{}},{"type":"text","text":"and fix it"}]`),
			want: Summary{FirstPrompt: "look at this\nand fix it", Prompts: 1, PromptsSinceRemember: 1},
		},
		{
			name: "image only prompt has no text",
			in:   userLine(`[{"type":"image","source":{}}]`) + prompt("then text"),
			want: Summary{FirstPrompt: "then text", Prompts: 2, PromptsSinceRemember: 2},
		},
		{
			name: "write and edit",
			in: toolUses(write("/p/NOTES.md"), edit("/p/main.go")) + succeeded(writeID("/p/NOTES.md"), editID("/p/main.go")) +
				edited("/p/NOTES.md"),
			want: Summary{FilesChanged: []string{"/p/NOTES.md", "/p/main.go"}, ChangesSinceRemember: 3},
		},
		{
			name: "multiedit and notebookedit",
			in: toolUses(toolUseAs("m", "MultiEdit", `{"file_path":"/p/a.go","edits":[]}`),
				toolUseAs("n", "NotebookEdit", `{"notebook_path":"/p/n.ipynb","new_source":"x"}`)) + succeeded("n", "m"),
			want: Summary{FilesChanged: []string{"/p/n.ipynb", "/p/a.go"}, ChangesSinceRemember: 2},
		},
		{
			name: "a change without its result yet is pending, not counted",
			in:   toolUses(write("/p/a")),
			want: Summary{PendingChanges: []Change{{ID: writeID("/p/a"), Path: "/p/a"}}},
		},
		{
			name: "a change made before a remember, settled after it, is not one since",
			in:   toolUses(write("/p/a")) + remember + recorded + succeeded(writeID("/p/a")),
			want: Summary{FilesChanged: []string{"/p/a"}, RememberCalls: 1},
		},
		{
			name: "a denied write changed nothing",
			in:   prompt("write it") + toolUses(write("/p/NOTES.md")) + resultFor(writeID("/p/NOTES.md"), true, jsonText("Permission to use Write has been denied.")),
			want: Summary{FirstPrompt: "write it", Prompts: 1, PromptsSinceRemember: 1},
		},
		{
			name: "a failed edit changed nothing",
			in:   toolUses(edit("/p/a.go")) + resultFor(editID("/p/a.go"), true, jsonText("<tool_use_error>String to replace not found in file.</tool_use_error>")) + edited("/p/b.go"),
			want: Summary{FilesChanged: []string{"/p/b.go"}, ChangesSinceRemember: 1},
		},
		{
			name: "other tools change nothing",
			in:   toolUses(toolUse("Read", `{"file_path":"/p/a.go"}`), bash("go test ./..."), `{"type":"text","text":"done"}`),
			want: Summary{},
		},
		{
			name: "remember resets since-remember counts",
			in:   prompt("a") + written("/p/a") + remember + recorded + edited("/p/b") + prompt("b") + prompt("c"),
			want: Summary{
				FirstPrompt: "a", Prompts: 3, FilesChanged: []string{"/p/a", "/p/b"},
				RememberCalls: 1, ChangesSinceRemember: 1, PromptsSinceRemember: 2,
			},
		},
		{
			name: "change in the same message after remember",
			in:   toolUses(write("/p/a"), bash("bimri remember x"), edit("/p/b")) + recorded + succeeded(writeID("/p/a"), editID("/p/b")),
			want: Summary{FilesChanged: []string{"/p/a", "/p/b"}, RememberCalls: 1, ChangesSinceRemember: 1},
		},
		{
			name: "a remember without its result yet is pending, not recorded",
			in:   written("/p/a") + remember,
			want: Summary{FilesChanged: []string{"/p/a"}, Pending: []string{"toolu_1"}},
		},
		{
			name: "a denied remember is not a record",
			in:   written("/p/a") + rememberAs("toolu_d") + resultFor("toolu_d", true, jsonText(deniedText)),
			want: Summary{FilesChanged: []string{"/p/a"}, RememberFailed: 1,
				RememberDenied: true, RememberError: deniedText,
				Denied: []Intent{{Tier: 2, Importance: 3, Text: "chose SQLite"}}}, // the entry meant, kept
		},
		{
			name: "a denied call keeps its importance, tags and cleaned text, by Bash or MCP",
			in: toolUses(`{"type":"tool_use","id":"d1","name":"Bash","input":{"command":"bimri-hook remember --dir /p --importance 4 --tags Database,decision -- 'We chose PostgreSQL 16; password=hunter2hunter2'"}}`,
				`{"type":"tool_use","id":"d2","name":"mcp__plugin_bimri-hook_bimri__remember","input":{"text":"Pinned Node 22.","importance":5,"tier":1,"tags":["ci"]}}`,
				`{"type":"tool_use","id":"d3","name":"Bash","input":{"command":"bimri-hook remember --replaces aa,bb -- summary"}}`) +
				resultFor("d1", true, jsonText(deniedText)) + resultFor("d2", true, jsonText(deniedText)) + resultFor("d3", true, jsonText(deniedText)),
			want: Summary{RememberFailed: 3, RememberDenied: true, RememberError: deniedText,
				Denied: []Intent{{Tier: 2, Importance: 4, Tags: []string{"database", "decision"}, Text: "We chose PostgreSQL 16; password=[redacted]"},
					{Tier: 1, Importance: 5, Tags: []string{"ci"}, Text: "Pinned Node 22."}}},
		},
		{
			name: "a failed remember is not a record, nor a denial",
			in: rememberAs("toolu_f") + resultFor("toolu_f", true,
				`[{"type":"text","text":"Exit code 1\nbimri-hook: remember: --importance must be 1-5"}]`),
			want: Summary{RememberFailed: 1, RememberError: "Exit code 1"},
		},
		{
			name: "results are matched by id, in any order",
			in: toolUses(`{"type":"tool_use","id":"a","name":"Bash","input":{"command":"bimri-hook remember -- x"}}`,
				`{"type":"tool_use","id":"b","name":"Bash","input":{"command":"bimri-hook remember -- y"}}`) +
				userLine(`[{"tool_use_id":"b","type":"tool_result","content":"ok"},{"tool_use_id":"other","type":"tool_result","content":"no","is_error":true}]`),
			want: Summary{RememberCalls: 1, Pending: []string{"a"}, Intents: []Intent{{ID: "a", Tier: 2, Importance: 3, Text: "x"}}},
		},
		{
			name: "a sidechain result does not settle the main session's call",
			in:   remember + `{"type":"user","isSidechain":true,"message":{"role":"user","content":[{"tool_use_id":"toolu_1","type":"tool_result","content":"ok"}]}}` + "\n",
			want: Summary{Pending: []string{"toolu_1"}},
		},
		{
			name: "the MCP remember tool is a remember call, another server's is not",
			in: written("/p/a") +
				toolUses(`{"type":"tool_use","id":"m","name":"mcp__plugin_bimri-hook_bimri__remember","input":{"text":"chose SQLite"}}`,
					`{"type":"tool_use","id":"o","name":"mcp__notes__remember","input":{"text":"x"}}`) +
				resultFor("m", false, `"recorded"`),
			want: Summary{FilesChanged: []string{"/p/a"}, RememberCalls: 1},
		},
		{
			name: "bash that is not remember",
			in:   toolUses(bash("cat bimri.md"), bash("echo remember"), bash("grep remember bimri.md"), bash("bimri-hook status")),
			want: Summary{},
		},
		{
			name: "tool result is not a prompt",
			in:   prompt("go") + toolResult,
			want: Summary{FirstPrompt: "go", Prompts: 1, PromptsSinceRemember: 1},
		},
		{
			name: "compaction summary is not a prompt",
			in:   compaction + userLine(jsonText("This session is being continued from a previous conversation. Summary: x")),
			want: Summary{},
		},
		{
			name: "local commands are not prompts",
			in: metaLine("<local-command-caveat>Caveat: run locally</local-command-caveat>") +
				prompt("<command-name>/compact</command-name>\n            <command-message>compact</command-message>\n            <command-args></command-args>") +
				prompt("<local-command-stdout>Compacted</local-command-stdout>") +
				prompt("<command-message>review</command-message>\n<command-name>/review</command-name>") +
				prompt("<bash-input>ls</bash-input>") + prompt("<bash-stdout>a.go</bash-stdout><bash-stderr></bash-stderr>"),
			want: Summary{},
		},
		{
			name: "hook feedback and interruptions are not prompts",
			in: metaLine("Stop hook feedback:\nrecord the session") + prompt("Stop hook feedback:\nagain") +
				userLine(`[{"type":"text","text":"[Request interrupted by user for tool use]"}]`) +
				userLine(`[{"type":"text","text":"<system-reminder>x</system-reminder>"}]`),
			want: Summary{},
		},
		{
			name: "sidechain prompt is not the user's",
			in:   `{"type":"user","isSidechain":true,"message":{"role":"user","content":"subagent task"}}` + "\n",
			want: Summary{},
		},
		{
			name: "other line types are ignored",
			in:   attachment + `{"type":"system","subtype":"compact_boundary","content":"Conversation compacted"}` + "\n" + `{"type":"last-prompt","lastPrompt":"x"}` + "\n",
			want: Summary{},
		},
		{
			name:       "truncated final line is not consumed",
			in:         prompt("a") + `{"type":"user","message":{"role":"user","content":"b"}}`,
			want:       Summary{FirstPrompt: "a", Prompts: 1, PromptsSinceRemember: 1},
			wantOffset: len(prompt("a")),
		},
		{
			name:       "final line not consumed even when it is whole JSON",
			in:         written("/p/a") + strings.TrimSuffix(toolUses(write("/p/b")), "\n"),
			want:       Summary{FilesChanged: []string{"/p/a"}, ChangesSinceRemember: 1},
			wantOffset: len(written("/p/a")),
		},
		{
			name: "invalid JSON is counted and skipped",
			in:   "{not json\n" + `{"type":"user","message":` + "\n" + "[1,2]\n" + prompt("a"),
			want: Summary{FirstPrompt: "a", Prompts: 1, PromptsSinceRemember: 1},
		},
		{
			name: "nested too deep",
			in: `{"type":"user","message":{"content":` + strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth) + "}}\n" +
				`{"type":"user","message":{"content":"[[[{{{\"[[\\"}}` + "\n",
			want: Summary{FirstPrompt: `[[[{{{"[[\`, Prompts: 1, PromptsSinceRemember: 1},
		},
		{
			name: "blank lines and CRLF",
			in:   "\n  \n" + strings.TrimSuffix(prompt("a"), "\n") + "\r\n",
			want: Summary{FirstPrompt: "a", Prompts: 1, PromptsSinceRemember: 1},
		},
		{
			name: "non-UTF-8 bytes",
			in:   "\xff\xfe\xfd\n" + `{"type":"user","message":{"role":"user","content":"caf` + "\xe9" + ` ok"}}` + "\n" + toolUses(toolUseAs("x", "Write", `{"file_path":"/p/`+"\xff"+`.go"}`)) + succeeded("x"),
			want: Summary{
				FirstPrompt: "caf\uFFFD ok", Prompts: 1, PromptsSinceRemember: 1,
				FilesChanged: []string{"/p/\uFFFD.go"}, ChangesSinceRemember: 1,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			got, err := readFrom(strings.NewReader(tt.in), 0, 0)
			is.NoErr(err)
			want := tt.want
			want.Offset = int64(len(tt.in))
			if tt.wantOffset != 0 {
				want.Offset = int64(tt.wantOffset)
			}
			is.Equal(normal(got), normal(want))
		})
	}
}

// normal makes an empty FilesChanged and Pending nil, so that summaries
// compare equal.
func normal(s Summary) Summary {
	if len(s.FilesChanged) == 0 {
		s.FilesChanged = nil
	}
	if len(s.Pending) == 0 {
		s.Pending = nil
	}
	if len(s.PendingChanges) == 0 {
		s.PendingChanges = nil
	}
	return s
}

func TestIsRemember(t *testing.T) {
	for _, tt := range []struct {
		command string
		want    bool
	}{
		{"bimri-hook remember", true},
		{"/home/dev/bin/bimri-hook remember --note 'x'", true},
		{`"${CLAUDE_PLUGIN_ROOT}/bin/bimri-hook" remember <<'EOF'` + "\nnote\nEOF", true},
		{"cd /p && bimri remember 'chose SQLite'", true},
		{`C:\tools\bimri-hook.exe remember`, true},
		{"bimri-hook --dir /p remember", true},
		{"/home/dev/.claude/plugins/data/bimri-hook-inline/bin/bimri-hook-0.1.0 remember --dir /p --importance 3 --tags a \"x\"", true},
		{`C:\data\bin\bimri-hook-0.1.0.exe remember`, true},
		{"bimri-hook-notes remember", false},
		{"bimri-hook status", false},
		{"cat bimri.md", false},
		{"echo remember >> bimri.md", false},
		{"grep remember bimri", false},
		{"bimri-hook-remember", false},
		{"notbimri-hook remember", false},
		{"bimri-hook remembered", false},
		{"", false},
	} {
		if got := isRemember(tt.command); got != tt.want {
			t.Errorf("isRemember(%q) = %v, want %v", tt.command, got, tt.want)
		}
	}
}

func TestIsRememberTool(t *testing.T) {
	for name, want := range map[string]bool{
		"mcp__plugin_bimri-hook_bimri__remember": true,
		"mcp__bimri__remember":                   true,
		"mcp__plugin_bimri-hook_bimri__recall":   false,
		"mcp__notes__remember":                   false,
		"remember":                               false,
		"bimri__remember":                        false,
		"mcp__bimri__remembered":                 false,
	} {
		if got := isRememberTool(name); got != want {
			t.Errorf("IsRememberTool(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestReadSample(t *testing.T) {
	is := is.New(t)
	info, err := os.Stat("testdata/sample.jsonl")
	is.NoErr(err)
	got, err := readPath("testdata/sample.jsonl", 0, 1<<20)
	is.NoErr(err)
	// One prompt, one Write, a Bash call that is not remember, a Stop
	// hook's feedback and a /compact with its summary and wrappers, none
	// of which are prompts.
	is.Equal(got, Summary{
		FirstPrompt:          "Please write a NOTES.md recording that we chose SQLite",
		Prompts:              1,
		FilesChanged:         []string{"/home/dev/proj/NOTES.md"},
		ChangesSinceRemember: 1,
		PromptsSinceRemember: 1,
		Offset:               info.Size(),
	})
}

func TestReadLimit(t *testing.T) {
	is := is.New(t)
	in := prompt("a") + prompt("b") + prompt("c")
	n := int64(len(prompt("a")))
	r := &countingReader{r: strings.NewReader(in)}
	// The limit ends inside the second line: only the first is consumed.
	got, err := readFrom(r, 100, n+5)
	is.NoErr(err)
	is.Equal(got.Prompts, 1)
	is.Equal(got.Offset, 100+n)
	is.True(r.n <= n+5) // never read past the limit
}

func TestReadLongLine(t *testing.T) {
	is := is.New(t)
	long := toolUses(toolUse("Write", `{"file_path":"/p/big","content":"`+strings.Repeat("x", maxLineSize)+`"}`))
	in := prompt("a") + long + prompt("b")
	got, err := readFrom(strings.NewReader(in), 0, 0)
	is.NoErr(err)
	is.Equal(got.Prompts, 2)
	is.Equal(len(got.PendingChanges), 0) // the long call was passed over
	is.Equal(got.Offset, int64(len(in)))

	// Unfinished, it is not consumed.
	got, err = readFrom(strings.NewReader(prompt("a")+strings.TrimSuffix(long, "\n")), 0, 0)
	is.NoErr(err)
	is.Equal(got.Offset, int64(len(prompt("a"))))
}

func TestReadError(t *testing.T) {
	is := is.New(t)
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader(prompt("a")+"{"), &errReader{boom})
	got, err := readFrom(r, 0, 0)
	is.True(errors.Is(err, boom))
	is.Equal(got.Prompts, 1) // what came before the error counts
	is.Equal(got.Offset, int64(len(prompt("a"))))
}

func TestReadFileSkipsToLimit(t *testing.T) {
	lines := []string{prompt("first"), written("/p/a"), prompt("second"), written("/p/b"), prompt("third")}
	in := strings.Join(lines, "")
	path := writeFile(t, in)
	size := int64(len(in))
	tail := int64(len(lines[3]) + len(lines[4]))

	t.Run("limit inside a line", func(t *testing.T) {
		is := is.New(t)
		got, err := readPath(path, 0, tail+3) // starts 3 bytes before line 3
		is.NoErr(err)
		is.Equal(got, Summary{
			FirstPrompt: "third", Prompts: 1, PromptsSinceRemember: 1,
			FilesChanged: []string{"/p/b"}, ChangesSinceRemember: 1,
			Offset: size, Skipped: true,
		})
	})
	t.Run("limit at a line start", func(t *testing.T) {
		is := is.New(t)
		got, err := readPath(path, 0, tail) // starts exactly at line 3
		is.NoErr(err)
		is.Equal(got.FilesChanged, []string{"/p/b"})
		is.Equal(got.Prompts, 1)
		is.True(got.Skipped)
		is.Equal(got.Offset, size)
	})
	t.Run("within limit", func(t *testing.T) {
		is := is.New(t)
		from := int64(len(lines[0]))
		got, err := readPath(path, from, size-from)
		is.NoErr(err)
		is.True(!got.Skipped)
		is.Equal(got.FirstPrompt, "second")
		is.Equal(got.Prompts, 2)
		is.Equal(got.Offset, size)
	})
	t.Run("limit inside the last line", func(t *testing.T) {
		is := is.New(t)
		got, err := readPath(path, 0, int64(len(lines[4]))-2)
		is.NoErr(err)
		is.Equal(got, Summary{Offset: size, Skipped: true})
	})
	t.Run("no line ends within limit", func(t *testing.T) {
		is := is.New(t)
		path := writeFile(t, in+`{"type":"user","message":{"content":"`+strings.Repeat("x", 100))
		got, err := readPath(path, size, 50)
		is.NoErr(err)
		is.Equal(got, Summary{Offset: size, Skipped: true}) // the next read tries again from size
	})
	t.Run("from past the end", func(t *testing.T) {
		is := is.New(t)
		got, err := readPath(path, size+100, 0)
		is.NoErr(err)
		is.Equal(got.FirstPrompt, "first")
		is.Equal(got.Prompts, 3)
		is.Equal(got.Offset, size)
	})
	t.Run("at the end", func(t *testing.T) {
		is := is.New(t)
		got, err := readPath(path, size, 10)
		is.NoErr(err)
		is.Equal(got, Summary{Offset: size})
	})
}

func TestReadFileMissing(t *testing.T) {
	is := is.New(t)
	got, err := readPath(filepath.Join(t.TempDir(), "none.jsonl"), 7, 0)
	is.True(errors.Is(err, fs.ErrNotExist))
	is.Equal(got.Offset, int64(7))
}

// Reading a growing transcript a piece at a time and adding the pieces up
// gives what one read of the whole gives.
func TestReadFileIncremental(t *testing.T) {
	// File changes settle across reads as remember calls do: a denied
	// write is no change, one whose result is still to come is pending.
	in := prompt("a") + written("/p/a") + remember + recorded + toolUses(edit("/p/b"), write("/p/d")) +
		"{bad\n" + succeeded(editID("/p/b")) + resultFor(writeID("/p/d"), true, jsonText("Permission to use Write has been denied.")) +
		prompt("b") + compaction + edited("/p/c") + prompt("c") +
		rememberAs("toolu_d") + resultFor("toolu_d", true, jsonText(deniedText)) + prompt("d") + toolUses(write("/p/e"))
	whole, err := readFrom(strings.NewReader(in), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	is.New(t).Equal(whole.FilesChanged, []string{"/p/a", "/p/b", "/p/c"})
	is.New(t).Equal(whole.PendingChanges, []Change{{ID: writeID("/p/e"), Path: "/p/e"}})
	path := filepath.Join(t.TempDir(), "t.jsonl")
	for _, step := range []int{7, 61, 333, len(in)} {
		is := is.New(t)
		var sum Summary
		for end := step; ; end += step {
			end = min(end, len(in))
			is.NoErr(os.WriteFile(path, []byte(in[:end]), 0o600))
			var err error
			sum, err = sum.ReadMore(path, 0)
			is.NoErr(err)
			if end == len(in) {
				break
			}
		}
		is.Equal(normal(sum), normal(whole))
	}
}

func TestFallbackSummary(t *testing.T) {
	tests := []struct {
		name   string
		sum    Summary
		maxLen int
		want   string
	}{
		{"nothing", Summary{Offset: 100}, 80, ""},
		{"prompt only", Summary{FirstPrompt: "Fix the login bug"}, 80, "Session: Fix the login bug"},
		{"files only", Summary{FilesChanged: []string{"/p/NOTES.md"}}, 80, "Session: changed NOTES.md"},
		{
			"prompt and files",
			Summary{FirstPrompt: "Please write a NOTES.md recording that we chose SQLite", FilesChanged: []string{"/home/dev/proj/NOTES.md"}},
			0,
			"Session: Please write a NOTES.md recording that we chose SQLite; changed NOTES.md",
		},
		{
			"more files than shown",
			Summary{FirstPrompt: "go", FilesChanged: []string{"/p/NOTES.md", "/p/main.go", "/p/db.go", "/p/a.go", `C:\p\b.go`}},
			0,
			"Session: go; changed NOTES.md, main.go, db.go (+2 more)",
		},
		{
			"same base name once",
			Summary{FilesChanged: []string{"/p/a/main.go", "/p/b/main.go", "/p/dir/"}},
			0,
			"Session: changed main.go, dir",
		},
		{
			"prompt shortened to fit",
			Summary{FirstPrompt: "Please write a NOTES.md recording that we chose SQLite", FilesChanged: []string{"/p/NOTES.md"}},
			50,
			"Session: Please write a NOTES.m…; changed NOTES.md",
		},
		{
			"line cut when the prompt has no room",
			Summary{FirstPrompt: "Please write a NOTES.md", FilesChanged: []string{"/p/a-rather-long-file-name.md"}},
			30,
			"Session: Please write a NOTES…",
		},
		{
			"newlines and control characters",
			Summary{FirstPrompt: "line one\nline two\r\n\tthree\x1b[31m"},
			0,
			"Session: line one line two three [31m",
		},
		{
			"secrets and private text are cleaned",
			Summary{FirstPrompt: "deploy with password=hunter2FAKE <private>my diary</private>now"},
			0,
			"Session: deploy with password=[redacted] now",
		},
		{
			"all private",
			Summary{FirstPrompt: "<private>everything</private>"},
			80,
			"",
		},
		{
			"runes not bytes",
			Summary{FirstPrompt: strings.Repeat("é", 40)},
			20,
			"Session: éééééééééé…",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			got := FallbackSummary(tt.sum, tt.maxLen)
			is.Equal(got, tt.want)
			if tt.maxLen > 0 {
				is.True(utf8.RuneCountInString(got) <= tt.maxLen)
			}
		})
	}
}

func FuzzRead(f *testing.F) {
	sample, err := os.ReadFile("testdata/sample.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(sample, uint16(0), int32(0))
	f.Add(sample, uint16(3), int32(1000))
	f.Add([]byte(prompt("a")+remember+toolUses(write("/p/a"), edit("/p/b"))+toolResult+compaction), uint16(0), int32(0))
	f.Add([]byte(prompt("a")+toolUses(write("/p/a"))+remember+succeeded(writeID("/p/a"), "toolu_1")+edited("/p/b")), uint16(200), int32(0))
	f.Add([]byte("{bad\n\xff\n"+prompt("x")+`{"type":"user"`), uint16(9), int32(40))
	f.Add([]byte("\n\n\n"), uint16(0), int32(-1))
	f.Fuzz(func(t *testing.T, data []byte, startArg uint16, limitArg int32) {
		start, limit := int64(startArg), int64(limitArg)
		r := &countingReader{r: bytes.NewReader(data)}
		sum, err := readFrom(r, start, limit)
		if err != nil {
			t.Fatal(err)
		}
		n := sum.Offset - start
		if n < 0 || n > int64(len(data)) {
			t.Fatalf("offset %d outside [%d, %d]", sum.Offset, start, start+int64(len(data)))
		}
		if n > 0 && data[n-1] != '\n' {
			t.Fatalf("offset %d not after a newline", sum.Offset)
		}
		if limit > 0 && (n > limit || r.n > limit) {
			t.Fatalf("read %d bytes, consumed %d, limit %d", r.n, n, limit)
		}
		if sum.PromptsSinceRemember > sum.Prompts || (sum.Prompts == 0 && sum.FirstPrompt != "") {
			t.Fatalf("inconsistent counts: %+v", sum)
		}
		if !utf8.ValidString(sum.FirstPrompt) {
			t.Fatalf("FirstPrompt not UTF-8: %q", sum.FirstPrompt)
		}

		// Reading in two pieces and adding them up gives the same.
		if limit <= 0 {
			cut := int(start) % (len(data) + 1)
			first, err := readFrom(bytes.NewReader(data[:cut]), 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			got, err := read(bytes.NewReader(data[first.Offset:]), first.Offset, 0, false, first)
			if err != nil {
				t.Fatal(err)
			}
			whole := sum
			whole.Offset -= start
			if !equalSummaries(got, whole) {
				t.Fatalf("pieces %+v\nwhole %+v", got, whole)
			}
		}

		line := FallbackSummary(sum, 120)
		if strings.ContainsAny(line, "\n\r") || utf8.RuneCountInString(line) > 120 {
			t.Fatalf("bad fallback summary %q", line)
		}
	})
}

func equalSummaries(a, b Summary) bool {
	return reflect.DeepEqual(normal(a), normal(b))
}

func writeFile(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "transcript.jsonl")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

type errReader struct{ err error }

func (e *errReader) Read([]byte) (int, error) { return 0, e.err }

// readFrom and readPath read a stretch with nothing pending
// from its start, as the tests drive the readers; the hooks read on from
// a Summary (ReadMore).
func readFrom(r io.Reader, start, limit int64) (Summary, error) {
	return read(r, start, limit, false, Summary{})
}

func readPath(path string, from, limit int64) (Summary, error) {
	return Summary{Offset: from}.ReadMore(path, limit)
}

// TestFallbackSkipsProductCommands: a prompt asking for one of
// bimri-hook's own commands (install --link, doctor, off...) is the
// product's business, not the session's work, so the fallback summary
// never records it; the session's first other prompt is its work.
func TestFallbackSkipsProductCommands(t *testing.T) {
	tests := []struct {
		name       string
		transcript string
		want       string
	}{
		{
			"only install --link",
			prompt("Run bimri-hook install --link") + toolUses(bash("bimri-hook install --link")) + toolResult,
			"",
		},
		{
			"a path and quotes",
			prompt("please run `~/.local/bin/bimri-hook doctor` and tell me what it says"),
			"",
		},
		{
			"then real work",
			prompt("run bimri-hook install --link for my shell") + toolUses(bash("bimri-hook install --link")) + toolResult +
				prompt("Fix the login bug") + written("/p/login.go"),
			"Session: Fix the login bug; changed login.go",
		},
		{
			"the program named, no command of it",
			prompt("Add a section about bimri-hook to the README") + written("/p/README.md"),
			"Session: Add a section about bimri-hook to the README; changed README.md",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			sum, err := readFrom(strings.NewReader(tt.transcript), 0, 1<<20)
			is.NoErr(err)
			is.Equal(FallbackSummary(sum, 240), tt.want)
		})
	}
}
