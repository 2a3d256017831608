//go:build linux || darwin

package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
)

// copilotVersion is the GitHub Copilot CLI release the Copilot tests
// install, the newest npm served when they were written; docs/agents.md
// records what was measured on it.
const copilotVersion = "1.0.102"

// copilotCLI is the npm package of the Copilot CLI. Its native binary
// ships in a per-platform optional dependency (@github/copilot-linux-x64,
// ...), which the package's own loader would run with node.
var copilotCLI = npmPackage{
	Name: "@github/copilot", Version: copilotVersion, Cache: "copilot",
	Find: func(prefix string) (string, error) {
		arch := npmArch[runtime.GOARCH]
		rel := filepath.Join("node_modules", "@github", "copilot-"+runtime.GOOS+"-"+arch, "copilot")
		if _, err := os.Stat(filepath.Join(prefix, rel)); err != nil {
			return "", fmt.Errorf("no copilot binary: %w", err)
		}
		return rel, nil
	},
	Check: nativeVersion(copilotVersion),
}

// CopilotSandbox is one Copilot user: a throwaway HOME whose
// ~/.copilot/config.json trusts a git repository (what Copilot's
// folder-trust dialog is for), the model's requests sent to a fake
// Anthropic Messages API by Copilot's own BYOK settings
// (COPILOT_PROVIDER_BASE_URL, COPILOT_OFFLINE: no GitHub sign-in), and
// bimri-hook installed for Copilot as the README says.
type CopilotSandbox struct {
	Copilot   string
	Bin       string // bimri-hook
	API       *FakeAPI
	Home      string
	Workspace string
}

func newCopilotSandbox(t *testing.T, script Script) *CopilotSandbox {
	t.Helper()
	s := &CopilotSandbox{
		Copilot:   installNPM(t, copilotCLI),
		Bin:       buildBimriHook(t),
		API:       newFakeAPI(t, script),
		Home:      filepath.Join(t.TempDir(), "home"),
		Workspace: filepath.Join(t.TempDir(), "proj"),
	}
	for _, d := range []string{filepath.Join(s.Home, ".copilot"), s.Workspace} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("git", "init", "-q", s.Workspace).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	// Without the folder's trust, copilot -p skips the project's hooks and
	// MCP config without a word (measured on 1.0.102).
	writeJSONFile(t, filepath.Join(s.Home, ".copilot", "config.json"), map[string]any{"trustedFolders": []string{s.Workspace}})
	return s
}

// env is the environment of Copilot and of bimri-hook run by the test.
func (s *CopilotSandbox) env() []string {
	return []string{"HOME=" + s.Home, "PATH=" + filepath.Dir(s.Bin) + ":" + minimalPath,
		"LANG=C.UTF-8", "TMPDIR=" + clientTmp, "GIT_CEILING_DIRECTORIES=" + filepath.Dir(s.Workspace),
		"COPILOT_OFFLINE=true", "COPILOT_AUTO_UPDATE=false", "COPILOT_PROVIDER_TYPE=anthropic",
		"COPILOT_PROVIDER_BASE_URL=" + s.API.URL, "COPILOT_PROVIDER_API_KEY=fake-key", "COPILOT_MODEL=claude-sonnet-4.5"}
}

// bimri runs bimri-hook in the workspace and returns its output.
func (s *CopilotSandbox) bimri(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(s.Bin, args...)
	cmd.Dir, cmd.Env = s.Workspace, s.env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bimri-hook %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// run runs `copilot -p prompt` in the workspace, as a script would
// (--allow-all-tools, which a non-interactive run needs to call a tool).
func (s *CopilotSandbox) run(t *testing.T, prompt string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.Copilot, append([]string{"-p", prompt, "--allow-all-tools"}, args...)...)
	cmd.Dir, cmd.Env = s.Workspace, s.env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("copilot -p: %v\n%s\nrequests:\n%s", err, out, s.API.Summary())
	}
	return string(out)
}

func (s *CopilotSandbox) memory(t *testing.T) *memfile.File {
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

// The words of the Copilot scenario's prompts and entries.
const (
	copilotMCPText   = "Copilot moved the ledger's exports to Parquet, through the MCP tool."
	copilotMCPAsk    = "Please record the export decision with the memory tool."
	copilotShellText = "Copilot pinned the ledger's Go toolchain, through its shell."
	copilotShellAsk  = "Please record the toolchain decision with the shell."
)

// copilotScript is the fake model of the Copilot scenario: asked to
// record, it calls the remember tool of the MCP server install registered,
// by the name Copilot declared it under; the tool's answer back, it says
// so; anything else gets DefaultReply.
func copilotScript(r Recorded) Reply {
	if !r.IsMain() {
		return Reply{}
	}
	if len(r.ToolResults()) > 0 {
		return TextReply("Recorded.")
	}
	if strings.Contains(r.NewText(), copilotShellAsk) {
		return ToolReply("bash", map[string]any{"command": "bimri-hook remember " + shellQuoteTest(copilotShellText), "description": "record"})
	}
	if strings.Contains(r.NewText(), copilotMCPAsk) {
		return ToolReply(copilotToolName(r, "remember"), map[string]any{"text": copilotMCPText, "importance": 4, "tags": []string{"ledger"}})
	}
	return Reply{}
}

// copilotToolName is the name a request declares an MCP tool of
// bimri-hook's under, "" when it declares none.
func copilotToolName(r Recorded, tool string) string {
	for _, t := range r.Get("tools.#.name").Array() {
		if strings.HasSuffix(t.Str, tool) && strings.Contains(t.Str, "bimri") {
			return t.Str
		}
	}
	return ""
}

// TestCopilotEndToEnd: the real Copilot CLI, wired by install --agent
// copilot, sends the memory in its first model request, a prompt naming
// an archived entry's words brings it back, an entry recorded through the
// MCP server install registered lands in bimri.md, and each session is
// counted once.
func TestCopilotEndToEnd(t *testing.T) {
	s := newCopilotSandbox(t, copilotScript)
	out := s.bimri(t, "install", "--agent", "copilot")
	if !strings.Contains(out, "Copilot: wired") {
		t.Fatalf("install --agent copilot:\n%s", out)
	}
	const fact = "The staging database is restored nightly from the prod snapshot"
	s.bimri(t, "remember", fact)
	writeRecallArchive(t, s.Workspace)

	stdout := s.run(t, codexRecallAsk)
	main := s.API.MainRequests()
	if len(main) == 0 {
		t.Fatalf("no model request\n%s\nrequests:\n%s", stdout, s.API.Summary())
	}
	req := main[0].ConversationText()
	if strings.Count(req, fact) != 1 {
		t.Fatalf("the memory is not in the first model request once (%d times):\n%.3000s", strings.Count(req, fact), req)
	}
	at, recalled := strings.Index(req, codexRecallAsk), strings.Index(req, recallAnswer)
	if at < 0 || recalled < at {
		t.Errorf("the archived answer is not recalled after the prompt (prompt at %d, answer at %d)", at, recalled)
	}
	if !strings.Contains(stdout, "OK.") {
		t.Fatalf("copilot printed no answer:\n%s", stdout)
	}
	if f := s.memory(t); f.Header.Sessions != 1 {
		t.Fatalf("Sessions = %d after one copilot -p, want 1\n%s", f.Header.Sessions, stdout)
	}

	// Session 2: the model records through the MCP server.
	s.API.Reset()
	stdout = s.run(t, copilotMCPAsk)
	if name := copilotToolName(s.API.MainRequests()[0], "remember"); name != "bimri-remember" {
		t.Errorf("the first request of session 2 declares bimri-hook's remember tool as %q, want bimri-remember", name)
	}
	if !strings.Contains(stdout, "Recorded.") {
		t.Errorf("the tool's answer did not reach the model:\n%s\nrequests:\n%s", stdout, s.API.Summary())
	}
	f := s.memory(t)
	text := string(memfile.Render(f))
	if !strings.Contains(text, copilotMCPText) {
		t.Errorf("the entry recorded through the MCP tool is not in bimri.md:\n%s", text)
	}
	if !strings.Contains(text, "[AGENT:copilot]") {
		t.Errorf("the MCP entry does not say Copilot recorded it:\n%s", text)
	}
	if f.Header.Sessions != 2 {
		t.Errorf("after two sessions, Sessions is %d, want 2", f.Header.Sessions)
	}

	// Session 3: the model records with the command the view teaches,
	// through Copilot's shell tool, which keeps the PATH Copilot started
	// with and gives the command COPILOT_CLI=1 (measured on 1.0.102).
	s.API.Reset()
	stdout = s.run(t, copilotShellAsk)
	text = string(memfile.Render(s.memory(t)))
	if !strings.Contains(text, copilotShellText) {
		t.Errorf("the entry recorded through the shell tool is not in bimri.md:\n%s\nrequests:\n%s", stdout, s.API.Summary())
	}
	if strings.Count(text, "[AGENT:copilot]") != 2 {
		t.Errorf("the shell entry does not say Copilot recorded it:\n%s", text)
	}
}

// TestCopilotBesideClaudeSettings: Copilot also runs the hooks of a
// repository's .claude/settings.json (1.0.102: with those alone, the
// session was counted and no memory reached the model), so in a project
// wired for Claude Code and for Copilot both routes run. Claude Code's
// answers are in hookSpecificOutput, which Copilot ignores: the memory
// reaches the model once, and the session is counted once, a resumed
// run of it (copilot --resume, the same session ID) not again.
func TestCopilotBesideClaudeSettings(t *testing.T) {
	s := newCopilotSandbox(t, copilotScript)
	s.bimri(t, "install", "--scope", "project")
	s.bimri(t, "install", "--agent", "copilot")
	const fact = "The billing service retries webhooks three times"
	s.bimri(t, "remember", fact)

	stdout := s.run(t, "Hello.")
	main := s.API.MainRequests()
	if len(main) == 0 {
		t.Fatalf("no model request\n%s", stdout)
	}
	if n := strings.Count(main[0].ConversationText(), fact); n != 1 {
		t.Errorf("the memory is in the first model request %d times, want 1:\n%.3000s", n, main[0].ConversationText())
	}
	if f := s.memory(t); f.Header.Sessions != 1 {
		t.Errorf("Sessions = %d after one copilot -p run by both routes, want 1\n%s", f.Header.Sessions, stdout)
	}
	id := regexp.MustCompile(`copilot --resume=([0-9a-f-]+)`).FindStringSubmatch(stdout)
	if id == nil {
		t.Fatalf("copilot -p named no session to resume:\n%s", stdout)
	}
	stdout = s.run(t, "Hello again.", "--resume="+id[1])
	if f := s.memory(t); f.Header.Sessions != 1 {
		t.Errorf("Sessions = %d after the session was resumed, want 1\n%s", f.Header.Sessions, stdout)
	}
}
