//go:build linux || darwin

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/wiring"
)

// codexVersion is the Codex CLI release the Codex tests install, the
// newest npm served when they were written; docs/agents.md records what
// was measured on it.
const codexVersion = "0.171.0"

// codexCLI is the npm package of the Codex CLI. Its native binary ships in
// a per-platform optional dependency (@openai/codex-linux-x64, ...), under
// vendor/<target triple>/bin/codex.
var codexCLI = npmPackage{
	Name: "@openai/codex", Version: codexVersion, Cache: "codex",
	Find: func(prefix string) (string, error) {
		arch := npmArch[runtime.GOARCH]
		pattern := filepath.Join(prefix, "node_modules", "@openai", "codex-"+runtime.GOOS+"-"+arch, "vendor", "*", "bin", "codex")
		matches, _ := filepath.Glob(pattern)
		for _, m := range matches {
			if fi, err := os.Stat(m); err == nil && fi.Mode()&0o111 != 0 {
				return filepath.Rel(prefix, m)
			}
		}
		return "", fmt.Errorf("no codex binary at %s", pattern)
	},
	Check: nativeVersion(codexVersion),
}

// CodexSandbox is one Codex user: a throwaway HOME whose ~/.codex/config.toml
// sends the model's requests to a fake Responses API, and a git repository
// the user has trusted in Codex's dialog, with bimri-hook installed for
// Codex as the README says.
type CodexSandbox struct {
	Codex     string
	Bin       string // bimri-hook
	API       *FakeResponses
	Home      string
	Workspace string
}

// newCodexSandbox installs Codex if needed and sets up the sandbox; the
// caller runs install.
func newCodexSandbox(t *testing.T, script func(Recorded) Reply) *CodexSandbox {
	t.Helper()
	s := &CodexSandbox{
		Codex:     installNPM(t, codexCLI),
		Bin:       buildBimriHook(t),
		API:       newFakeResponses(t, script),
		Home:      filepath.Join(t.TempDir(), "home"),
		Workspace: filepath.Join(t.TempDir(), "proj"),
	}
	for _, d := range []string{filepath.Join(s.Home, ".codex"), s.Workspace} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("git", "init", "-q", s.Workspace).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	// The model provider, and the trust Codex's first-run dialog records
	// for a project (without it Codex reads no .codex/ folder in it).
	config := fmt.Sprintf(`model = "gpt-5"
model_provider = "fake"

[model_providers.fake]
name = "fake"
base_url = %q
wire_api = "responses"

[projects.%q]
trust_level = "trusted"
`, s.API.URL, s.Workspace)
	if err := os.WriteFile(filepath.Join(s.Home, ".codex", "config.toml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	return s
}

// env is the environment of Codex and of bimri-hook run by the test:
// minimal, with bimri-hook on PATH. The workspace is found no higher than
// the sandbox's folder: a stray bimri.md in the temporary folder above it
// (another test's) would otherwise be taken for the workspace's.
func (s *CodexSandbox) env() []string {
	return []string{"HOME=" + s.Home, "PATH=" + filepath.Dir(s.Bin) + ":" + minimalPath,
		"LANG=C.UTF-8", "TMPDIR=" + clientTmp, "GIT_CEILING_DIRECTORIES=" + filepath.Dir(s.Workspace)}
}

// bimri runs bimri-hook in the workspace and returns its output.
func (s *CodexSandbox) bimri(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(s.Bin, args...)
	cmd.Dir, cmd.Env = s.Workspace, s.env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bimri-hook %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

var codexSessionRE = regexp.MustCompile(`(?m)^session id: (\S+)$`)

// exec runs `codex exec ARGS` in the workspace, with no trust-bypass flag,
// and returns its output and the session's ID.
func (s *CodexSandbox) exec(t *testing.T, args ...string) (string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), defaultRunTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.Codex, append([]string{"exec"}, args...)...)
	cmd.Dir, cmd.Env = s.Workspace, s.env()
	cmd.Stdin = bytes.NewReader(nil)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("codex exec %q: %v\n%s\nrequests:\n%s", args, err, out, s.API.Summary())
	}
	m := codexSessionRE.FindSubmatch(out)
	if m == nil {
		t.Fatalf("codex exec printed no session id:\n%s", out)
	}
	return string(out), string(m[1])
}

// memory reads the workspace's bimri.md.
func (s *CodexSandbox) memory(t *testing.T) *memfile.File {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(s.Workspace, memfile.MemoryName))
	if err != nil {
		t.Fatal(err)
	}
	f, _, err := memfile.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// The words of the Codex scenario's prompts and entries.
const (
	codexSeeded    = "Chose SQLite for the ledger, one file per tenant."
	codexRecorded  = "Codex switched the ledger to WAL mode for concurrent readers."
	codexRecallAsk = "Which cache backend did we settle on for user sessions?"
	codexRecordAsk = "Please record the WAL decision in memory."
	codexMCPText   = "Codex made the ledger's backups hourly, through the MCP tool."
	codexMCPAsk    = "Please record the backup decision with the memory tool."
)

// codexScript is the fake model of the Codex scenario: asked to record, it
// runs bin remember through Codex's shell tool (exec_command); its output
// back, or any other prompt, it answers with text. bin is absolute: Codex
// runs the model's commands in a login shell, whose profile sets PATH
// afresh (measured: a bare bimri-hook on the PATH Codex was started with
// was "command not found").
func codexScript(bin *string) func(Recorded) Reply {
	return func(r Recorded) Reply {
		items := r.Get("input").Array()
		if len(items) > 0 && items[len(items)-1].Get("type").String() == "function_call_output" {
			return TextReply("Recorded.")
		}
		switch last := lastUserText(r); {
		case strings.Contains(last, codexMCPAsk):
			return Reply{ToolUse: &ToolUse{ID: "call_mcp", Namespace: "mcp__" + wiring.MCPServer, Name: "remember",
				Input: map[string]any{"text": codexMCPText, "importance": 4, "tags": []string{"ledger"}}}}
		case strings.Contains(last, codexRecordAsk):
			return Reply{ToolUse: &ToolUse{ID: "call_remember", Name: "exec_command", Input: map[string]any{
				"cmd": shellQuoteTest(*bin) + " remember --importance 4 --tags ledger " + shellQuoteTest(codexRecorded),
			}}}
		}
		return TextReply("Noted.")
	}
}

// lastUserText is the text of the request's last user message: the
// prompt of the turn, in a resumed session too.
func lastUserText(r Recorded) string {
	items := r.Get("input").Array()
	for i := len(items) - 1; i >= 0; i-- {
		if items[i].Get("role").String() == "user" {
			return responsesItemText(items[i])
		}
	}
	return ""
}

func shellQuoteTest(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// TestCodexEndToEnd: the real Codex CLI, wired by `bimri-hook install
// --agent codex` and run as plain `codex exec` (no trust-bypass flag),
// against a fake Responses API: the memory is in the first model request,
// a prompt naming an archived entry's words brings it back, entries the
// model records through Codex's shell tool and through the MCP server
// install registered land in bimri.md, and each session is counted once,
// a resumed one included.
func TestCodexEndToEnd(t *testing.T) {
	var bin string
	s := newCodexSandbox(t, codexScript(&bin))
	bin = s.Bin
	s.bimri(t, "remember", "--importance", "4", "--tags", "ledger", codexSeeded)
	writeRecallArchive(t, s.Workspace)
	out := s.bimri(t, "install", "--agent", "codex")
	if !strings.Contains(out, "trusted the 3 hooks") {
		t.Fatalf("install did not say it trusted its hooks:\n%s", out)
	}

	// Session 1: the memory at the start, the archived answer recalled.
	_, first := s.exec(t, codexRecallAsk)
	turns := s.API.Turns()
	if len(turns) == 0 {
		t.Fatalf("no model request")
	}
	req := responsesText(turns[0])
	if !strings.Contains(req, codexSeeded) {
		t.Fatalf("the first model request lacks the memory (did Codex run the trusted SessionStart hook?):\n%.3000s", req)
	}
	at, recalled := strings.Index(req, codexRecallAsk), strings.Index(req, recallAnswer)
	if at < 0 || recalled < at {
		t.Errorf("the archived answer is not recalled after the prompt (prompt at %d, answer at %d)", at, recalled)
	}
	if got := s.memory(t).Header.Sessions; got != 1 {
		t.Errorf("after one Codex session, Sessions is %d, want 1", got)
	}

	// Session 2: the model records through the shell tool.
	s.API.Reset()
	_, second := s.exec(t, "-s", "workspace-write", codexRecordAsk)
	if second == first {
		t.Fatalf("codex exec reused session %s", first)
	}
	last := s.API.Turns()
	if out, ok := responsesOutput(last[len(last)-1], "call_remember"); !ok || !strings.Contains(out, "recorded ") {
		t.Errorf("the remember command's output did not come back as recorded: %q", out)
	}
	f := s.memory(t)
	if !strings.Contains(string(memfile.Render(f)), codexRecorded) || !strings.Contains(string(memfile.Render(f)), "[AGENT:codex]") {
		t.Errorf("the entry recorded through Codex's shell tool is not in bimri.md:\n%s", memfile.Render(f))
	}
	if f.Header.Sessions != 2 {
		t.Errorf("after two sessions, Sessions is %d, want 2", f.Header.Sessions)
	}

	// The second session resumed: the same session, not counted again;
	// the model records through the MCP server install registered.
	s.API.Reset()
	s.exec(t, "resume", second, codexMCPAsk)
	last = s.API.Turns()
	if out, ok := responsesOutput(last[len(last)-1], "call_mcp"); !ok || !strings.Contains(out, codexMCPText) {
		t.Errorf("the MCP remember call did not come back recorded: %q\n%s", out, s.API.Summary())
	}
	f = s.memory(t)
	for _, e := range f.Entries(2) {
		if strings.Contains(e.Text, "through the MCP tool") && e.Agent != wiring.Codex.Agent {
			t.Errorf("the MCP entry does not say Codex recorded it: %+v", e)
		}
	}
	if !strings.Contains(string(memfile.Render(f)), codexMCPText) {
		t.Errorf("the entry recorded through the MCP tool is not in bimri.md")
	}
	if f.Header.Sessions != 2 {
		t.Errorf("a resumed session was counted again: Sessions is %d, want 2", f.Header.Sessions)
	}
}

// TestCodexUntrustedHooksSkipped: with --no-trust, a plain codex exec
// skips bimri-hook's hooks without a word (Codex's own rule), and doctor
// says so: what makes the trusted run work is the trust install records.
func TestCodexUntrustedHooksSkipped(t *testing.T) {
	s := newCodexSandbox(t, func(Recorded) Reply { return TextReply("Noted.") })
	s.bimri(t, "remember", "--importance", "4", "--tags", "ledger", codexSeeded)
	out := s.bimri(t, "install", "--agent", "codex", "--no-trust")
	if !strings.Contains(out, "--no-trust") {
		t.Fatalf("install --no-trust did not say the hooks wait for review:\n%s", out)
	}
	s.exec(t, codexRecallAsk)
	if turns := s.API.Turns(); len(turns) == 0 || strings.Contains(responsesText(turns[0]), codexSeeded) {
		t.Fatalf("an untrusted hook ran, or no request came (%d requests)", len(turns))
	}
	cmd := exec.Command(s.Bin, "doctor")
	cmd.Dir, cmd.Env = s.Workspace, s.env()
	doc, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(doc), "Codex will skip 3 of its 3 hooks") {
		t.Errorf("doctor did not fail on the untrusted hooks (%v):\n%s", err, doc)
	}
}
