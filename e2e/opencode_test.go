//go:build linux || darwin

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
)

// openCodeVersion is the OpenCode release the OpenCode tests install, the
// newest npm served when they were written; docs/agents.md records what
// was measured on it.
const openCodeVersion = "1.18.33"

// openCodeCLI is the npm package of OpenCode. Its native binary ships in
// a per-platform optional dependency (opencode-linux-x64, ...).
var openCodeCLI = npmPackage{
	Name: "opencode-ai", Version: openCodeVersion, Cache: "opencode",
	Find: func(prefix string) (string, error) {
		arch := npmArch[runtime.GOARCH]
		rel := filepath.Join("node_modules", "opencode-"+runtime.GOOS+"-"+arch, "bin", "opencode")
		if _, err := os.Stat(filepath.Join(prefix, rel)); err != nil {
			return "", fmt.Errorf("no opencode binary: %w", err)
		}
		return rel, nil
	},
	Check: nativeVersion(openCodeVersion),
}

// OpenCodeSandbox is one OpenCode user: a throwaway HOME whose
// ~/.config/opencode/opencode.json declares a provider on the Anthropic
// Messages API with its baseURL on the fake API, and a git repository
// with bimri-hook installed for OpenCode as the README says.
type OpenCodeSandbox struct {
	OpenCode  string
	Bin       string // bimri-hook
	API       *FakeAPI
	Home      string
	Workspace string
}

func newOpenCodeSandbox(t *testing.T, script Script) *OpenCodeSandbox {
	t.Helper()
	s := &OpenCodeSandbox{
		OpenCode:  installNPM(t, openCodeCLI),
		Bin:       buildBimriHook(t),
		API:       newFakeAPI(t, script),
		Home:      filepath.Join(t.TempDir(), "home"),
		Workspace: filepath.Join(t.TempDir(), "proj"),
	}
	for _, d := range []string{filepath.Join(s.Home, ".config", "opencode"), s.Workspace} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("git", "init", "-q", s.Workspace).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	// The user's provider: OpenCode's bundled Anthropic SDK, its baseURL
	// on the fake API, one model; no update check, no sharing.
	writeJSONFile(t, filepath.Join(s.Home, ".config", "opencode", "opencode.json"), map[string]any{
		"$schema":    "https://opencode.ai/config.json",
		"autoupdate": false,
		"share":      "disabled",
		"model":      "fake/m1",
		"provider": map[string]any{"fake": map[string]any{
			"npm":     "@ai-sdk/anthropic",
			"name":    "Fake",
			"options": map[string]any{"baseURL": s.API.URL + "/v1", "apiKey": "fake-key"},
			"models":  map[string]any{"m1": map[string]any{"name": "M1", "tool_call": true}},
		}},
	})
	return s
}

// env is the environment of OpenCode and of bimri-hook run by the test:
// minimal, with bimri-hook on PATH, no models.dev fetch, no default
// plugins from npm, and npm's registry on the fake API, where OpenCode's
// install of @opencode-ai/plugin into each config folder fails at once
// (a warning in its log) instead of reaching the network. The workspace
// is found no higher than the sandbox's folder.
func (s *OpenCodeSandbox) env() []string {
	return []string{"HOME=" + s.Home, "PATH=" + filepath.Dir(s.Bin) + ":" + minimalPath,
		"LANG=C.UTF-8", "TMPDIR=" + clientTmp, "GIT_CEILING_DIRECTORIES=" + filepath.Dir(s.Workspace),
		"OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_DEFAULT_PLUGINS=1",
		"OPENCODE_DISABLE_LSP_DOWNLOAD=1", "OPENCODE_DISABLE_SHARE=1",
		"npm_config_registry=" + s.API.URL + "/npm/", "npm_config_fetch_retries=0"}
}

// bimri runs bimri-hook in the workspace and returns its output.
func (s *OpenCodeSandbox) bimri(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(s.Bin, args...)
	cmd.Dir, cmd.Env = s.Workspace, s.env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bimri-hook %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// run runs `opencode run ARGS` in the workspace, as a script would: it
// must exit by itself once the answer is printed.
func (s *OpenCodeSandbox) run(t *testing.T, args ...string) string {
	t.Helper()
	// OpenCode takes tens of seconds to start (its config folders, its
	// own plugin install, its database), minutes on a busy machine.
	ctx, cancel := context.WithTimeout(context.Background(), 3*defaultRunTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.OpenCode, append([]string{"run"}, args...)...)
	cmd.Dir, cmd.Env = s.Workspace, s.env()
	cmd.Stdin = bytes.NewReader(nil)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("opencode run %q: %v\n%s\nrequests:\n%s", args, err, out, s.API.Summary())
	}
	return string(out)
}

func (s *OpenCodeSandbox) memory(t *testing.T) *memfile.File {
	t.Helper()
	f, _ := readMemory(t, s.Workspace)
	return f
}

// The words of the OpenCode scenario's prompts and entries.
const (
	openCodeSeeded    = "Chose SQLite for the ledger, one file per tenant."
	openCodeShellText = "OpenCode switched the ledger to WAL mode, through the shell tool."
	openCodeMCPText   = "OpenCode made the ledger's backups hourly, through the MCP tool."
	openCodeRecordAsk = "Please record the WAL and backup decisions in memory."
	openCodeNotes     = "Team notes: the ledger service deploys on Tuesdays."
)

// openCodeScript is the fake model of the OpenCode scenario: asked to
// record, it runs bimri-hook remember through OpenCode's bash tool, then
// calls the remember tool of the MCP server install registered, by the
// name OpenCode declared it under; then it answers with text.
func openCodeScript(r Recorded) Reply {
	if !r.IsMain() {
		return Reply{}
	}
	msgs := r.Messages()
	var asked bool
	done := map[string]bool{}
	for _, m := range msgs {
		for _, b := range m.Blocks {
			switch {
			case b.Type == "text" && m.Role == "user" && strings.Contains(b.Text, openCodeRecordAsk):
				asked = true
			case b.Type == "tool_result":
				done[b.ToolUseID] = true
			}
		}
	}
	switch {
	case !asked:
		return TextReply("OK.")
	case !done["toolu_shell"]:
		return Reply{ToolUse: &ToolUse{ID: "toolu_shell", Name: "bash", Input: map[string]any{
			"command":     "bimri-hook remember --importance 4 --tags ledger " + shellQuoteTest(openCodeShellText),
			"description": "Record the WAL decision"}}}
	case !done["toolu_mcp"]:
		return Reply{ToolUse: &ToolUse{ID: "toolu_mcp", Name: openCodeToolName(r, "remember"),
			Input: map[string]any{"text": openCodeMCPText, "importance": 4, "tags": []string{"ledger"}}}}
	}
	return TextReply("Recorded.")
}

// openCodeToolName is the name a request declares an MCP tool of
// bimri-hook's under, "" when it declares none.
func openCodeToolName(r Recorded, tool string) string {
	for _, name := range r.Get("tools.#.name").Array() {
		if strings.HasSuffix(name.Str, "_"+tool) && strings.HasPrefix(name.Str, "bimri") {
			return name.Str
		}
	}
	return ""
}

// TestOpenCodeEndToEnd: the real OpenCode, wired by install --agent
// opencode and run as `opencode run`, sends the memory in its first model
// request, a prompt naming an archived entry's words brings it back,
// entries recorded through its bash tool and through the MCP server land
// in bimri.md saying OpenCode recorded them, and each session is counted
// once, a continued one included.
func TestOpenCodeEndToEnd(t *testing.T) {
	s := newOpenCodeSandbox(t, openCodeScript)
	// The user's own config, in OpenCode's other name, with a comment, a
	// trailing comma and an "mcp" of its own: install writes opencode.json
	// beside it, and OpenCode merges the two (both must reach the run).
	jsonc := filepath.Join(s.Workspace, "opencode.jsonc")
	const userConfig = `{
  // the team's notes
  "instructions": ["NOTES.md"],
  "mcp": {"other": {"type": "local", "command": ["false"], "enabled": false}},
}
`
	for name, text := range map[string]string{jsonc: userConfig, filepath.Join(s.Workspace, "NOTES.md"): openCodeNotes + "\n"} {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out := s.bimri(t, "install", "--agent", "opencode"); !strings.Contains(out, "OpenCode: wired") {
		t.Fatalf("install --agent opencode:\n%s", out)
	}
	if data, _ := os.ReadFile(jsonc); string(data) != userConfig {
		t.Errorf("install changed opencode.jsonc:\n%s", data)
	}
	s.bimri(t, "remember", "--importance", "4", "--tags", "ledger", openCodeSeeded)
	writeRecallArchive(t, s.Workspace)

	// Session 1: the memory in the first request, the archived answer
	// recalled in the main one.
	out := s.run(t, codexRecallAsk)
	reqs := s.API.MessagesRequests()
	if len(reqs) == 0 {
		t.Fatalf("no model request\n%s", out)
	}
	if !strings.Contains(reqs[0].Text(), openCodeSeeded) {
		t.Errorf("the first model request lacks the memory:\n%.3000s", reqs[0].Text())
	}
	main := s.API.MainRequests()
	if len(main) == 0 || !strings.Contains(main[0].Text(), recallAnswer) {
		t.Errorf("the archived answer is not recalled in the main request\n%s", s.API.Summary())
	}
	if !strings.Contains(main[0].Text(), openCodeNotes) {
		t.Errorf("the instructions of the user's opencode.jsonc are not in the main request")
	}
	if name := openCodeToolName(main[0], "remember"); name == "" {
		t.Errorf("the main request declares no remember tool of bimri-hook's: %s", main[0].Get("tools.#.name"))
	}
	if got := s.memory(t).Header.Sessions; got != 1 {
		t.Errorf("after one opencode run, Sessions is %d, want 1\n%s", got, out)
	}

	// Session 2: the model records through the bash tool and the MCP tool.
	s.API.Reset()
	out = s.run(t, openCodeRecordAsk)
	for _, id := range []string{"toolu_shell", "toolu_mcp"} {
		if b, ok := lastMain(s.API).ToolResult(id); !ok || !strings.Contains(b.Text, "recorded ") {
			t.Errorf("%s did not come back recorded: %q\n%s", id, b.Text, s.API.Summary())
		}
	}
	f := s.memory(t)
	for _, text := range []string{openCodeShellText, openCodeMCPText} {
		e, ok := findEntry(f, text)
		switch {
		case !ok:
			t.Errorf("%q is not in bimri.md:\n%s\n%s", text, memfile.Render(f), out)
		case e.Agent != "opencode":
			t.Errorf("%q does not say OpenCode recorded it: agent %q", text, e.Agent)
		}
	}
	if f.Header.Sessions != 2 {
		t.Errorf("after two sessions, Sessions is %d, want 2", f.Header.Sessions)
	}

	// The second session continued: not counted again.
	s.run(t, "--continue", "Thanks.")
	if got := s.memory(t).Header.Sessions; got != 2 {
		t.Errorf("a continued session was counted again: Sessions is %d, want 2", got)
	}
}

// lastMain is the last main-conversation request api received.
func lastMain(api *FakeAPI) Recorded {
	main := api.MainRequests()
	if len(main) == 0 {
		return Recorded{}
	}
	return main[len(main)-1]
}

// findEntry is the entry of f whose text is text.
func findEntry(f *memfile.File, text string) (*memfile.Entry, bool) {
	for tier := 1; tier <= 3; tier++ {
		for _, e := range f.Entries(tier) {
			if e.Text == text {
				return e, true
			}
		}
	}
	return nil, false
}
