package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/wiring"
	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// trickyText is what a shell would change or run: backticks, $(...),
// $HOME, both quotes, a backslash, and text beyond ASCII. The MCP tools
// take it as JSON, so it must reach bimri.md byte for byte.
const trickyText = "Fixed the `make test` flake; $(rm -rf ~) and $HOME stay text, \"double\" and 'single' quotes, a\\b — naïve café, 日本語 🎉"

var (
	builtOnce sync.Once
	builtPath string
	builtErr  error
)

// builtBinary is bimri-hook built as a user builds it, with
// bimri-hook-mcp beside it, once per test run.
func builtBinary(t *testing.T) string {
	t.Helper()
	builtOnce.Do(func() {
		dir, err := os.MkdirTemp("", "bimri-mcp-bin-")
		if err != nil {
			builtErr = err
			return
		}
		builtPath = filepath.Join(dir, "bimri-hook")
		// One go build for both, which links them side by side.
		out, err := exec.Command("go", "build", "-o", dir+string(filepath.Separator), ".", "../bimri-hook-mcp").CombinedOutput()
		if err != nil {
			builtErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if builtErr != nil {
		t.Fatal(builtErr)
	}
	return builtPath
}

// mcpClient starts `bimri-hook mcp args...` in cwd with env (on top of a
// clean HOME and a fixed day) and connects the SDK's own client to it,
// offering roots when any are given.
func mcpClient(t *testing.T, cwd string, env []string, roots []string, args ...string) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(builtBinary(t), append([]string{"mcp"}, args...)...)
	cmd.Dir = cwd
	cmd.Env = append(cleanEnv(), "HOME="+t.TempDir(), "BIMRI_TODAY=2026-11-29")
	cmd.Env = append(cmd.Env, env...)
	cmd.Stderr = os.Stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "bimri-test", Version: "1"}, nil)
	for _, r := range roots {
		client.AddRoots(&mcp.Root{URI: (&url.URL{Scheme: "file", Path: filepath.ToSlash(r)}).String()})
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { session.Close() })
	return session
}

// cleanEnv is the environment without what would pick another workspace
// or config.
func cleanEnv() []string {
	return slices.DeleteFunc(os.Environ(), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return slices.Contains([]string{"CLAUDE_PROJECT_DIR", "BIMRI_CONFIG", "BIMRI_TODAY", "BIMRI_GLOBAL_DIR", "CLAUDE_CONFIG_DIR", "HOME"}, name)
	})
}

// call calls a tool and returns its text and structured result.
func call(t *testing.T, s *mcp.ClientSession, name string, args map[string]any) (text string, structured map[string]any, isError bool) {
	t.Helper()
	res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err) // a protocol error: the server failed, not the tool
	}
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	if res.StructuredContent != nil {
		data, _ := json.Marshal(res.StructuredContent)
		_ = json.Unmarshal(data, &structured)
	}
	return strings.Join(texts, "\n"), structured, res.IsError
}

// mustCall calls a tool that must succeed.
func mustCall(t *testing.T, s *mcp.ClientSession, name string, args map[string]any) (string, map[string]any) {
	t.Helper()
	text, out, isErr := call(t, s, name, args)
	if isErr {
		t.Fatalf("%s %v: tool error: %s", name, args, text)
	}
	return text, out
}

// TestHookBinaryLinksNoMCPSDK keeps the SDK out of the binary every hook
// starts: Go runs each linked package's init before main, and the SDK's
// (net/http, crypto/tls, encoding/gob, jsonschema) cost a hook about 80
// page faults. The server is bimri-hook-mcp.
func TestHookBinaryLinksNoMCPSDK(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, "github.com/modelcontextprotocol/") || pkg == "net/http" || pkg == "encoding/gob" || strings.HasPrefix(pkg, "github.com/google/jsonschema-go") {
			t.Errorf("bimri-hook links %s", pkg)
		}
	}
}

// TestPluginApprovesItsOwnMCPTools holds together the three places that
// name the plugin's tools: .mcp.json's server, the server's tools, and
// wiring.MCPTools, which the plugin's PreToolUse hook approves (and its
// matcher lists), so a plugin user is never asked, and nothing else is
// approved.
func TestPluginApprovesItsOwnMCPTools(t *testing.T) {
	is := is.New(t)
	data, err := os.ReadFile(filepath.Join("..", "..", ".mcp.json"))
	is.NoErr(err)
	var decl struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	is.NoErr(json.Unmarshal(data, &decl))
	is.Equal(len(decl.MCPServers), 1)
	srv, ok := decl.MCPServers["bimri"]
	is.True(ok) // the server's name is part of every tool name
	is.Equal(srv.Args, []string{"mcp"})
	var want []string
	for _, tool := range mcpToolNames {
		want = append(want, wiring.MCPToolName("bimri", tool))
	}
	is.Equal(wiring.MCPTools, want)
	for _, name := range want {
		is.True(strings.Contains(wiring.ApprovalMatcher(), name))
	}
}

// mcpToolNames are the server's tools, in the order tools/list gives them.
var mcpToolNames = []string{"memory", "remember", "recall", "forget", "revive"}

func TestMCPToolsList(t *testing.T) {
	is := is.New(t)
	s := mcpClient(t, t.TempDir(), nil, nil)
	res, err := s.ListTools(context.Background(), nil)
	is.NoErr(err)
	byName := map[string]*mcp.Tool{}
	var names []string
	for _, tool := range res.Tools {
		byName[tool.Name] = tool
		names = append(names, tool.Name)
		is.True(tool.Description != "") // every tool says what it does
	}
	slices.Sort(names)
	want := slices.Sorted(slices.Values(mcpToolNames))
	is.Equal(names, want)
	is.True(byName["recall"].Annotations.ReadOnlyHint)    // recall only reads
	is.True(!byName["remember"].Annotations.ReadOnlyHint) // remember writes
	is.True(!byName["forget"].Annotations.ReadOnlyHint)
	schema, _ := json.Marshal(byName["remember"].InputSchema)
	var sch struct {
		Properties map[string]struct {
			Type    any      `json:"type"`
			Minimum *float64 `json:"minimum"`
			Maximum *float64 `json:"maximum"`
		} `json:"properties"`
	}
	is.NoErr(json.Unmarshal(schema, &sch))
	imp := sch.Properties["importance"]
	is.Equal(imp.Type, "integer")
	is.True(imp.Minimum != nil && *imp.Minimum == 1 && imp.Maximum != nil && *imp.Maximum == 5)
	for _, f := range []string{"text", "tags", "keywords", "tier", "replaces", "promote", "supersedes", "both_hold"} {
		_, ok := sch.Properties[f]
		is.True(ok) // remember has each of the CLI's forms
	}
}

func TestMCPRememberRecallExactly(t *testing.T) {
	is := is.New(t)
	ws := t.TempDir()
	s := mcpClient(t, t.TempDir(), nil, nil, "--dir", ws)

	// A new workspace: memory creates bimri.md and asks for the intake,
	// naming the tools, not the shell command.
	view, _ := mustCall(t, s, "memory", nil)
	is.True(strings.Contains(view, "New workspace: intake"))
	is.True(strings.Contains(view, "`remember` with {"))
	is.True(!strings.Contains(view, "bimri-hook remember")) // no shell command to run
	_, err := os.Stat(filepath.Join(ws, "bimri.md"))
	is.NoErr(err)

	text, out := mustCall(t, s, "remember", map[string]any{"text": trickyText, "importance": 4, "tags": []string{"testing", "ci"}})
	is.True(strings.HasPrefix(text, "recorded "))
	is.Equal(out["text"], trickyText)
	id := out["id"].(string)
	data, err := os.ReadFile(filepath.Join(ws, "bimri.md"))
	is.NoErr(err)
	is.True(strings.Contains(string(data), "\n"+trickyText+"\n")) // byte for byte, on its own line

	// importance 9 is a tool error naming the problem; the server goes on.
	msg, _, isErr := call(t, s, "remember", map[string]any{"text": "Too important.", "importance": 9})
	is.True(isErr)
	is.True(strings.Contains(msg, `"importance" 9 is not a whole number from 1 to 5`))
	msg, _, isErr = call(t, s, "remember", map[string]any{"text": "Typed wrong.", "importance": "high"})
	is.True(isErr)
	is.True(strings.Contains(msg, `"importance" must be a whole number`))
	msg, _, isErr = call(t, s, "remember", map[string]any{"text": "Unknown field.", "importanse": 3})
	is.True(isErr)
	is.True(strings.Contains(msg, `unknown field "importanse"`))
	msg, _, isErr = call(t, s, "recall", map[string]any{"query": "  "})
	is.True(isErr)
	is.True(strings.Contains(msg, "recall needs a query"))
	data2, _ := os.ReadFile(filepath.Join(ws, "bimri.md"))
	is.Equal(string(data2), string(data)) // refused calls changed nothing

	text, found := mustCall(t, s, "recall", map[string]any{"query": "make test flake"})
	items := found["items"].([]any)
	is.True(len(items) >= 1)
	first := items[0].(map[string]any)
	is.Equal(first["id"], id)
	is.Equal(first["text"], trickyText)
	is.Equal(first["where"], "tier 2")
	is.Equal(first["date"], "2026-11-29")
	is.Equal(first["importance"], float64(4))
	is.True(strings.Contains(text, id+" (tier 2, 2026-11-29, importance 4, tags ci,testing)"))

	// forget sends it to the archive, recall still finds it there, revive
	// brings it back.
	text, _ = mustCall(t, s, "forget", map[string]any{"id": id, "reason": "superseded by the new CI"})
	is.True(strings.Contains(text, "moved "+id+" to bimri-archive.md"))
	_, found = mustCall(t, s, "recall", map[string]any{"query": "make test flake", "limit": 1})
	items = found["items"].([]any)
	is.Equal(len(items), 1)
	is.Equal(items[0].(map[string]any)["where"], "archive")
	is.Equal(items[0].(map[string]any)["reason"], "superseded by the new CI")
	text, out = mustCall(t, s, "revive", map[string]any{"id": id})
	is.True(strings.HasPrefix(text, "revived "+id))
	is.Equal(out["text"], trickyText)
	msg, _, isErr = call(t, s, "revive", map[string]any{"id": id})
	is.True(isErr)
	is.True(strings.Contains(msg, "already in the memory file"))
	msg, _, isErr = call(t, s, "forget", map[string]any{"id": "00000000"})
	is.True(isErr)
	is.True(strings.Contains(msg, `no entry or pattern with ID "00000000"`))
}

func TestMCPRememberForms(t *testing.T) {
	is := is.New(t)
	ws := t.TempDir()
	s := mcpClient(t, t.TempDir(), nil, nil, "--dir", ws)
	_, a := mustCall(t, s, "remember", map[string]any{"text": "Login form built.", "tags": []string{"login"}})
	_, b := mustCall(t, s, "remember", map[string]any{"text": "Login tests added.", "importance": 2, "tags": []string{"login"}})
	_, c := mustCall(t, s, "remember", map[string]any{"text": "Chose Postgres for sessions.", "importance": 5})

	// Consolidation takes its importance from the entries: giving one is
	// refused, in the tool's words.
	msg, _, isErr := call(t, s, "remember", map[string]any{"replaces": []string{a["id"].(string), b["id"].(string)}, "text": "Login: form and tests.", "importance": 4})
	is.True(isErr)
	is.True(strings.Contains(msg, `remember with "replaces" takes the importance`))
	text, sum := mustCall(t, s, "remember", map[string]any{"replaces": []string{a["id"].(string), b["id"].(string)}, "text": "Login: form and tests."})
	is.True(strings.HasPrefix(text, "consolidated "))
	is.Equal(sum["importance"], float64(3))
	is.Equal(len(sum["archived"].([]any)), 2)

	_, p := mustCall(t, s, "remember", map[string]any{"promote": c["id"]})
	is.Equal(p["tier"], float64(1))

	msg, _, isErr = call(t, s, "remember", map[string]any{"tier": 3, "text": "The user wants tests with every fix."})
	is.True(isErr)
	is.True(strings.Contains(msg, `a pattern needs at least one tag ("tags")`))
	_, pat := mustCall(t, s, "remember", map[string]any{"tier": 3, "tags": []string{"login"}, "text": "The user wants tests with every fix."})
	is.Equal(pat["tier"], float64(3))

	// Supersession: the new entry takes the old one's importance and
	// tier (Tier 1 here), the old one goes to the archive marked, and
	// recall says so and names what holds now.
	msg, _, isErr = call(t, s, "remember", map[string]any{"supersedes": []string{c["id"].(string)}, "promote": c["id"], "text": "Chose SQLite."})
	is.True(isErr)
	is.True(strings.Contains(msg, `remember with "supersedes" records a new entry: it takes no "replaces" or "promote"`))
	text, sup := mustCall(t, s, "remember", map[string]any{"supersedes": []string{c["id"].(string)}, "text": "Moved sessions from Postgres to Redis, for latency."})
	is.True(strings.Contains(text, "as superseded by "+sup["id"].(string)))
	is.Equal(sup["tier"], float64(1))
	is.Equal(sup["importance"], float64(5))
	is.Equal(sup["archived"], []any{c["id"]})
	_, found := mustCall(t, s, "recall", map[string]any{"query": "Postgres sessions"})
	var old map[string]any
	for _, it := range found["items"].([]any) {
		if it := it.(map[string]any); it["id"] == c["id"] {
			old = it
		}
	}
	if old == nil || old["where"] != "archive" || !strings.Contains(fmt.Sprint(old["reason"]), "superseded by "+sup["id"].(string)) {
		t.Errorf("recall of the superseded entry: %v", found["items"])
	}

	data, err := os.ReadFile(filepath.Join(ws, "bimri.md"))
	is.NoErr(err)
	tier1, _, _ := strings.Cut(string(data), "## Tier 2")
	is.True(strings.Contains(tier1, "Moved sessions from Postgres to Redis, for latency."))
	is.True(!strings.Contains(string(data), "Chose Postgres for sessions."))
	is.True(strings.Contains(string(data), "The user wants tests with every fix."))
	arch, err := os.ReadFile(filepath.Join(ws, "bimri-archive.md"))
	is.NoErr(err)
	is.True(strings.Contains(string(arch), "Login tests added."))
}

// TestMCPRememberKeywords: remember's "keywords" are stored on the
// entry, refused in the tool's words when wrong, searched by recall and
// never shown by memory.
func TestMCPRememberKeywords(t *testing.T) {
	is := is.New(t)
	ws := t.TempDir()
	s := mcpClient(t, t.TempDir(), nil, nil, "--dir", ws)
	msg, _, isErr := call(t, s, "remember", map[string]any{"text": "x", "keywords": []string{"a1", "b2", "c3", "d4", "e5", "f6"}})
	is.True(isErr)
	is.True(strings.Contains(msg, `"keywords": 6 keywords, over the limit of 5`))
	msg, _, isErr = call(t, s, "remember", map[string]any{"text": "x", "keywords": []string{" "}})
	is.True(isErr)
	is.True(strings.Contains(msg, `"keywords" is empty`))
	_, err := os.Stat(filepath.Join(ws, "bimri.md"))
	is.True(err != nil) // refused before anything was written

	text, out := mustCall(t, s, "remember", map[string]any{"text": "Moved the credential check into middleware.", "tags": []string{"auth"}, "keywords": []string{"Signin", "password"}})
	is.True(strings.Contains(text, "keywords password,signin"))
	is.Equal(out["keywords"], []any{"password", "signin"})
	data, err := os.ReadFile(filepath.Join(ws, "bimri.md"))
	is.NoErr(err)
	is.True(strings.Contains(string(data), "[TAGS:auth] [KEYWORDS:password,signin]"))
	view, _ := mustCall(t, s, "memory", nil)
	is.True(strings.Contains(view, "Moved the credential check into middleware."))
	is.True(!strings.Contains(view, "signin")) // never shown
	_, found := mustCall(t, s, "recall", map[string]any{"query": "signin password"})
	items := found["items"].([]any)
	is.True(len(items) >= 1)
	is.Equal(items[0].(map[string]any)["id"], out["id"])
}

// TestMCPAsksSupersedes: a decision recorded that looks like it reverses
// an older one gets the question, once, with the exact tool call; that
// call, made as given, moves the older one to the archive as superseded.
func TestMCPAsksSupersedes(t *testing.T) {
	is := is.New(t)
	ws := t.TempDir()
	before := mcpClient(t, t.TempDir(), []string{"BIMRI_TODAY=2026-09-01"}, nil, "--dir", ws)
	_, old := mustCall(t, before, "remember", map[string]any{"text": "Chose Redis for sessions and rate limits.", "importance": 5, "tags": []string{"sessions", "decision"}})
	s := mcpClient(t, t.TempDir(), nil, nil, "--dir", ws)
	text, _ := mustCall(t, s, "remember", map[string]any{"text": "Removed Redis: sessions now live in a Postgres table.", "importance": 5, "tags": []string{"sessions", "decision"}})
	m := regexp.MustCompile("If it replaces that entry, call: `remember` with (\\{.*\\})").FindStringSubmatch(text)
	if m == nil || strings.Contains(text, "run:") {
		t.Fatalf("no supersede call in the answer (or a \"run:\" before a tool call):\n%s", text)
	}
	var args map[string]any
	is.NoErr(json.Unmarshal([]byte(m[1]), &args))
	is.Equal(args["supersedes"], []any{old["id"]})
	is.Equal(args["text"], "Removed Redis: sessions now live in a Postgres table.")
	done, _ := mustCall(t, s, "remember", args)
	is.True(strings.Contains(done, "as superseded by "))
	data, err := os.ReadFile(filepath.Join(ws, "bimri.md"))
	is.NoErr(err)
	is.True(!strings.Contains(string(data), "Chose Redis"))
	is.Equal(strings.Count(string(data), "Removed Redis: sessions now live in a Postgres table."), 1)
}

// TestMCPBothHold: the question's other answer, "both still hold", is an
// exact tool call too; made as given, the memory view stops marking the
// older entry. An unknown ID is refused in the tool's words.
func TestMCPBothHold(t *testing.T) {
	is := is.New(t)
	ws := t.TempDir()
	before := mcpClient(t, t.TempDir(), []string{"BIMRI_TODAY=2026-09-01"}, nil, "--dir", ws)
	_, old := mustCall(t, before, "remember", map[string]any{"text": "Chose Redis for the page cache.", "importance": 5, "tags": []string{"cache", "decision"}})
	s := mcpClient(t, t.TempDir(), nil, nil, "--dir", ws)
	text, newer := mustCall(t, s, "remember", map[string]any{"text": "Chose Redis for the page cache of the admin app too.", "importance": 5, "tags": []string{"cache", "decision"}})
	m := regexp.MustCompile("If both still hold, call: `remember` with (\\{.*\\})").FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no both_hold call in the answer:\n%s", text)
	}
	var args map[string]any
	is.NoErr(json.Unmarshal([]byte(m[1]), &args))
	is.Equal(args["both_hold"], []any{newer["id"], old["id"]})
	view, _ := mustCall(t, s, "memory", nil)
	is.True(strings.Contains(view, "(possibly superseded by "+newer["id"].(string)+")"))

	msg, _, isErr := call(t, s, "remember", map[string]any{"both_hold": []string{newer["id"].(string), "deadbeef"}})
	is.True(isErr)
	is.True(strings.Contains(msg, "no entry deadbeef in the memory file"))
	msg, _, isErr = call(t, s, "remember", map[string]any{"both_hold": []string{newer["id"].(string)}, "text": "x"})
	is.True(isErr)
	is.True(strings.Contains(msg, `remember with "both_hold" NEW,OLD takes nothing else`))

	done, _ := mustCall(t, s, "remember", args)
	is.True(strings.Contains(done, "both still hold"))
	view, _ = mustCall(t, s, "memory", nil)
	is.True(strings.Contains(view, "Chose Redis for the page cache."))
	is.True(!strings.Contains(view, "possibly superseded"))
}

// TestMCPWorkspace checks the order the server finds its workspace in:
// CLAUDE_PROJECT_DIR, else --dir, else the client's first root, else the
// current folder.
func TestMCPWorkspace(t *testing.T) {
	is := is.New(t)
	record := func(s *mcp.ClientSession) string {
		_, out := mustCall(t, s, "remember", map[string]any{"text": "Where am I?"})
		return filepath.Dir(out["memory"].(string))
	}
	cwd, project, dir, root := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	is.Equal(record(mcpClient(t, cwd, []string{"CLAUDE_PROJECT_DIR=" + project}, []string{root}, "--dir", dir)), project)
	is.Equal(record(mcpClient(t, cwd, nil, []string{root}, "--dir", dir)), dir)
	is.Equal(record(mcpClient(t, cwd, nil, []string{root})), root)
	is.Equal(record(mcpClient(t, cwd, nil, nil)), cwd)
}
