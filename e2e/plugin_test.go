//go:build linux || darwin

package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/internal/slowtest"
	"github.com/bimri/bimri-hook/wiring"
	"github.com/matryer/is"
)

// releasePlugin is dist/plugin as `make plugin` writes it, built once per
// test binary into a temporary folder: what a user adds with
// `/plugin marketplace add`.
var releasePlugin onceResult

func buildReleasePlugin(t *testing.T) string {
	t.Helper()
	slowtest.Gate(t)
	releasePlugin.mu.Lock()
	defer releasePlugin.mu.Unlock()
	if !releasePlugin.done {
		releasePlugin.done = true
		releasePlugin.path, releasePlugin.err = func() (string, error) {
			root := repoRoot(t)
			version, err := os.ReadFile(filepath.Join(root, "VERSION"))
			if err != nil {
				return "", err
			}
			dist, err := os.MkdirTemp("", "bimri-hook-e2e-dist-*")
			if err != nil {
				return "", err
			}
			releasePlugin.dir = dist
			start := time.Now()
			cmd := exec.Command("go", "run", "./scripts/release", "-version", strings.TrimSpace(string(version)), "-dist", dist, "-plugin")
			cmd.Dir = root
			if out, err := cmd.CombinedOutput(); err != nil {
				return "", fmt.Errorf("make plugin: %v\n%s", err, out)
			}
			t.Logf("make plugin: %v", time.Since(start).Round(time.Millisecond))
			return filepath.Join(dist, "plugin"), nil
		}()
	}
	if releasePlugin.err != nil {
		t.Fatalf("build the plugin: %v", releasePlugin.err)
	}
	return releasePlugin.path
}

// claudeCLI runs a claude subcommand (plugin validate, marketplace add,
// install) as the user of sandbox s, with PATH holding no Go.
func claudeCLI(t *testing.T, s *Sandbox, args ...string) string {
	t.Helper()
	cmd := exec.Command(s.Claude, args...)
	cmd.Dir = s.Workspace
	cmd.Env = []string{"HOME=" + s.Home, "PATH=" + minimalPath, "LANG=C.UTF-8", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "TMPDIR=" + clientTmp}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("claude %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// pluginPath is where the release's plugin keeps a program for a
// platform: bin/<program>.exe for windows-amd64, which Windows runs for
// the hooks' and the MCP server's command bin/bimri-hook; else
// libexec/<program>-<platform>, where the dispatcher bin/bimri-hook finds
// the hook binary.
func pluginPath(program, platform string) string {
	if platform == "windows-amd64" {
		return "bin/" + program + ".exe"
	}
	if strings.HasPrefix(platform, "windows-") {
		return "libexec/" + program + "-" + platform + ".exe"
	}
	return "libexec/" + program + "-" + platform
}

// TestPluginValidates: `claude plugin validate` accepts the release's
// plugin folder, which holds, executable and built for their platform,
// the hook binary, the command line, the MCP server and the terminal UI
// of each of the six platforms, each companion where bimri-hook finds it:
// beside it, named as it is with -cli, -mcp or -browse after bimri-hook. This machine's
// dispatcher reaches both.
func TestPluginValidates(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	plugin := buildReleasePlugin(t)
	s := newSandbox(t, newFakeAPI(t, nil))
	out := claudeCLI(t, s, "plugin", "validate", plugin)
	t.Logf("claude plugin validate:\n%s", out)
	is.True(strings.Contains(out, "Validation passed"))
	info, err := os.Stat(filepath.Join(plugin, "bin", "bimri-hook"))
	is.NoErr(err)
	is.Equal(info.Mode().Perm(), os.FileMode(0o755)) // the dispatcher
	var size int64
	for _, platform := range releasePlatforms {
		hook := pluginPath("bimri-hook", platform)
		for _, prog := range releasePrograms {
			name := pluginPath(prog, platform)
			// findMCPBinary's and findBrowse's rule (cmd/bimri-hook companion).
			is.Equal(name, filepath.Dir(hook)+"/"+prog+strings.TrimPrefix(filepath.Base(hook), "bimri-hook"))
			b, err := os.ReadFile(filepath.Join(plugin, name))
			is.NoErr(err)
			got, err := executablePlatform(b)
			is.NoErr(err)
			is.Equal(got, platform)
			info, err := os.Stat(filepath.Join(plugin, name))
			is.NoErr(err)
			is.Equal(info.Mode().Perm(), os.FileMode(0o755))
			size += info.Size()
		}
	}
	t.Logf("the plugin's programs: %.1f MB for six platforms", float64(size)/1e6)
	reachesCompanions(t, filepath.Join(plugin, "bin", "bimri-hook"), s.Workspace)
}

// TestScenario5Plugin: the release's plugin added and installed as a user
// does (`claude plugin marketplace add DIR`, `claude plugin install
// bimri-hook@bimri`), with no Go on PATH and no settings written by hand,
// in -p mode. The first session's first request holds the memory; the
// hooks name the plugin's MCP tools, and the agent records with the
// remember tool (loaded with ToolSearch, as the client defers MCP tools;
// the names are measured by TestMeasureMCPTools):
// the text, which a shell would have changed, lands in bimri.md as sent,
// and the plugin's PreToolUse hook approves the call (no rule allows it:
// -p mode would deny it otherwise). The user is told "BIMRI updated". In a
// trusted workspace and in one the user has not trusted, where a project
// rule would not count. Then the plugin without its server's program: the
// hooks teach the shell command, which the same hook approves.
func TestScenario5Plugin(t *testing.T) {
	for _, c := range []struct {
		name            string
		trusted, server bool
	}{
		{"mcp/trusted", true, true},
		{"mcp/untrusted", false, true},
		{"command/untrusted", false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			plugin := buildReleasePlugin(t)
			n := note{Importance: 3, Tags: "plugin,setup", Text: "Installed the bimri-hook plugin and recorded through it."}
			remember := wiring.Command{Binary: wiring.Name}.Remember()
			if c.server {
				n.Text = trickyText
				remember = wiring.MCPToolName(wiring.MCPServer, "remember")
			} else {
				plugin = withoutMCPServer(t, plugin)
				// Taught by its absolute path, never the bare name a
				// relative PATH entry could find in the workspace.
				remember = wiring.Command{Binary: filepath.Join(plugin, "bin", wiring.Name)}.Remember()
			}
			record := recordingModel(t, "PLUGIN.md", n)
			var s *Sandbox
			api := newFakeAPI(t, func(r Recorded) Reply { return record(s, r) })
			s = newSandbox(t, api)
			if !c.trusted {
				untrustWorkspace(t, s)
			}
			if _, err := lookPathIn("go", minimalPath); err == nil {
				t.Fatalf("go is on the sandbox's PATH %s", minimalPath)
			}
			t.Logf("marketplace add: %s", claudeCLI(t, s, "plugin", "marketplace", "add", plugin))
			t.Logf("install: %s", claudeCLI(t, s, "plugin", "install", wiring.PluginName+"@bimri"))
			seedMemory(t, s.Workspace, 2)

			opts := s.Options("Please write PLUGIN.md", "--allowedTools", "Write")
			opts.Env = append(opts.Env, "BIMRI_TODAY="+scenarioToday)
			run := runClaude(t, opts)
			_, err := os.Stat(settingsPath(s.Workspace))
			is.True(os.IsNotExist(err)) // no project settings
			user, _ := os.ReadFile(filepath.Join(s.Home, ".claude", "settings.json"))
			is.True(!strings.Contains(string(user), "permissions")) // no rule: the plugin's hook allowed the call
			ctx := firstContext(t, api)
			is.True(strings.Contains(ctx, memoryHeading))
			if c.server {
				is.True(strings.Contains(ctx, "`"+remember+"` with {")) // the hooks name the tool
				is.True(!strings.Contains(ctx, " remember --dir "))     // and no shell command
			} else {
				is.True(!strings.Contains(ctx, "mcp__"))
			}
			checkRecordedSession(t, run, api.MainRequests(), s.Workspace, remember, n, 2)
			f, _ := readMemory(t, s.Workspace)
			is.True(f.Header.Sessions == 3 && len(entriesWith(f, n.Text)) == 1)
		})
	}
}

// TestPluginLinkForYourShell: a plugin user asks the agent to run
// `bimri-hook install --link`, as the README says, in a plain claude -p:
// no allowed-tools flag, the plugin's PreToolUse approves exactly that
// command of the plugin's binary by its absolute path, as the hooks teach
// it. The agent's Bash has the plugin's bin/ on PATH and no
// CLAUDE_PLUGIN_DATA (measured on 2.1.332); the link it makes in
// ~/.local/bin leads to a copy of the plugin's binary for this platform
// in the user's data folder, and runs in the user's own shell with its
// MCP server and its terminal UI, after claude plugin uninstall too.
func TestPluginLinkForYourShell(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	// A copy of its own, which the test removes as an update or an
	// uninstall of a plugin installed from git removes its folder.
	plugin := filepath.Join(t.TempDir(), "plugin")
	is.NoErr(os.CopyFS(plugin, os.DirFS(buildReleasePlugin(t))))
	const linkID = "toolu_link"
	api := newFakeAPI(t, func(r Recorded) Reply {
		if !r.IsMain() {
			return Reply{}
		}
		if _, ok := r.ToolResult(linkID); ok {
			return TextReply("Linked.")
		}
		return Reply{ToolUse: &ToolUse{ID: linkID, Name: "Bash", Input: map[string]string{
			"command": filepath.Join(plugin, "bin", wiring.Name) + " install --link", "description": "Link bimri-hook into ~/.local/bin"}}}
	})
	s := newSandbox(t, api)
	claudeCLI(t, s, "plugin", "marketplace", "add", plugin)
	claudeCLI(t, s, "plugin", "install", wiring.PluginName+"@bimri")
	seedMemory(t, s.Workspace, 2)
	s.Run(t, "Link bimri-hook for my shell")
	var res Block
	for _, r := range api.MainRequests() {
		if b, ok := r.ToolResult(linkID); ok {
			res = b
		}
	}
	t.Logf("the agent ran bimri-hook install --link:\n%s", res.Text)
	is.True(!res.IsError)
	link := filepath.Join(s.Home, ".local", "bin", wiring.Name)
	is.True(strings.Contains(res.Text, "linked "+link+" -> "))
	is.True(strings.Contains(res.Text, "is not on PATH: add it"))
	stable, err := os.Readlink(link)
	is.NoErr(err)
	is.Equal(stable, filepath.Join(s.Home, ".local", "share", "bimri-hook", "bin", wiring.Name))
	got, err := os.ReadFile(stable)
	is.NoErr(err)
	want, err := os.ReadFile(filepath.Join(plugin, pluginPath(wiring.Name, runtime.GOOS+"-"+runtime.GOARCH)))
	is.NoErr(err)
	is.True(bytes.Equal(got, want)) // the plugin's own binary for this platform
	claudeCLI(t, s, "plugin", "uninstall", wiring.PluginName+"@bimri")
	data, _ := filepath.Glob(filepath.Join(s.Home, ".claude", "plugins", "data", "*"))
	t.Logf("plugin data folders after claude plugin uninstall: %q", data)
	is.NoErr(os.RemoveAll(plugin))

	// The user's shell: PATH holds the link's folder, and no Go.
	shell := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(link, args...)
		cmd.Dir = s.Workspace
		cmd.Env = []string{"HOME=" + s.Home, "PATH=" + filepath.Dir(link) + string(os.PathListSeparator) + minimalPath}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("bimri-hook %s in the user's shell: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	is.Equal(strings.TrimSpace(shell("version")), "bimri-hook "+releaseVersion(t))
	is.True(strings.Contains(shell("show"), "household expenses")) // the seeded memory
	reachesCompanions(t, link, s.Workspace)
}

// withoutMCPServer is a copy of the release's plugin folder without
// bimri-hook-mcp: a plugin whose MCP server cannot start.
func withoutMCPServer(t *testing.T, plugin string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "plugin")
	if err := os.CopyFS(dir, os.DirFS(plugin)); err != nil {
		t.Fatal(err)
	}
	servers, _ := filepath.Glob(filepath.Join(dir, "*", "bimri-hook-mcp*"))
	if len(servers) != 6 {
		t.Fatalf("want the six bimri-hook-mcp of the release's plugin, found %q", servers)
	}
	for _, p := range servers {
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// lookPathIn is exec.LookPath with path for PATH.
func lookPathIn(name, path string) (string, error) {
	for _, dir := range filepath.SplitList(path) {
		p := filepath.Join(dir, name)
		if info, err := os.Stat(p); err == nil && !info.IsDir() && info.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", exec.ErrNotFound
}

// TestPluginSideFilesAndOff: the plugin has no install step, yet in a git
// repository its first session leaves no personal side file for `git add
// .` (bimri-backup.md, the state folder): the rules go to
// .git/info/exclude. Then the user turns memory off in this repository
// with the plugin's own binary: the next session gets no memory and
// changes nothing, though the plugin stays enabled.
func TestPluginSideFilesAndOff(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	plugin := buildReleasePlugin(t)
	api := newFakeAPI(t, func(r Recorded) Reply { return TextReply("Done.") })
	s := newSandbox(t, api)
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = s.Workspace
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	git("init", "-q")
	claudeCLI(t, s, "plugin", "marketplace", "add", plugin)
	claudeCLI(t, s, "plugin", "install", wiring.PluginName+"@bimri")
	seedMemory(t, s.Workspace, 2)
	s.Run(t, "Hello")
	is.True(strings.Contains(firstContext(t, api), memoryHeading))
	_, err := os.Stat(filepath.Join(s.Workspace, "bimri-backup.md"))
	is.NoErr(err) // the session's end changed bimri.md, after a backup
	status := git("status", "--porcelain", "--untracked-files=all")
	t.Logf("git status after the first session:\n%s", status)
	is.True(strings.Contains(status, "?? bimri.md"))
	is.True(!strings.Contains(status, "bimri-backup.md"))
	is.True(!strings.Contains(status, ".claude/"))
	_, err = os.Stat(filepath.Join(s.Workspace, ".gitignore"))
	is.True(os.IsNotExist(err)) // no tracked file changed

	bin := filepath.Join(plugin, pluginPath(wiring.Name, runtime.GOOS+"-"+runtime.GOARCH))
	off := exec.Command(bin, "off")
	off.Dir = s.Workspace
	off.Env = []string{"HOME=" + s.Home, "PATH=" + minimalPath}
	out, err := off.CombinedOutput()
	is.NoErr(err)
	t.Logf("bimri-hook off: %s", out)
	before, err := os.ReadFile(filepath.Join(s.Workspace, "bimri.md"))
	is.NoErr(err)
	seen := len(api.MainRequests())
	s.Run(t, "Hello again")
	reqs := api.MainRequests()
	is.True(len(reqs) > seen)
	is.Equal(len(sessionStartContexts(reqs[seen])), 0) // no memory
	is.True(!strings.Contains(reqs[seen].ConversationText(), memoryHeading))
	after, err := os.ReadFile(filepath.Join(s.Workspace, "bimri.md"))
	is.NoErr(err)
	is.Equal(string(after), string(before)) // nothing counted or recorded
}
