//go:build linux || darwin

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/internal/slowtest"
	"github.com/tidwall/gjson"
)

// claudeVersion is the Claude Code release the harness installs. It is
// pinned because hook behaviour (output caps, timeouts, stdin fields) changes
// between releases and e2e/testdata/claude-code.md records what was measured.
const claudeVersion = "2.1.337"

// defaultRunTimeout bounds one claude -p run. A normal run against the fake
// API takes about a second; the margin is for slow CI machines, and the
// bound exists so a hang fails the test instead of stalling CI.
const defaultRunTimeout = 120 * time.Second

// clientTmp is the clients' TMPDIR: one folder for the whole run, its
// path short (a client keeps sockets in it), removed at the end, so what
// the clients unpack there at every start (the native build of Claude
// Code its modules) does not pile up in the machine's temporary folder.
var clientTmp string

// TestMain makes clientTmp, and removes it and what the package-wide
// helpers built once per test binary (they cannot use t.TempDir, which
// is per test).
func TestMain(m *testing.M) {
	var err error
	if clientTmp, err = os.MkdirTemp("", "bimri-e2e-"); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
	code := m.Run()
	for _, built := range []*onceResult{&bimriBuild, &releasePlugin} {
		if built.dir != "" {
			os.RemoveAll(built.dir)
		}
	}
	os.RemoveAll(clientTmp)
	os.Exit(code)
}

// onceResult memoizes a per-test-binary setup step that may fail. Unlike
// sync.Once it remembers the error, so every later test fails with the same
// reason instead of a confusing empty path.
type onceResult struct {
	mu   sync.Mutex
	done bool
	path string
	err  error
	dir  string // a temporary folder to remove in TestMain, if any
}

var bimriBuild onceResult

// claudeCode is the npm package of the Claude Code client.
var claudeCode = npmPackage{
	Name: "@anthropic-ai/claude-code", Version: claudeVersion, Cache: "claude-code",
	Find:  findClaudeBinary,
	Check: nativeVersion(claudeVersion),
}

// installClaude returns the path of the native claude binary of Claude Code
// claudeVersion, installing it with npm into the cache folder the first
// time (installNPM).
func installClaude(t testing.TB) string {
	t.Helper()
	return installNPM(t, claudeCode)
}

// findClaudeBinary returns, relative to prefix, the native claude binary an
// npm install put there. The binary ships in a per-platform optional
// dependency (claude-code-linux-x64, -linux-arm64, -linux-x64-musl,
// -darwin-arm64, ...); its postinstall also copies it over
// bin/claude.exe of the main package, the last resort here because without
// the postinstall that file is only a stub.
func findClaudeBinary(prefix string) (string, error) {
	arch := npmArch[runtime.GOARCH]
	scope := filepath.Join(prefix, "node_modules", "@anthropic-ai")
	patterns := []string{
		filepath.Join(scope, "claude-code-"+runtime.GOOS+"-"+arch, "claude"),
		filepath.Join(scope, "claude-code-"+runtime.GOOS+"-"+arch+"-*", "claude"),
		filepath.Join(scope, "claude-code-"+runtime.GOOS+"-*", "claude"),
		filepath.Join(scope, "claude-code", "bin", "claude.exe"),
	}
	for _, p := range patterns {
		matches, _ := filepath.Glob(p)
		for _, m := range matches {
			if fi, err := os.Stat(m); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
				return filepath.Rel(prefix, m)
			}
		}
	}
	return "", fmt.Errorf("no claude binary for %s/%s under %s", runtime.GOOS, runtime.GOARCH, scope)
}

// buildBimriHook builds github.com/bimri/bimri-hook/cmd/bimri-hook once per
// test binary as make build does (the hook binary, and bimri-hook-cli and
// bimri-hook-mcp beside it),
// and returns the executable's path, so scenarios run the real binary a
// user installs rather than calling its packages in-process. Only the
// slow tests use it, so it is gated as installClaude is.
func buildBimriHook(t testing.TB) string {
	t.Helper()
	slowtest.Gate(t)
	bimriBuild.mu.Lock()
	defer bimriBuild.mu.Unlock()
	if !bimriBuild.done {
		bimriBuild.done = true
		bimriBuild.path, bimriBuild.err = func() (string, error) {
			goBin, err := exec.LookPath("go")
			if err != nil {
				return "", fmt.Errorf("go is not on PATH: %w", err)
			}
			dir, err := os.MkdirTemp("", "bimri-hook-e2e-bin-*")
			if err != nil {
				return "", err
			}
			bimriBuild.dir = dir
			const cmd = "github.com/bimri/bimri-hook/cmd/bimri-hook"
			for _, args := range [][]string{
				{"-tags", "hookonly", "-o", filepath.Join(dir, "bimri-hook"), cmd},
				{"-o", filepath.Join(dir, "bimri-hook-cli"), cmd},
				{"-o", dir + string(filepath.Separator), cmd + "-mcp"},
			} {
				if msg, err := exec.Command(goBin, append([]string{"build"}, args...)...).CombinedOutput(); err != nil {
					return "", fmt.Errorf("go build %s: %v\n%s", strings.Join(args, " "), err, msg)
				}
			}
			return filepath.Join(dir, "bimri-hook"), nil
		}()
	}
	if bimriBuild.err != nil {
		t.Fatalf("build bimri-hook: %v", bimriBuild.err)
	}
	return bimriBuild.path
}

// Sandbox is one simulated user: a throwaway HOME and a workspace that
// the user has marked trusted, talking to one fake API. Runs in the same
// Sandbox share HOME, which is where Claude Code keeps transcripts, so
// --resume works across them.
type Sandbox struct {
	Claude    string   // the claude binary
	API       *FakeAPI // where model requests go
	Home      string   // HOME for the client and its hooks
	Workspace string   // the project folder, the client's cwd
}

// newSandbox installs Claude Code if needed and makes a fresh HOME and a
// trusted, empty workspace under t.TempDir.
func newSandbox(t testing.TB, api *FakeAPI) *Sandbox {
	t.Helper()
	s := &Sandbox{
		Claude:    installClaude(t),
		API:       api,
		Home:      filepath.Join(t.TempDir(), "home"),
		Workspace: filepath.Join(t.TempDir(), "proj"),
	}
	for _, d := range []string{s.Home, s.Workspace} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatalf("create sandbox folder: %v", err)
		}
	}
	trustWorkspace(t, s.Home, s.Workspace)
	return s
}

// Options returns RunOptions for this sandbox; callers adjust fields (Env,
// Timeout, AllowFailure) before passing them to runClaude.
func (s *Sandbox) Options(prompt string, args ...string) RunOptions {
	return RunOptions{Claude: s.Claude, API: s.API, Home: s.Home, Workspace: s.Workspace, Prompt: prompt, Args: args}
}

// Run runs claude -p prompt with extra args in the sandbox and fails the
// test if it does not exit 0.
func (s *Sandbox) Run(t testing.TB, prompt string, args ...string) *RunResult {
	t.Helper()
	return runClaude(t, s.Options(prompt, args...))
}

// WriteProjectSettings writes v as the workspace's .claude/settings.json,
// where a user's project-level hooks and permissions live.
func (s *Sandbox) WriteProjectSettings(t testing.TB, v any) {
	t.Helper()
	writeJSONFile(t, filepath.Join(s.Workspace, ".claude", "settings.json"), v)
}

// TranscriptPath is where Claude Code keeps the transcript of session id
// for this workspace: ~/.claude/projects/<workspace with / and . as ->/<id>.jsonl.
func (s *Sandbox) TranscriptPath(id string) string {
	ws := s.Workspace
	if real, err := filepath.EvalSymlinks(ws); err == nil {
		ws = real
	}
	slug := strings.NewReplacer("/", "-", ".", "-").Replace(ws)
	return filepath.Join(s.Home, ".claude", "projects", slug, id+".jsonl")
}

// hookSettings builds a settings.json object whose hooks run command(event)
// for each event, the shape users put in .claude/settings.json.
func hookSettings(command func(event string) string, events ...string) map[string]any {
	hooks := map[string]any{}
	for _, ev := range events {
		hooks[ev] = []any{map[string]any{
			"matcher": "",
			"hooks":   []any{map[string]any{"type": "command", "command": command(ev)}},
		}}
	}
	return map[string]any{"hooks": hooks}
}

// writePlugin lays out a Claude Code plugin in dir for --plugin-dir: a
// manifest .claude-plugin/plugin.json and hooks/hooks.json holding hooks,
// a settings-shaped object such as hookSettings returns. Commands in it may
// use ${CLAUDE_PLUGIN_ROOT}, which the client expands to dir.
func writePlugin(t testing.TB, dir, name string, hooks map[string]any) {
	t.Helper()
	writeJSONFile(t, filepath.Join(dir, ".claude-plugin", "plugin.json"), map[string]any{
		"name": name, "version": "0.0.0", "description": "end-to-end test plugin",
	})
	writeJSONFile(t, filepath.Join(dir, "hooks", "hooks.json"), hooks)
}

// trustWorkspace records in HOME/.claude.json that the user accepted the
// workspace trust dialog. Without it the client ignores the project's
// permission rules for commands that are not read-only (measured on
// 2.1.328), which is not what a real user who trusted their project sees.
// It merges into an existing file because the client rewrites it on every
// run and a resumed session must keep what it stored there.
func trustWorkspace(t testing.TB, home, workspace string) {
	t.Helper()
	path := filepath.Join(home, ".claude.json")
	cfg := map[string]any{}
	if b, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(b, &cfg); err != nil {
			t.Fatalf("read %s: %v", path, err)
		}
	}
	// -p mode needs no onboarding flags (measured); hasCompletedOnboarding
	// is set anyway so the file looks like a real user's.
	cfg["hasCompletedOnboarding"] = true
	projects, _ := cfg["projects"].(map[string]any)
	if projects == nil {
		projects = map[string]any{}
	}
	keys := []string{workspace}
	if real, err := filepath.EvalSymlinks(workspace); err == nil && real != workspace {
		keys = append(keys, real) // macOS: /var/folders -> /private/var/folders
	}
	for _, k := range keys {
		p, _ := projects[k].(map[string]any)
		if p == nil {
			p = map[string]any{}
		}
		p["hasTrustDialogAccepted"] = true
		projects[k] = p
	}
	cfg["projects"] = projects
	writeJSONFile(t, path, cfg)
}

func writeJSONFile(t testing.TB, path string, v any) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatalf("encode %s: %v", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatalf("create folder for %s: %v", path, err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		t.Fatalf("write %s: %v", path, err)
	}
}

// RunOptions describes one claude -p invocation.
type RunOptions struct {
	Claude    string   // claude binary; empty means installClaude
	API       *FakeAPI // required: the fake API the client talks to
	Home      string   // HOME; empty means a fresh t.TempDir (no --resume possible)
	Workspace string   // required: the client's cwd and project root
	Prompt    string   // the -p prompt, e.g. "hello" or "/compact"
	Args      []string // extra flags: --resume ID, --plugin-dir DIR, --allowedTools ...
	// Env adds KEY=VALUE entries to the client's otherwise minimal
	// environment (hooks inherit it).
	Env []string
	// PathDirs are put in front of the minimal PATH, e.g. the folder
	// holding bimri-hook so hooks can call it by name.
	PathDirs []string
	// Timeout bounds the run; zero means defaultRunTimeout.
	Timeout time.Duration
	// AllowFailure keeps a non-zero exit from failing the test, for
	// scenarios that expect the client to fail.
	AllowFailure bool
}

// RunResult is what one claude -p run produced.
type RunResult struct {
	Stdout, Stderr string
	// Events are the stdout lines of --output-format stream-json, parsed.
	// Lines that are not JSON are left out (they stay in Stdout).
	Events    []gjson.Result
	ExitCode  int
	SessionID string // from the init event or the result event
	Duration  time.Duration
}

// Result returns the final "result" event, whose "result" field is the
// assistant's last text and "is_error" tells failure.
func (r *RunResult) Result() gjson.Result {
	for i := len(r.Events) - 1; i >= 0; i-- {
		if r.Events[i].Get("type").String() == "result" {
			return r.Events[i]
		}
	}
	return gjson.Result{}
}

// Find returns the events of the given type and, if subtype is not empty,
// subtype.
func (r *RunResult) Find(typ, subtype string) []gjson.Result {
	var out []gjson.Result
	for _, e := range r.Events {
		if e.Get("type").String() == typ && (subtype == "" || e.Get("subtype").String() == subtype) {
			out = append(out, e)
		}
	}
	return out
}

// Informational returns the texts the client showed the user as system
// messages, such as a hook's systemMessage, which stream-json reports as
// {"type":"system","subtype":"informational","content":"Stop says: ..."}.
func (r *RunResult) Informational() []string {
	var out []string
	for _, e := range r.Find("system", "informational") {
		out = append(out, e.Get("content").String())
	}
	return out
}

// minimalPath is the PATH the client and its hooks get: enough for sh and
// coreutils, nothing from the developer's own setup that could make a test
// pass here and fail elsewhere.
const minimalPath = "/usr/local/bin:/usr/bin:/bin"

// runClaude runs claude -p opts.Prompt --output-format stream-json
// --verbose with opts.Args in opts.Workspace, with an environment built from
// scratch (HOME, PATH, the fake API's URL and a dummy key), and waits at
// most opts.Timeout. A timeout always fails the test; a non-zero exit fails
// it unless opts.AllowFailure.
func runClaude(t testing.TB, opts RunOptions) *RunResult {
	t.Helper()
	if opts.API == nil || opts.Workspace == "" {
		t.Fatalf("runClaude: API and Workspace are required")
	}
	if opts.Claude == "" {
		opts.Claude = installClaude(t)
	}
	if opts.Home == "" {
		opts.Home = t.TempDir()
		trustWorkspace(t, opts.Home, opts.Workspace)
	}
	if opts.Timeout == 0 {
		opts.Timeout = defaultRunTimeout
	}
	args := append([]string{"-p", opts.Prompt, "--output-format", "stream-json", "--verbose"}, opts.Args...)
	ctx, cancel := context.WithTimeout(context.Background(), opts.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, opts.Claude, args...)
	cmd.Dir = opts.Workspace
	path := strings.Join(append(append([]string{}, opts.PathDirs...), minimalPath), string(os.PathListSeparator))
	cmd.Env = append([]string{
		"HOME=" + opts.Home,
		"PATH=" + path,
		"ANTHROPIC_BASE_URL=" + opts.API.URL,
		"ANTHROPIC_API_KEY=test",
		// Keeps the client from phoning home (telemetry, update checks,
		// feature flags): there is no network here, and retries against
		// unreachable hosts would only slow each run.
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"TMPDIR=" + clientTmp,
		"LANG=C.UTF-8",
	}, opts.Env...)
	// Own process group, killed as a whole on timeout: hooks and Bash tool
	// commands are grandchildren that would otherwise outlive the client and
	// keep its output pipes open.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr

	start := time.Now()
	err := cmd.Run()
	res := &RunResult{Stdout: stdout.String(), Stderr: stderr.String(), Duration: time.Since(start), ExitCode: -1}
	if cmd.ProcessState != nil {
		res.ExitCode = cmd.ProcessState.ExitCode()
	}
	for _, line := range strings.Split(res.Stdout, "\n") {
		if line = strings.TrimSpace(line); line != "" && gjson.Valid(line) {
			ev := gjson.Parse(line)
			res.Events = append(res.Events, ev)
			if id := ev.Get("session_id").String(); id != "" && res.SessionID == "" {
				res.SessionID = id
			}
		}
	}
	if ctx.Err() != nil {
		t.Fatalf("claude %s: no exit within %v (killed)\n%s", quoteArgs(args), opts.Timeout, res.debug(opts.API))
	}
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		t.Fatalf("claude %s: %v", quoteArgs(args), err)
	}
	if res.ExitCode != 0 && !opts.AllowFailure {
		t.Fatalf("claude %s: exit code %d\n%s", quoteArgs(args), res.ExitCode, res.debug(opts.API))
	}
	return res
}

// debug renders what a failure message needs: stderr, the tail of stdout
// and the requests the fake API saw.
func (r *RunResult) debug(api *FakeAPI) string {
	out := r.Stdout
	if len(out) > 4000 {
		out = "..." + out[len(out)-4000:]
	}
	return fmt.Sprintf("stderr:\n%s\nstdout (tail):\n%s\nrequests:\n%s", r.Stderr, out, api.Summary())
}

func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = fmt.Sprintf("%q", a)
	}
	return strings.Join(q, " ")
}
