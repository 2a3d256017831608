//go:build linux || darwin

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/tidwall/gjson"
)

// smokeHook is a stand-in for bimri-hook: a shell script that logs each
// hook call (stdin, environment, cwd, a copy of the transcript as it was at
// that moment) into a folder and answers with canned JSON, so the harness
// can be proven without our binary. Its first argument is the event name.
const smokeHook = `#!/bin/sh
set -eu
ev="$1"
log="$(dirname "$0")/log"
mkdir -p "$log"
n=$(ls "$log" | grep -c "^$ev-[0-9]*\.json$" || true)
in="$log/$ev-$n.json"
cat > "$in"
{ echo "cwd=$(pwd)"; env | sort; } > "$log/$ev-$n.env"
tp=$(sed -n 's/.*"transcript_path": *"\([^"]*\)".*/\1/p' "$in" | head -n 1)
if [ -n "$tp" ] && [ -f "$tp" ]; then cp "$tp" "$log/$ev-$n.transcript.jsonl"; fi
src=$(sed -n 's/.*"source": *"\([^"]*\)".*/\1/p' "$in" | head -n 1)
case "$ev" in
SessionStart)
	printf '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"SMOKE-CONTEXT source=%s"}}\n' "$src"
	;;
Stop)
	# Block exactly once per sandbox, then let every later turn end.
	if [ ! -e "$log/blocked" ]; then
		touch "$log/blocked"
		cat "$(dirname "$0")/stop-block.json"
	else
		cat "$(dirname "$0")/stop-pass.json"
	fi
	;;
PreCompact)
	echo "SMOKE-PRECOMPACT-INSTRUCTIONS"
	;;
esac
`

// smokeBashMarker starts the command the Stop hook asks the model to run;
// the command then prints its cwd and CLAUDE_PROJECT_DIR so the test can
// see the environment of a Bash tool call.
const smokeBashMarker = "SMOKE-BASH-RAN"

var runCmdRE = regexp.MustCompile(`<<<(.+?)>>>`)

// writeSmokeHook writes the smoke hook and its canned answers into dir and
// returns the script's path; the hook logs into dir/log.
func writeSmokeHook(t *testing.T, dir string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "hook.sh")
	if err := os.WriteFile(script, []byte(smokeHook), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := smokeBashMarker + `; pwd; echo "CLAUDE_PROJECT_DIR=${CLAUDE_PROJECT_DIR:-unset}"`
	writeJSONFile(t, filepath.Join(dir, "stop-block.json"), map[string]any{
		"decision": "block",
		"reason":   "SMOKE-STOP-REASON: before stopping, run <<<echo " + cmd + ">>>",
	})
	writeJSONFile(t, filepath.Join(dir, "stop-pass.json"), map[string]any{"systemMessage": "SMOKE-SYSTEM-MESSAGE"})
	return script
}

// installSmokeHook writes the smoke hook into a temp folder and registers
// it for events in the workspace settings, as a user would. It returns the
// hook's log folder.
func installSmokeHook(t *testing.T, s *Sandbox, events ...string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "hook")
	script := writeSmokeHook(t, dir)
	s.WriteProjectSettings(t, hookSettings(func(ev string) string { return script + " " + ev }, events...))
	return filepath.Join(dir, "log")
}

// hookCall is one logged invocation of the smoke hook.
type hookCall struct {
	Event      string
	N          int
	Stdin      gjson.Result
	Env        map[string]string // plus "cwd"
	Transcript string            // the transcript file as the hook saw it, if any
}

// hookCalls reads the smoke hook's log for event, in call order.
func hookCalls(t *testing.T, logDir, event string) []hookCall {
	t.Helper()
	var calls []hookCall
	for n := 0; ; n++ {
		base := filepath.Join(logDir, fmt.Sprintf("%s-%d", event, n))
		in, err := os.ReadFile(base + ".json")
		if err != nil {
			return calls
		}
		c := hookCall{Event: event, N: n, Stdin: gjson.ParseBytes(in), Env: map[string]string{}}
		envText, _ := os.ReadFile(base + ".env")
		for _, line := range strings.Split(string(envText), "\n") {
			if k, v, ok := strings.Cut(line, "="); ok {
				c.Env[k] = v
			}
		}
		tr, _ := os.ReadFile(base + ".transcript.jsonl")
		c.Transcript = string(tr)
		calls = append(calls, c)
	}
}

// smokeScript is the fake model of the smoke test. It keeps no state: like
// a real model it decides from the conversation in the request.
//
//  1. Fresh prompt: Write NOTES.md.
//  2. Write's result arrived: say so and end the turn (Stop hook fires).
//  3. The Stop hook blocked asking for a command: run it with Bash.
//  4. Bash's result arrived: end the turn (Stop hook lets it stop).
func smokeScript(workspace string) Script {
	return func(r Recorded) Reply {
		if !r.IsMain() {
			return Reply{} // titles and compaction summaries: DefaultReply
		}
		if _, ok := r.ToolResult("toolu_smoke_bash"); ok {
			return TextReply("Recorded.")
		}
		if m := runCmdRE.FindStringSubmatch(r.NewText()); m != nil {
			return Reply{ToolUse: &ToolUse{ID: "toolu_smoke_bash", Name: "Bash",
				Input: map[string]string{"command": m[1], "description": "record memory"}}}
		}
		if _, ok := r.ToolResult("toolu_smoke_write"); ok {
			return TextReply("I wrote NOTES.md.")
		}
		return Reply{ToolUse: &ToolUse{ID: "toolu_smoke_write", Name: "Write", Input: map[string]string{
			"file_path": filepath.Join(workspace, "NOTES.md"),
			"content":   "# Notes\nDecided to use SQLite.\n",
		}}}
	}
}

// TestHarnessSmoke proves every piece of the harness the bimri-hook
// scenarios rely on, with a shell-script hook instead of our binary: hook
// context reaches the model, Stop can block and its reason reaches the
// model, systemMessage reaches the output, the model can run Bash, and
// /compact on a resumed session fires PreCompact and SessionStart(compact).
func TestHarnessSmoke(t *testing.T) {
	is := is.New(t)
	var s *Sandbox
	api := newFakeAPI(t, func(r Recorded) Reply { return smokeScript(s.Workspace)(r) })
	s = newSandbox(t, api)
	logDir := installSmokeHook(t, s, "SessionStart", "Stop", "SessionEnd", "PreCompact")

	run := s.Run(t, "Please write a NOTES.md recording that we chose SQLite",
		"--allowedTools", "Write", "Bash")
	t.Logf("first run: %v, %d model requests", run.Duration.Round(time.Millisecond), len(api.MessagesRequests()))
	is.True(run.SessionID != "") // session id from stream-json

	reqs := api.MainRequests()
	if len(reqs) != 4 {
		t.Fatalf("want 4 main requests (write, end turn, bash after the Stop block, end turn), got %d:\n%s", len(reqs), api.Summary())
	}
	// 1. SessionStart additionalContext is in the very first request.
	is.True(strings.Contains(reqs[0].ConversationText(), "SMOKE-CONTEXT source=startup"))
	// 2. The Stop block's reason reaches the model in the next request.
	is.True(strings.Contains(reqs[2].NewText(), "SMOKE-STOP-REASON"))
	// 3. The Bash tool ran (permitted by --allowedTools) and its output is
	// in the request after it.
	bash, ok := reqs[3].ToolResult("toolu_smoke_bash")
	is.True(ok)
	is.True(!bash.IsError)
	is.True(strings.Contains(bash.Text, smokeBashMarker))
	// 4. The Stop hook's systemMessage shows up in stream-json output.
	is.True(slices.Contains(run.Informational(), "Stop says: SMOKE-SYSTEM-MESSAGE"))
	is.Equal(run.Result().Get("result").String(), "Recorded.")
	_, err := os.Stat(filepath.Join(s.Workspace, "NOTES.md"))
	is.NoErr(err) // the Write tool ran

	stops := hookCalls(t, logDir, "Stop")
	is.Equal(len(stops), 2)
	is.Equal(stops[0].Stdin.Get("stop_hook_active").Bool(), false)
	is.Equal(stops[1].Stdin.Get("stop_hook_active").Bool(), true)
	is.Equal(len(hookCalls(t, logDir, "SessionEnd")), 1)

	// Compact the session in a second run, as a user typing /compact would.
	api.Reset()
	compact := s.Run(t, "/compact", "--resume", run.SessionID)
	t.Logf("compact run: %v, %d model requests", compact.Duration.Round(time.Millisecond), len(api.MessagesRequests()))
	pre := hookCalls(t, logDir, "PreCompact")
	is.Equal(len(pre), 1)
	is.Equal(pre[0].Stdin.Get("trigger").String(), "manual")
	var sources []string
	for _, c := range hookCalls(t, logDir, "SessionStart") {
		sources = append(sources, c.Stdin.Get("source").String())
	}
	t.Logf("SessionStart sources over both runs: %v", sources)
	for _, ev := range []string{"SessionStart", "PreCompact", "SessionEnd"} {
		for _, c := range hookCalls(t, logDir, ev) {
			t.Logf("%s-%d stdin keys %v", ev, c.N, jsonKeys(c.Stdin))
		}
	}
	is.True(len(sources) >= 2 && sources[len(sources)-1] == "compact")
	// PreCompact's stdout steers the summary: it is in the compaction request.
	var summaryReq *Recorded
	for _, r := range api.MessagesRequests() {
		if r.IsCompaction() {
			summaryReq = &r
		}
	}
	if summaryReq == nil {
		t.Fatalf("no compaction request among:\n%s", api.Summary())
	}
	is.True(summaryReq.Contains("SMOKE-PRECOMPACT-INSTRUCTIONS"))
}

// TestHarnessFacts measures the facts the bimri-hook design depends on and
// logs them (go test -v shows them); the ones the design relies on are
// asserted so a Claude Code upgrade that changes them fails loudly.
func TestHarnessFacts(t *testing.T) {
	is := is.New(t)
	var s *Sandbox
	api := newFakeAPI(t, func(r Recorded) Reply { return smokeScript(s.Workspace)(r) })
	s = newSandbox(t, api)
	events := []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"}
	logDir := installSmokeHook(t, s, events...)
	run := s.Run(t, "Please write a NOTES.md recording that we chose SQLite", "--allowedTools", "Write", "Bash")

	// (a) At Stop, is the turn's last tool_use already in the transcript?
	// Measured: the tool_use line always was (it is written before the tool
	// runs), but the tool_result and the final assistant text often were
	// not yet: the client appends them asynchronously and they land some
	// 10-50 ms after the hook starts. So only stdin's last_assistant_message
	// is asserted; the transcript is logged.
	stops := hookCalls(t, logDir, "Stop")
	is.Equal(len(stops), 2)
	for i, want := range []struct{ id, text string }{{"toolu_smoke_write", "I wrote NOTES.md."}, {"toolu_smoke_bash", "Recorded."}} {
		tr := stops[i].Transcript
		t.Logf("fact (a) Stop #%d: transcript at hook start has tool_use %s=%v, its tool_result=%v, last assistant text=%q (final is %q)",
			i, want.id, strings.Contains(tr, `"id":"`+want.id+`"`), strings.Contains(tr, `"tool_use_id":"`+want.id+`"`),
			lastAssistantText(tr), want.text)
		is.Equal(stops[i].Stdin.Get("last_assistant_message").String(), want.text) // stdin is complete even when the transcript lags
	}
	final, err := os.ReadFile(s.TranscriptPath(run.SessionID))
	is.NoErr(err)
	is.Equal(lastAssistantText(string(final)), "Recorded.") // the transcript catches up by the end of the run

	// (b) What a Bash tool command sees: measured, its cwd is the
	// workspace but CLAUDE_PROJECT_DIR is not set (only hooks get it); it
	// does get CLAUDE_CODE_SESSION_ID.
	var bashOut string
	for _, r := range api.MainRequests() {
		if b, ok := r.ToolResult("toolu_smoke_bash"); ok {
			bashOut = b.Text
		}
	}
	t.Logf("fact (b) Bash tool output (marker, pwd, CLAUDE_PROJECT_DIR): %q; workspace is %s", bashOut, s.Workspace)
	is.Equal(bashOut, smokeBashMarker+"\n"+s.Workspace+"\nCLAUDE_PROJECT_DIR=unset")

	// (c) Hook stdin and environment per event. The key sets matched the
	// fixtures in cmd/bimri-hook/testdata/hook-inputs exactly; asserted
	// here are only the fields bimri-hook reads.
	need := map[string][]string{
		"SessionStart": {"source"},
		"Stop":         {"stop_hook_active", "last_assistant_message"},
		"SessionEnd":   {"reason"},
	}
	for _, ev := range events {
		calls := hookCalls(t, logDir, ev)
		if len(calls) == 0 {
			t.Errorf("hook %s never ran", ev)
		}
		for _, c := range calls {
			t.Logf("fact (c) %s-%d stdin keys %v; hook cwd=%s CLAUDE_PROJECT_DIR=%s", ev, c.N, jsonKeys(c.Stdin), c.Env["cwd"], c.Env["CLAUDE_PROJECT_DIR"])
			is.Equal(c.Stdin.Get("hook_event_name").String(), ev)
			is.Equal(c.Stdin.Get("session_id").String(), run.SessionID)
			is.Equal(c.Stdin.Get("transcript_path").String(), s.TranscriptPath(run.SessionID))
			is.Equal(c.Stdin.Get("cwd").String(), s.Workspace)
			is.Equal(c.Env["CLAUDE_PROJECT_DIR"], s.Workspace) // hooks get the project root
			for _, k := range need[ev] {
				if !c.Stdin.Get(k).Exists() {
					t.Errorf("%s hook stdin lacks %q: %s", ev, k, c.Stdin.Raw)
				}
			}
		}
	}

	// (d) Wall time of one run.
	t.Logf("fact (d) one claude -p run with 4 model requests and 2 tool calls took %v", run.Duration.Round(time.Millisecond))
}

// TestHarnessTrustedWorkspace checks that newSandbox's trust mark is what
// the client wants: a permissions.allow rule in the project's settings
// lets the model run a command that is not read-only, as bimri-hook's
// installation will rely on.
func TestHarnessTrustedWorkspace(t *testing.T) {
	is := is.New(t)
	var s *Sandbox
	api := newFakeAPI(t, func(r Recorded) Reply {
		if !r.IsMain() {
			return Reply{}
		}
		if res, ok := r.ToolResult("toolu_touch"); ok {
			return TextReply("result: " + res.Text)
		}
		return Reply{ToolUse: &ToolUse{ID: "toolu_touch", Name: "Bash",
			Input: map[string]string{"command": "touch " + filepath.Join(s.Workspace, "marker"), "description": "touch"}}}
	})
	s = newSandbox(t, api)
	s.WriteProjectSettings(t, map[string]any{"permissions": map[string]any{"allow": []string{"Bash(touch:*)"}}})
	run := s.Run(t, "touch the marker")
	_, err := os.Stat(filepath.Join(s.Workspace, "marker"))
	if err != nil {
		t.Fatalf("the project's allow rule did not let Bash run (%v); result: %s\nrequests:\n%s", err, run.Result().Get("result"), api.Summary())
	}
	is.Equal(len(run.Result().Get("permission_denials").Array()), 0)
}

// jsonKeys lists the keys of a JSON object, sorted.
func jsonKeys(obj gjson.Result) []string {
	var keys []string
	obj.ForEach(func(k, _ gjson.Result) bool { keys = append(keys, k.String()); return true })
	sort.Strings(keys)
	return keys
}

// TestHarnessPlugin checks that hooks load from a plugin folder given with
// --plugin-dir (how bimri-hook is meant to be installed), that
// ${CLAUDE_PLUGIN_ROOT} expands in the command and that the hook gets
// CLAUDE_PLUGIN_ROOT and CLAUDE_PLUGIN_DATA.
func TestHarnessPlugin(t *testing.T) {
	is := is.New(t)
	api := newFakeAPI(t, nil)
	s := newSandbox(t, api)
	plugin := filepath.Join(t.TempDir(), "smoke-plugin")
	writeSmokeHook(t, plugin)
	writePlugin(t, plugin, "smoke", hookSettings(func(ev string) string { return "${CLAUDE_PLUGIN_ROOT}/hook.sh " + ev }, "SessionStart"))
	run := s.Run(t, "hello", "--plugin-dir", plugin)
	t.Logf("plugin run: %v", run.Duration.Round(time.Millisecond))
	is.Equal(run.Result().Get("result").String(), "OK.")
	reqs := api.MainRequests()
	if len(reqs) != 1 {
		t.Fatalf("want 1 main request, got %d:\n%s", len(reqs), api.Summary())
	}
	is.True(strings.Contains(reqs[0].ConversationText(), "SMOKE-CONTEXT source=startup"))
	calls := hookCalls(t, filepath.Join(plugin, "log"), "SessionStart")
	is.Equal(len(calls), 1)
	is.Equal(calls[0].Env["CLAUDE_PLUGIN_ROOT"], plugin)
	t.Logf("plugin hook env: CLAUDE_PLUGIN_ROOT=%s CLAUDE_PLUGIN_DATA=%s", calls[0].Env["CLAUDE_PLUGIN_ROOT"], calls[0].Env["CLAUDE_PLUGIN_DATA"])
	is.True(strings.HasPrefix(calls[0].Env["CLAUDE_PLUGIN_DATA"], filepath.Join(s.Home, ".claude", "plugins", "data")))
}

// lastAssistantText returns the text of the last assistant text block in a
// transcript.
func lastAssistantText(transcript string) string {
	var last string
	for _, line := range strings.Split(transcript, "\n") {
		ev := gjson.Parse(line)
		if ev.Get("type").String() != "assistant" {
			continue
		}
		for _, c := range ev.Get("message.content").Array() {
			if c.Get("type").String() == "text" {
				last = c.Get("text").String()
			}
		}
	}
	return last
}

// TestHarnessConcurrentSessions checks fact (e): two claude -p sessions in
// the same workspace at the same time. The fake model holds each reply until
// both sessions have asked, so the runs provably overlap.
func TestHarnessConcurrentSessions(t *testing.T) {
	is := is.New(t)
	var (
		mu      sync.Mutex
		waiting = map[string]bool{}
		both    = make(chan struct{})
	)
	api := newFakeAPI(t, func(r Recorded) Reply {
		if !r.IsMain() {
			return Reply{}
		}
		mu.Lock()
		waiting[r.Header.Get("X-Claude-Code-Session-Id")] = true
		if len(waiting) == 2 {
			select {
			case <-both:
			default:
				close(both)
			}
		}
		mu.Unlock()
		select {
		case <-both:
		case <-time.After(30 * time.Second):
			t.Errorf("the two sessions never had a request in flight together")
		}
		return TextReply("OK.")
	})
	s := newSandbox(t, api)
	installSmokeHook(t, s, "SessionStart", "SessionEnd")
	results := make([]*RunResult, 2)
	start := time.Now()
	// Parallel subtests rather than goroutines: runClaude may call
	// t.Fatalf, which must run on its test's own goroutine. t.Run of the
	// group returns only when both have finished.
	t.Run("sessions", func(t *testing.T) {
		for i := range results {
			t.Run(fmt.Sprint(i), func(t *testing.T) {
				t.Parallel()
				results[i] = runClaude(t, s.Options(fmt.Sprintf("hello from session %d", i)))
			})
		}
	})
	t.Logf("fact (e) two concurrent runs in one workspace took %v in all", time.Since(start).Round(time.Millisecond))
	for _, r := range results {
		is.True(r != nil) // every session ran
		is.Equal(r.Result().Get("result").String(), "OK.")
	}
	is.True(results[0].SessionID != results[1].SessionID)
}

// TestHarnessRecordedHelpers checks the request helpers scripts rely on
// against a hand-written request, without running the client.
func TestHarnessRecordedHelpers(t *testing.T) {
	is := is.New(t)
	body := map[string]any{
		"model": "m", "stream": true,
		"system": []any{map[string]any{"type": "text", "text": "You are a test."}},
		"tools":  []any{map[string]any{"name": "Bash"}},
		"messages": []any{
			map[string]any{"role": "user", "content": "hi <<<echo x>>>"},
			map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": "t1", "name": "Bash", "input": map[string]any{"command": "echo x"}}}},
			map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": "t1",
				"content": []any{map[string]any{"type": "text", "text": "x"}}}}},
		},
	}
	b, err := json.Marshal(body)
	is.NoErr(err)
	r := Recorded{Method: "POST", Path: "/v1/messages", Body: b}
	is.True(r.IsMain())
	is.True(r.Stream())
	is.True(!r.IsCompaction())
	is.Equal(r.System(), "You are a test.")
	res, ok := r.ToolResult("t1")
	is.True(ok)
	is.Equal(res.Text, "x")
	is.Equal(len(r.Messages()), 3)
	is.Equal(r.Messages()[1].Blocks[0].Name, "Bash")
	is.True(r.Contains("<<<echo x>>>"))
	is.True(!strings.Contains(r.ConversationText(), "You are a test."))
}
