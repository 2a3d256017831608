package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bimri/bimri-hook/internal/slowtest"
	"github.com/bimri/bimri-hook/wiring"
	"github.com/matryer/is"
)

// sessionStartContext runs `bin hook` on a SessionStart of a new workspace
// with env on top of a clean HOME and PATH, and returns the context it
// gives the model.
func sessionStartContext(t *testing.T, bin, ws string, env ...string) string {
	t.Helper()
	in, err := json.Marshal(map[string]string{
		"session_id": "s1", "transcript_path": filepath.Join(t.TempDir(), "s1.jsonl"),
		"cwd": ws, "hook_event_name": "SessionStart", "source": "startup",
	})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "hook")
	cmd.Stdin = bytes.NewReader(in)
	// PATH holds no bimri-hook-mcp: only the one beside bin counts.
	cmd.Env = append([]string{"HOME=" + t.TempDir(), "PATH=/usr/bin:/bin", "BIMRI_TODAY=2026-11-29", "CLAUDE_PROJECT_DIR=" + ws}, env...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("hook: %v", err)
	}
	var ans struct {
		HookSpecificOutput struct {
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out, &ans); err != nil {
		t.Fatalf("hook answered %s: %v", out, err)
	}
	return ans.HookSpecificOutput.AdditionalContext
}

// pluginRoot is a plugin folder that declares the MCP server, as the
// plugin's .mcp.json does.
func pluginRoot(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	data, err := os.ReadFile(filepath.Join("..", "..", ".mcp.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".mcp.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// taughtToolCall is a tool call as the hooks write it: `NAME` with {ARGS}.
var taughtToolCall = regexp.MustCompile("`" + regexp.QuoteMeta(wiring.MCPToolName(wiring.MCPServer, "")) + "(\\w+)` with (\\{[^{}]*\\})")

// TestHookNamesMCPToolsInThePlugin: a hook run by the plugin whose MCP
// server can start (.mcp.json in $CLAUDE_PLUGIN_ROOT, bimri-hook-mcp
// beside the binary) teaches tool calls, under the names Claude Code
// gives the plugin's tools, and each call it teaches, filled in as a
// model fills it, is one the server takes. The settings route (no
// plugin), a plugin without the server's program, and a plugin that
// declares no server teach the shell commands.
func TestHookNamesMCPToolsInThePlugin(t *testing.T) {
	slowtest.Gate(t) // builds both binaries and starts the MCP server
	is := is.New(t)
	bin := builtBinary(t) // bimri-hook-mcp is beside it
	alone := filepath.Join(t.TempDir(), "bimri-hook")
	data, err := os.ReadFile(bin)
	is.NoErr(err)
	is.NoErr(os.WriteFile(alone, data, 0o755))
	command := " remember --dir "

	ws := t.TempDir()
	ctx := sessionStartContext(t, bin, ws, "CLAUDE_PLUGIN_ROOT="+pluginRoot(t))
	is.True(!strings.Contains(ctx, command)) // no shell command to run
	calls := taughtToolCall.FindAllStringSubmatch(ctx, -1)
	if len(calls) < 4 {
		t.Fatalf("want the tool calls of the instructions and the intake, found %d in:\n%s", len(calls), ctx)
	}
	s := mcpClient(t, ws, nil, nil, "--dir", ws)
	fill := strings.NewReplacer(`"importance": N`, `"importance": 3`, `"ID", "ID", ...`, `"00000000", "00000001"`)
	for _, c := range calls {
		var args map[string]any
		if err := json.Unmarshal([]byte(fill.Replace(c[2])), &args); err != nil {
			t.Errorf("taught call %s: its arguments are not JSON once filled in: %v", c[0], err)
			continue
		}
		msg, _, isErr := call(t, s, c[1], args)
		if isErr && strings.Contains(msg, "bad arguments") {
			t.Errorf("taught call %s: the server refuses its arguments: %s", c[0], msg)
		}
	}

	for name, env := range map[string][]string{
		"settings route":        nil,
		"plugin with no server": {"CLAUDE_PLUGIN_ROOT=" + pluginRoot(t)},
		"plugin declaring none": {"CLAUDE_PLUGIN_ROOT=" + t.TempDir()},
	} {
		b := bin
		if name == "plugin with no server" {
			b = alone
		}
		ctx := sessionStartContext(t, b, t.TempDir(), env...)
		if !strings.Contains(ctx, command) || strings.Contains(ctx, "mcp__") {
			t.Errorf("%s: want the shell commands and no tool, got:\n%s", name, ctx)
		}
	}
}
