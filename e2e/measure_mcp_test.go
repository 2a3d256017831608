//go:build linux || darwin

package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/bimri/bimri-hook/wiring"
	"github.com/matryer/is"
)

// mcpEnvProbe stands between the client and the plugin's server: it
// writes the environment and folder the client started the server with
// into mcp-env.txt beside the plugin, then execs the server as .mcp.json
// runs it.
const mcpEnvProbe = `#!/bin/sh
{ echo "cwd=$(pwd)"; env; } > "$CLAUDE_PLUGIN_ROOT/../mcp-env.txt"
exec "$CLAUDE_PLUGIN_ROOT/bin/bimri-hook" mcp "$@"
`

// TestMeasureMCPTools re-measures, on the release's plugin loaded with
// --plugin-dir, what bimri-hook's MCP route relies on (wiring.MCPTools,
// the server's workspace, the plugin's approval). Measured on 2.1.332:
//   - the client names the tools mcp__plugin_bimri-hook_bimri__<tool>
//     and defers them: they are not in the first request's tools array;
//     once the model calls ToolSearch with select:NAMES, the next
//     request's tools array holds them. When the server has connected
//     before the first request (the plugin's SessionStart hook gives it
//     the time; with no hooks it had not), that request also lists them
//     by name in a reminder of the deferred tools; ToolSearch loads them
//     either way;
//   - the server is started in the workspace with CLAUDE_PROJECT_DIR set
//     to it (and CLAUDE_PLUGIN_ROOT);
//   - in -p mode the remember call runs with no rule, because the
//     plugin's PreToolUse hook approves it: without that hook it is
//     denied ("Claude requested permissions to use ...").
func TestMeasureMCPTools(t *testing.T) {
	t.Parallel()
	for _, approval := range []bool{true, false} {
		is := is.New(t)
		dir := t.TempDir()
		plugin := filepath.Join(dir, "plugin")
		is.NoErr(os.CopyFS(plugin, os.DirFS(buildReleasePlugin(t))))
		is.NoErr(os.WriteFile(filepath.Join(plugin, "bin", "mcp-env-probe"), []byte(mcpEnvProbe), 0o755))
		writeJSONFile(t, filepath.Join(plugin, ".mcp.json"), map[string]any{"mcpServers": map[string]any{
			wiring.MCPServer: map[string]any{"command": "${CLAUDE_PLUGIN_ROOT}/bin/mcp-env-probe"},
		}})
		if !approval {
			writeJSONFile(t, filepath.Join(plugin, "hooks", "hooks.json"), map[string]any{"hooks": map[string]any{}})
		}
		remember := wiring.MCPToolName(wiring.MCPServer, "remember")
		api := newFakeAPI(t, func(r Recorded) Reply {
			switch {
			case !r.IsMain():
				return Reply{}
			case hasResult(r, rememberID):
				return TextReply("Done.")
			case hasResult(r, searchID):
				return Reply{ToolUse: &ToolUse{ID: rememberID, Name: remember, Input: map[string]any{"text": "Measured the plugin's tools.", "importance": 2}}}
			}
			return Reply{ToolUse: &ToolUse{ID: searchID, Name: "ToolSearch", Input: map[string]any{"query": "select:" + strings.Join(wiring.MCPTools, ","), "max_results": 5}}}
		})
		s := newSandbox(t, api)
		opts := s.Options("measure", "--plugin-dir", plugin)
		opts.Env = append(opts.Env, "BIMRI_TODAY="+scenarioToday)
		run := runClaude(t, opts)
		reqs := api.MainRequests()
		if len(reqs) != 3 {
			t.Fatalf("want 3 main requests (search, remember, done), got %d:\n%s", len(reqs), api.Summary())
		}
		first, loaded := toolNames(reqs[0]), toolNames(reqs[1])
		t.Logf("approval=%v: tools of the first request %v; after ToolSearch %v", approval, first, loaded)
		var plugins []string // the plugin's tools the client gave the model
		for _, name := range loaded {
			if strings.HasPrefix(name, "mcp__plugin_"+wiring.PluginName+"_") {
				plugins = append(plugins, name)
			}
		}
		slices.Sort(plugins)
		is.Equal(plugins, slices.Sorted(slices.Values(wiring.MCPTools))) // exactly the names the hooks teach and the approval allows
		for _, tool := range wiring.MCPTools {
			is.True(!slices.Contains(first, tool)) // deferred: not in the first tools array
		}
		listed := deferredListing.FindAllStringSubmatch(reqs[0].ConversationText(), -1)
		t.Logf("approval=%v: the first request's reminder lists %d of the plugin's tools", approval, len(listed))
		for _, m := range listed {
			is.True(slices.Contains(wiring.MCPTools, m[1])) // listed, if at all, under the same names
		}
		res, _ := reqs[2].ToolResult(rememberID)
		t.Logf("approval=%v: the remember call's result: is_error=%v %q", approval, res.IsError, res.Text)
		env, err := os.ReadFile(filepath.Join(dir, "mcp-env.txt"))
		is.NoErr(err)
		is.True(strings.Contains(string(env), "\nCLAUDE_PROJECT_DIR="+s.Workspace+"\n")) // the server knows the workspace
		is.True(strings.HasPrefix(string(env), "cwd="+s.Workspace+"\n"))
		if approval {
			is.True(!res.IsError)
			is.True(strings.Contains(res.Text, `"memory":"`+filepath.Join(s.Workspace, "bimri.md")+`"`))
			is.Equal(len(run.Result().Get("permission_denials").Array()), 0)
		} else {
			is.True(res.IsError)
			is.True(strings.Contains(res.Text, "requested permissions to use "+remember))
		}
	}
}

// deferredListing is a plugin tool's line in the client's reminder of
// the deferred tools.
var deferredListing = regexp.MustCompile(`(?m)^(mcp__plugin_[\w-]+)$`)

func hasResult(r Recorded, id string) bool {
	_, ok := r.ToolResult(id)
	return ok
}
