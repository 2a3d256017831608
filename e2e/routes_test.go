//go:build linux || darwin

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/wiring"
	"github.com/matryer/is"
	"github.com/tidwall/gjson"
)

// The install routes of the README, each with the real client: the
// command the hook gives the agent and the permission rule the route
// writes agree, so the agent records without asking; where the client
// denies the call anyway, the session still leaves an entry and the user
// is told the rule to add. (The plugin route is TestScenario5Plugin.)

// untrustWorkspace marks the workspace as one whose trust dialog the user
// has not accepted: the client then ignores the project's permission rules
// for commands that are not read-only.
func untrustWorkspace(t *testing.T, s *Sandbox) {
	t.Helper()
	path := filepath.Join(s.Home, ".claude.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg := map[string]any{}
	if err := json.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	for _, p := range cfg["projects"].(map[string]any) {
		p.(map[string]any)["hasTrustDialogAccepted"] = false
	}
	writeJSONFile(t, path, cfg)
}

// TestRouteExampleByHand (Done when b): examples/settings.json copied by
// hand into a trusted workspace, with bimri-hook on PATH. The hook was run
// by its bare name from PATH, so it gives the agent `bimri-hook remember`,
// which the example's rule Bash(bimri-hook remember:*) allows.
func TestRouteExampleByHand(t *testing.T) {
	t.Parallel() // independent sandboxes; the package runs long
	is := is.New(t)
	bin := buildBimriHook(t)
	n := note{Importance: 3, Tags: "setup", Text: "Copied the example settings by hand and recorded through them."}
	record := recordingModel(t, "NOTES.md", n)
	var s *Sandbox
	api := newFakeAPI(t, func(r Recorded) Reply { return record(s, r) })
	s = newSandbox(t, api)
	example, err := os.ReadFile(filepath.Join(repoRoot(t), "examples", "settings.json"))
	is.NoErr(err)
	is.NoErr(os.MkdirAll(filepath.Join(s.Workspace, ".claude"), 0o755))
	is.NoErr(os.WriteFile(settingsPath(s.Workspace), example, 0o644))
	seedMemory(t, s.Workspace, 1)

	opts := s.Options("Please write NOTES.md", "--allowedTools", "Write")
	opts.Env = append(opts.Env, "BIMRI_TODAY="+scenarioToday)
	opts.PathDirs = []string{filepath.Dir(bin)}
	run := runClaude(t, opts)
	checkRecordedSession(t, run, api.MainRequests(), s.Workspace, wiring.Command{Binary: wiring.Name}.Remember(), n, 1)
}

// TestRouteInstallProjectFromPath: `bimri-hook install` at project scope,
// run as bimri-hook from PATH, writes the bare name into the shared
// settings, hook and rule alike, and the agent records with it.
func TestRouteInstallProjectFromPath(t *testing.T) {
	t.Parallel() // independent sandboxes; the package runs long
	is := is.New(t)
	bin := buildBimriHook(t)
	n := note{Importance: 3, Tags: "setup", Text: "Installed at project scope with the bare name and recorded."}
	record := recordingModel(t, "NOTES.md", n)
	var s *Sandbox
	api := newFakeAPI(t, func(r Recorded) Reply { return record(s, r) })
	s = newSandbox(t, api)
	out := runInstall(t, s, filepath.Dir(bin), "install", "--scope", "project")
	settings, err := os.ReadFile(settingsPath(s.Workspace))
	is.NoErr(err)
	bare := wiring.Command{Binary: wiring.Name}
	is.Equal(gjson.GetBytes(settings, "hooks.Stop.0.hooks.0.command").String(), bare.Hook())
	for i, rule := range bare.Rules() { // one rule per command the hooks teach
		is.Equal(gjson.GetBytes(settings, fmt.Sprintf("permissions.allow.%d", i)).String(), rule)
	}
	is.True(!strings.Contains(string(settings), filepath.Dir(bin))) // no machine path in the shared file
	is.True(!strings.Contains(out, "--scope local"))
	seedMemory(t, s.Workspace, 1)

	opts := s.Options("Please write NOTES.md", "--allowedTools", "Write")
	opts.Env = append(opts.Env, "BIMRI_TODAY="+scenarioToday)
	opts.PathDirs = []string{filepath.Dir(bin)}
	run := runClaude(t, opts)
	checkRecordedSession(t, run, api.MainRequests(), s.Workspace, bare.Remember(), n, 1)
}

// runInstall runs bimri-hook by its bare name from pathDir, as a user
// whose PATH holds it, in the sandbox's workspace, and returns its output.
func runInstall(t *testing.T, s *Sandbox, pathDir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(filepath.Join(pathDir, wiring.Name), args...)
	cmd.Args[0] = wiring.Name // as the shell starts it from PATH
	cmd.Dir = s.Workspace
	cmd.Env = []string{"HOME=" + s.Home, "LANG=C.UTF-8", "PATH=" + pathDir + string(os.PathListSeparator) + minimalPath}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bimri-hook %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestRouteDeniedUntrusted (Done when a): installed at project scope in a
// workspace the user has not trusted, so the client denies the agent's
// remember. The entry the agent meant is still recorded, marked as
// recorded after a denial, and the user is told how to let it record.
func TestRouteDeniedUntrusted(t *testing.T) {
	t.Parallel() // independent sandboxes; the package runs long
	is := is.New(t)
	n := note{Importance: 3, Tags: "setup", Text: "This record is denied by the client."}
	record := recordingModel(t, "NOTES.md", n)
	recording := true
	var s *Sandbox
	api := newFakeAPI(t, func(r Recorded) Reply {
		if !recording {
			return Reply{}
		}
		return record(s, r)
	})
	s = newSandbox(t, api)
	bin := buildBimriHook(t)
	installProject(t, s, bin)
	untrustWorkspace(t, s)
	seedMemory(t, s.Workspace, 1)

	opts := s.Options("Please write NOTES.md", "--allowedTools", "Write")
	opts.Env = append(opts.Env, "BIMRI_TODAY="+scenarioToday)
	first := runClaude(t, opts)
	_, res, ok := rememberCallRun(api.MainRequests())
	if !ok {
		t.Fatalf("the model never ran remember:\n%s", api.Summary())
	}
	t.Logf("measured: the denied remember's result: is_error=%v %q; permission_denials=%s",
		res.IsError, res.Text, first.Result().Get("permission_denials").Raw)
	is.True(res.IsError) // denied: the workspace is not trusted
	is.True(len(first.Result().Get("permission_denials").Array()) > 0)

	// The entry the agent meant is kept as it asked (importance, tags,
	// text), marked as recorded after a denial; no automatic summary
	// stands in for it.
	f, raw := readMemory(t, s.Workspace)
	meant := entriesWith(f, n.Text)
	if len(meant) != 1 || meant[0].Importance != n.Importance || !slices.Contains(meant[0].Tags, "setup") ||
		!slices.Contains(meant[0].Tags, memfile.DeniedTag) {
		t.Fatalf("want the denied entry kept at importance %d, tagged setup and %s:\n%s", n.Importance, memfile.DeniedTag, raw)
	}
	is.Equal(len(taggedEntries(f, "auto")), 0)

	// The user is told, at the Stop after the denial or, when its result
	// reached the transcript too late for that Stop, at the next session.
	recording = false
	api.Reset()
	second := runClaude(t, s.Options("hello"))
	told := ""
	for _, run := range []*RunResult{first, second} {
		for _, e := range run.Events {
			if strings.Contains(e.Raw, "denied the agent") {
				told = e.Raw
			}
		}
	}
	t.Logf("the user was told: %s", told)
	if told == "" {
		t.Fatalf("the user was never told that recording was denied; system messages %q then %q", first.Informational(), second.Informational())
	}
	// One piece of advice, the one install and doctor give.
	is.True(strings.Contains(told, "install --scope user"))
	is.True(strings.Contains(told, memfile.DeniedTag))
}
