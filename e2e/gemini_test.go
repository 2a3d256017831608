//go:build linux || darwin

package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
)

// geminiVersion is the Gemini CLI release the Gemini tests install, the
// newest npm served when they were written; docs/agents.md records what
// was measured on it.
const geminiVersion = "0.61.0"

// geminiCLI is the npm package of the Gemini CLI, a Node.js script.
var geminiCLI = nodeCLI("@google/gemini-cli", geminiVersion, "gemini-cli", "gemini")

// GeminiSandbox is one Gemini user: a throwaway HOME whose
// ~/.gemini/settings.json picks API-key auth, with GOOGLE_GEMINI_BASE_URL
// sending the model's requests to a fake Gemini API, and a git repository
// the user trusts in Gemini's folder-trust dialog, with bimri-hook
// installed for Gemini as the README says.
type GeminiSandbox struct {
	Gemini    string
	Bin       string // bimri-hook
	API       *FakeGemini
	Home      string
	Workspace string
}

func newGeminiSandbox(t *testing.T, script func(Recorded) Reply) *GeminiSandbox {
	t.Helper()
	s := &GeminiSandbox{
		Gemini:    installNPM(t, geminiCLI),
		Bin:       buildBimriHook(t),
		API:       newFakeGemini(t, script),
		Home:      filepath.Join(t.TempDir(), "home"),
		Workspace: filepath.Join(t.TempDir(), "proj"),
	}
	for _, d := range []string{filepath.Join(s.Home, ".gemini"), s.Workspace} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("git", "init", "-q", s.Workspace).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	// What Gemini's first run records: API-key auth, no usage statistics
	// sent, no update check; and the trust of the project's folder,
	// without which Gemini reads no .gemini/ in it.
	writeJSONFile(t, filepath.Join(s.Home, ".gemini", "settings.json"), map[string]any{
		"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
		"privacy":  map[string]any{"usageStatisticsEnabled": false},
		"general":  map[string]any{"disableAutoUpdate": true, "disableUpdateNag": true},
	})
	writeJSONFile(t, filepath.Join(s.Home, ".gemini", "trustedFolders.json"), map[string]any{s.Workspace: "TRUST_FOLDER"})
	return s
}

// env is the environment of Gemini and of bimri-hook run by the test:
// minimal, with bimri-hook and node on PATH. The workspace is found no
// higher than the sandbox's folder.
func (s *GeminiSandbox) env() []string {
	path := filepath.Dir(s.Bin) + ":" + minimalPath
	if node, err := exec.LookPath("node"); err == nil {
		path += ":" + filepath.Dir(node)
	}
	return []string{"HOME=" + s.Home, "PATH=" + path, "LANG=C.UTF-8", "TMPDIR=" + clientTmp,
		"GIT_CEILING_DIRECTORIES=" + filepath.Dir(s.Workspace),
		"GEMINI_API_KEY=fake-key", "GOOGLE_GEMINI_BASE_URL=" + s.API.URL, "NO_BROWSER=true"}
}

// bimri runs bimri-hook in the workspace and returns its output.
func (s *GeminiSandbox) bimri(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(s.Bin, args...)
	cmd.Dir, cmd.Env = s.Workspace, s.env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bimri-hook %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// run runs `gemini -p prompt` in the workspace, as a script would.
func (s *GeminiSandbox) run(t *testing.T, prompt string, args ...string) (stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := nodeCommand(ctx, s.Gemini, append([]string{"-m", "gemini-2.5-flash", "-p", prompt}, args...)...)
	cmd.Dir, cmd.Env = s.Workspace, s.env()
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("gemini -p: %v\nstdout:\n%s\nstderr:\n%s\nrequests:\n%s", err, out.String(), errb.String(), s.API.Summary())
	}
	return out.String(), errb.String()
}

func (s *GeminiSandbox) memory(t *testing.T) *memfile.File {
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

// The words of the Gemini scenario's prompts and entries.
const (
	geminiMCPText   = "Gemini made the ledger's backups hourly, through the MCP tool."
	geminiMCPAsk    = "Please record the backup decision with the memory tool."
	geminiShellText = "Gemini moved the ledger's reports to Mondays, through the shell tool."
	geminiShellAsk  = "Please record the reports decision with bimri-hook remember."
)

// geminiScript is the fake model of the Gemini scenario: asked to record,
// it calls the remember tool of the MCP server install registered, by the
// name Gemini declared it under, or runs bimri-hook remember through
// Gemini's shell tool; the tool's answer back, or any other prompt, it
// answers with text.
func geminiScript(r Recorded) Reply {
	contents := r.Get("contents").Array()
	if len(contents) == 0 {
		return Reply{}
	}
	last := contents[len(contents)-1]
	if last.Get("parts.0.functionResponse").Exists() {
		return TextReply("Recorded.")
	}
	if strings.Contains(last.Get("parts.#.text").String(), geminiShellAsk) {
		return Reply{ToolUse: &ToolUse{Name: "run_shell_command", Input: map[string]any{
			"command": "bimri-hook remember --importance 4 --tags ledger " + shellQuoteTest(geminiShellText)}}}
	}
	if strings.Contains(last.Get("parts.#.text").String(), geminiMCPAsk) {
		return Reply{ToolUse: &ToolUse{Name: geminiToolName(r, "remember"),
			Input: map[string]any{"text": geminiMCPText, "importance": 4, "tags": []string{"ledger"}}}}
	}
	return TextReply("OK.")
}

// geminiToolName is the name a request declares an MCP tool of
// bimri-hook's under, "" when it declares none.
func geminiToolName(r Recorded, tool string) string {
	for _, decl := range r.Get("tools.#.functionDeclarations|@flatten").Array() {
		if name := decl.Get("name").Str; strings.HasSuffix(name, tool) && strings.Contains(name, "bimri") {
			return name
		}
	}
	return ""
}

// TestGeminiEndToEnd: the real Gemini CLI, wired by install --agent
// gemini, sends the memory in its first model request, a prompt naming
// an archived entry's words brings it back, an entry recorded through
// the MCP server install registered lands in bimri.md, and each session
// is counted once.
func TestGeminiEndToEnd(t *testing.T) {
	s := newGeminiSandbox(t, geminiScript)
	out := s.bimri(t, "install", "--agent", "gemini")
	if !strings.Contains(out, "Gemini: wired") {
		t.Fatalf("install --agent gemini:\n%s", out)
	}
	const fact = "The staging database is restored nightly from the prod snapshot"
	s.bimri(t, "remember", fact)
	writeRecallArchive(t, s.Workspace)

	stdout, stderr := s.run(t, codexRecallAsk)
	turns := s.API.Turns()
	if len(turns) == 0 {
		t.Fatalf("no model request\nstdout:\n%s\nstderr:\n%s\nrequests:\n%s", stdout, stderr, s.API.Summary())
	}
	if first := geminiText(turns[0]); !strings.Contains(first, fact) {
		t.Fatalf("the memory is not in the first model request:\n%.3000s\nstderr:\n%s", first, stderr)
	}
	req := geminiText(turns[0])
	at, recalled := strings.LastIndex(req, codexRecallAsk), strings.Index(req, recallAnswer)
	if at < 0 || recalled < at {
		t.Errorf("the archived answer is not recalled after the prompt (prompt at %d, answer at %d)", at, recalled)
	}
	if !strings.Contains(stdout, "OK.") {
		t.Fatalf("gemini printed no answer:\n%s\nstderr:\n%s", stdout, stderr)
	}
	f := s.memory(t)
	if f.Header.Sessions != 1 {
		t.Fatalf("Sessions = %d after one gemini -p, want 1\nstderr:\n%s", f.Header.Sessions, stderr)
	}

	// Session 2: the model records through the MCP server, in a plain
	// gemini -p: install marks the server trusted, without which Gemini's
	// headless mode declares none of its tools (measured on 0.61.0).
	s.API.Reset()
	stdout, stderr = s.run(t, geminiMCPAsk)
	last := s.API.Turns()
	if name := geminiToolName(last[0], "remember"); name != "mcp_bimri_remember" {
		t.Errorf("the first request of session 2 declares bimri-hook's remember tool as %q, want mcp_bimri_remember\nstderr:\n%s", name, stderr)
	}
	if !strings.Contains(stdout, "Recorded.") {
		t.Errorf("the tool's answer did not reach the model:\n%s\nstderr:\n%s\nrequests:\n%s", stdout, stderr, s.API.Summary())
	}
	f = s.memory(t)
	if !strings.Contains(string(memfile.Render(f)), geminiMCPText) {
		t.Errorf("the entry recorded through the MCP tool is not in bimri.md")
	}
	if !strings.Contains(string(memfile.Render(f)), "[AGENT:gemini]") {
		t.Errorf("the MCP entry does not say Gemini recorded it:\n%s", memfile.Render(f))
	}
	if f.Header.Sessions != 2 {
		t.Errorf("after two sessions, Sessions is %d, want 2", f.Header.Sessions)
	}

	// Session 3: the model records through Gemini's shell tool, which a
	// gemini -p runs only when the user allows the command.
	s.API.Reset()
	stdout, stderr = s.run(t, geminiShellAsk, "--allowed-tools", "run_shell_command(bimri-hook remember)")
	if !strings.Contains(stdout, "Recorded.") {
		t.Errorf("the shell tool's answer did not reach the model:\n%s\nstderr:\n%s\nrequests:\n%s", stdout, stderr, s.API.Summary())
	}
	f = s.memory(t)
	switch e, ok := findEntry(f, geminiShellText); {
	case !ok:
		t.Errorf("the entry recorded through the shell tool is not in bimri.md:\n%s", memfile.Render(f))
	case e.Agent != "gemini":
		t.Errorf("the shell tool's entry does not say Gemini recorded it: agent %q", e.Agent)
	}
	if f.Header.Sessions != 3 {
		t.Errorf("after three sessions, Sessions is %d, want 3", f.Header.Sessions)
	}
}
