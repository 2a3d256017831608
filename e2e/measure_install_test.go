//go:build linux || darwin

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// These tests re-measure the client facts bimri-hook's install routes rely
// on (docs/claude-code.md, "Plugins"), so a Claude Code upgrade that
// changes one fails here first.

// writeProbe writes an executable shell script that prints marker.
func writeProbe(t *testing.T, path, marker string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\necho "+marker+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}

// TestMeasurePluginBinAndSettings: does 2.1.328 put a plugin's bin/
// folder on the Bash tool's PATH, and does a plugin's settings.json add a
// permission rule? Measured: bin/ is on PATH; the plugin's settings.json
// permission rule is not applied.
func TestMeasurePluginBinAndSettings(t *testing.T) {
	t.Parallel() // independent sandboxes; the package runs long
	is := is.New(t)
	api := newFakeAPI(t, func(r Recorded) Reply {
		if !r.IsMain() {
			return Reply{}
		}
		if _, ok := r.ToolResult("toolu_perm"); ok {
			return TextReply("done")
		}
		if _, ok := r.ToolResult("toolu_path"); ok {
			return Reply{ToolUse: &ToolUse{ID: "toolu_perm", Name: "Bash", Input: map[string]string{"command": "probe-perm", "description": "probe"}}}
		}
		return Reply{ToolUse: &ToolUse{ID: "toolu_path", Name: "Bash", Input: map[string]string{"command": "probe-path", "description": "probe"}}}
	})
	s := newSandbox(t, api)
	plugin := filepath.Join(t.TempDir(), "probe-plugin")
	writePlugin(t, plugin, "probe", hookSettings(func(string) string { return "true" }, "SessionStart"))
	writeProbe(t, filepath.Join(plugin, "bin", "probe-path"), "PROBE-PATH-RAN")
	writeProbe(t, filepath.Join(plugin, "bin", "probe-perm"), "PROBE-PERM-RAN")
	writeJSONFile(t, filepath.Join(plugin, "settings.json"), map[string]any{
		"permissions": map[string]any{"allow": []string{"Bash(probe-perm:*)"}},
	})
	s.Run(t, "probe", "--plugin-dir", plugin, "--allowedTools", "Bash(probe-path:*)")
	var pathRes, permRes Block
	for _, r := range api.MainRequests() {
		if b, ok := r.ToolResult("toolu_path"); ok {
			pathRes = b
		}
		if b, ok := r.ToolResult("toolu_perm"); ok {
			permRes = b
		}
	}
	t.Logf("measured: plugin bin/ command by bare name: is_error=%v %q", pathRes.IsError, pathRes.Text)
	t.Logf("measured: plugin settings.json allow rule: is_error=%v %q", permRes.IsError, permRes.Text)
	is.True(!pathRes.IsError)
	is.True(strings.Contains(pathRes.Text, "PROBE-PATH-RAN")) // bin/ is on the Bash tool's PATH
	is.True(permRes.IsError)                                  // the plugin's settings.json does not allow
	is.True(!strings.Contains(permRes.Text, "PROBE-PERM-RAN"))
}

// TestMeasureStopContext: does a Stop answer that is not a block
// (hookSpecificOutput.additionalContext) give the model another turn in
// which to record? Measured on 2.1.328: yes. The turn goes on, the model
// sees the text, and the next Stop comes with stop_hook_active true, as
// after a block; so bimri-hook nudges this way and the user is not shown
// a hook error.
func TestMeasureStopContext(t *testing.T) {
	t.Parallel() // independent sandboxes; the package runs long
	is := is.New(t)
	api := newFakeAPI(t, func(r Recorded) Reply {
		if !r.IsMain() {
			return Reply{}
		}
		if _, ok := r.ToolResult("toolu_ctx"); ok {
			return TextReply("ran it")
		}
		if m := runCmdRE.FindStringSubmatch(r.NewText()); m != nil {
			return Reply{ToolUse: &ToolUse{ID: "toolu_ctx", Name: "Bash", Input: map[string]string{"command": m[1], "description": "x"}}}
		}
		return TextReply("first turn")
	})
	s := newSandbox(t, api)
	dir := t.TempDir()
	hook := filepath.Join(dir, "stop.sh")
	script := `#!/bin/sh
in=$(cat)
echo "$in" >>"$(dirname "$0")/stops.log"
case $in in
*'"stop_hook_active":true'*) printf '{}\n' ;;
*) printf '{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"STOPCTX: before stopping, run <<<echo STOPCTX-RAN>>>"}}\n' ;;
esac
`
	is.NoErr(os.WriteFile(hook, []byte(script), 0o755))
	s.WriteProjectSettings(t, hookSettings(func(string) string { return hook }, "Stop"))
	run := s.Run(t, "hello", "--allowedTools", "Bash(echo:*)")
	reqs := api.MainRequests()
	stops, err := os.ReadFile(filepath.Join(dir, "stops.log"))
	is.NoErr(err)
	t.Logf("measured: Stop additionalContext: %d main requests; result %q; stop inputs:\n%s", len(reqs), run.Result().Get("result").String(), stops)
	for _, e := range run.Events {
		if e.Get("type").String() == "system" {
			t.Logf("system event: %s", e.Raw)
		}
	}
	is.Equal(len(reqs), 3) // first turn, the Bash call the context asked for, its result
	is.True(strings.Contains(reqs[1].NewText(), "STOPCTX"))
	res, ok := reqs[2].ToolResult("toolu_ctx")
	is.True(ok && strings.Contains(res.Text, "STOPCTX-RAN"))
	is.True(strings.Contains(string(stops), `"stop_hook_active":true`))
	t.Logf("measured: how the context reached the model: %q", reqs[1].NewText())
}
