//go:build linux || darwin

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/tidwall/gjson"
)

// trickyText is what a shell would change or run: backticks, $(...),
// $HOME, both quotes, a backslash, and text beyond ASCII. Through MCP it
// is JSON, so it must reach bimri.md byte for byte.
const trickyText = "Fixed the `make test` flake; $(rm -rf ~) and $HOME stay text, \"double\" and 'single' quotes, a\\b — naïve café, 日本語 🎉"

// inspectorRun is one run of the MCP Inspector's CLI.
type inspectorRun struct {
	Out    gjson.Result // stdout, one JSON object (--format json)
	Stderr string
	Code   int // 0, or 5 when the tool answered with isError
}

// Result is the method's result.
func (r inspectorRun) Result() gjson.Result { return r.Out.Get("result") }

// Text is a tools/call result's text.
func (r inspectorRun) Text() string {
	var texts []string
	for _, c := range r.Result().Get("content").Array() {
		texts = append(texts, c.Get("text").String())
	}
	return strings.Join(texts, "\n")
}

// inspect runs the official MCP Inspector CLI (--cli) as a client of
// server, a command and its arguments, in cwd: it starts the server,
// initializes, sends the one method its args ask for, and prints the
// result as JSON.
func inspect(t *testing.T, cwd string, server []string, args ...string) inspectorRun {
	t.Helper()
	script := installNPM(t, mcpInspector)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	full := append([]string{"--cli", "--format", "json", "--cwd", cwd, "-e", "BIMRI_TODAY=" + scenarioToday}, args...)
	cmd := nodeCommand(ctx, script, append(append(full, "--"), server...)...)
	// The Inspector keeps its settings under HOME; the server gets
	// HOME too.
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "MCP_INSPECTOR_SECRET_STORE=memory")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("mcp-inspector %q: %v", args, err)
	}
	if !gjson.Valid(stdout.String()) {
		t.Fatalf("mcp-inspector %q exited %d with no JSON result:\nstdout: %s\nstderr: %s", args, code, stdout.String(), stderr.String())
	}
	return inspectorRun{Out: gjson.Parse(stdout.String()), Stderr: stderr.String(), Code: code}
}

// callTool is `--method tools/call` of tool with args, sent as they are
// (--tool-args-json: no key=value coercion).
func callTool(t *testing.T, cwd string, server []string, tool string, args any) inspectorRun {
	t.Helper()
	data, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	return inspect(t, cwd, server, "--method", "tools/call", "--tool-name", tool, "--tool-args-json", string(data))
}

// mustCallTool is callTool of a call that must succeed.
func mustCallTool(t *testing.T, cwd string, server []string, tool string, args any) inspectorRun {
	t.Helper()
	r := callTool(t, cwd, server, tool, args)
	if r.Code != 0 || r.Result().Get("isError").Bool() {
		t.Fatalf("%s %v: exit %d: %s\n%s", tool, args, r.Code, r.Out.Raw, r.Stderr)
	}
	return r
}

// TestMCPInspector drives the built `bimri-hook mcp` with the official
// MCP Inspector CLI, a client that is not ours: every tool works; a text
// a shell would change is stored exactly and recall finds it; importance
// 9 is a tool error in plain words that changes nothing, and the server
// answers the calls after it.
func TestMCPInspector(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	bin := buildBimriHook(t) // bimri-hook-mcp is beside it
	ws := t.TempDir()
	server := []string{bin, "mcp", "--dir", ws}

	// tools/list: the five tools, recall read-only, no schema the
	// Inspector finds unportable (--strict exits 6 for one).
	list := inspect(t, ws, server, "--method", "tools/list", "--strict")
	is.Equal(list.Code, 0)
	var names []string
	for _, tool := range list.Result().Get("tools").Array() {
		names = append(names, tool.Get("name").String())
		is.True(tool.Get("description").String() != "")
	}
	slices.Sort(names)
	is.Equal(names, []string{"forget", "memory", "recall", "remember", "revive"})
	is.True(list.Result().Get(`tools.#(name=="recall").annotations.readOnlyHint`).Bool())

	// memory on a new workspace: bimri.md is made, and the intake asks
	// for tool calls.
	view := mustCallTool(t, ws, server, "memory", map[string]any{}).Text()
	is.True(strings.Contains(view, "New workspace: intake"))
	is.True(strings.Contains(view, "`remember` with {"))
	_, err := os.Stat(filepath.Join(ws, "bimri.md"))
	is.NoErr(err)

	rec := mustCallTool(t, ws, server, "remember", map[string]any{"text": trickyText, "importance": 4, "tags": []string{"testing", "ci"}}).Result()
	is.Equal(rec.Get("structuredContent.text").String(), trickyText)
	id := rec.Get("structuredContent.id").String()
	before, err := os.ReadFile(filepath.Join(ws, "bimri.md"))
	is.NoErr(err)
	if !strings.Contains(string(before), "\n"+trickyText+"\n") {
		t.Fatalf("bimri.md does not hold the text byte for byte:\n%s", before)
	}
	found := mustCallTool(t, ws, server, "recall", map[string]any{"query": "make test flake"}).Result()
	is.Equal(found.Get("structuredContent.items.0.id").String(), id)
	is.Equal(found.Get("structuredContent.items.0.text").String(), trickyText)
	is.Equal(found.Get("structuredContent.items.0.where").String(), "tier 2")

	// importance 9: the Inspector gets a tool result with isError (its
	// exit code 5 says so), in words that name the problem.
	bad := callTool(t, ws, server, "remember", map[string]any{"text": "Too important.", "importance": 9})
	is.Equal(bad.Code, 5)
	is.True(bad.Result().Get("isError").Bool())
	is.True(strings.Contains(bad.Text(), `"importance" 9 is not a whole number from 1 to 5`))
	// In one session, three such calls: each answered as a tool error,
	// none as a failure of the server or the connection.
	load := inspect(t, ws, server, "--method", "tools/call", "--tool-name", "remember",
		"--tool-args-json", `{"text": "Too important.", "importance": 9}`,
		"--load", "--load-requests", "3", "--load-concurrency", "1")
	is.Equal(load.Code, 0)
	is.Equal(load.Result().Get("requests").Int(), int64(3))
	is.Equal(load.Result().Get("toolErrors").Int(), int64(3))
	is.Equal(load.Result().Get("errors").Int(), int64(0))
	after, err := os.ReadFile(filepath.Join(ws, "bimri.md"))
	is.NoErr(err)
	is.Equal(string(after), string(before)) // refused calls change nothing

	forgot := mustCallTool(t, ws, server, "forget", map[string]any{"id": id, "reason": "superseded by the new CI"})
	is.True(strings.Contains(forgot.Text(), "moved "+id+" to bimri-archive.md"))
	archived := mustCallTool(t, ws, server, "recall", map[string]any{"query": "make test flake", "limit": 1}).Result()
	is.Equal(archived.Get("structuredContent.items.0.where").String(), "archive")
	back := mustCallTool(t, ws, server, "revive", map[string]any{"id": id}).Result()
	is.Equal(back.Get("structuredContent.text").String(), trickyText)
	final, err := os.ReadFile(filepath.Join(ws, "bimri.md"))
	is.NoErr(err)
	is.True(strings.Contains(string(final), "\n"+trickyText+"\n"))
}

// TestMCPBundle: the Claude Desktop bundle, packed as `make mcpb` packs
// it from the release this package builds (no build of its own), passes
// the official mcpb CLI: `mcpb unpack`, then `mcpb validate` of its
// manifest. Every file the manifest runs is in it, executable; the six
// servers are the release's own bytes; and the command the manifest gives
// this platform, its placeholders filled in as Claude Desktop fills them,
// serves the memory of the chosen folder to the MCP Inspector.
func TestMCPBundle(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	build := filepath.Join(filepath.Dir(buildReleasePlugin(t)), "build")
	bundle := filepath.Join(t.TempDir(), "bimri-hook.mcpb")
	pack := exec.Command("go", "run", "./scripts/mcpb", "-version", releaseVersion(t), "-build", build, "-out", bundle)
	pack.Dir = repoRoot(t)
	if out, err := pack.CombinedOutput(); err != nil {
		t.Fatalf("pack the bundle: %v\n%s", err, out)
	}

	cli := installNPM(t, mcpbCLI)
	mcpb := func(args ...string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := nodeCommand(ctx, cli, args...)
		cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("mcpb %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		t.Logf("mcpb %s:\n%s", strings.Join(args, " "), out)
		return string(out)
	}
	dir := filepath.Join(t.TempDir(), "unpacked")
	mcpb("unpack", bundle, dir)
	is.True(strings.Contains(mcpb("validate", filepath.Join(dir, "manifest.json")), "Manifest schema validation passes"))

	data, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	is.NoErr(err)
	manifest := gjson.ParseBytes(data)
	is.Equal(manifest.Get("server.type").String(), "binary")
	folder := manifest.Get("user_config.memory_folder")
	is.Equal(folder.Get("type").String(), "directory")
	is.True(folder.Get("required").Bool())
	fill := func(s string, memory string) string {
		return strings.NewReplacer("${__dirname}", dir, "${user_config.memory_folder}", memory).Replace(s)
	}
	for _, osName := range []string{"darwin", "linux", "win32"} {
		o := manifest.Get("server.mcp_config.platform_overrides." + osName)
		var files []string
		for _, a := range append([]gjson.Result{o.Get("command")}, o.Get("args").Array()...) {
			if p := fill(a.String(), ""); strings.HasPrefix(p, dir) {
				files = append(files, p)
			}
		}
		if len(files) == 0 {
			t.Errorf("%s: the override runs no file of the bundle: %s", osName, o.Raw)
		}
		for _, p := range files {
			info, err := os.Stat(p)
			if err != nil || info.Mode().Perm()&0o111 == 0 {
				t.Errorf("%s: %s is not an executable file of the bundle: %v", osName, p, err)
			}
		}
	}
	entry, err := os.Stat(filepath.Join(dir, manifest.Get("server.entry_point").String()))
	is.NoErr(err)
	is.True(entry.Mode().IsRegular())
	for _, target := range [][2]string{{"linux", "amd64"}, {"linux", "arm64"}, {"darwin", "amd64"}, {"darwin", "arm64"}, {"windows", "amd64"}, {"windows", "arm64"}} {
		name := "bimri-hook-mcp-" + target[0] + "-" + target[1]
		built := filepath.Join(build, target[0]+"-"+target[1], "bimri-hook-mcp")
		if target[0] == "windows" {
			name, built = name+".exe", built+".exe"
		}
		got, err := os.ReadFile(filepath.Join(dir, "server", name))
		is.NoErr(err)
		want, err := os.ReadFile(built)
		is.NoErr(err)
		is.True(bytes.Equal(got, want)) // the release's server, as built
	}

	// This platform's command, as Claude Desktop runs it.
	memory := t.TempDir()
	o := manifest.Get("server.mcp_config.platform_overrides." + runtime.GOOS)
	server := []string{fill(o.Get("command").String(), memory)}
	for _, a := range o.Get("args").Array() {
		server = append(server, fill(a.String(), memory))
	}
	cwd := t.TempDir() // not the memory folder: the setting names it
	list := inspect(t, cwd, server, "--method", "tools/list")
	is.Equal(len(list.Result().Get("tools").Array()), 5)
	rec := mustCallTool(t, cwd, server, "remember", map[string]any{"text": trickyText, "importance": 3})
	is.Equal(rec.Result().Get("structuredContent.memory").String(), filepath.Join(memory, "bimri.md"))
	saved, err := os.ReadFile(filepath.Join(memory, "bimri.md"))
	is.NoErr(err)
	is.True(strings.Contains(string(saved), "\n"+trickyText+"\n"))
}
