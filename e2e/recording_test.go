//go:build linux || darwin

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/wiring"
	"github.com/matryer/is"
	"github.com/tidwall/gjson"
)

// The fake model of scenario 2, which records what it did with the
// remember command (or MCP tool) the Stop hook names, and the checks of
// what reached bimri.md.

// rememberFromBlock finds, in the text a model received, the Stop hook's
// nudge and in it the remember command line. ok is false when the text
// holds no nudge.
func rememberFromBlock(text string) (line string, ok bool) {
	i := strings.Index(text, stopBlockMarker)
	if i < 0 {
		return "", false
	}
	rest := text[i+len(stopBlockMarker):]
	for _, l := range strings.Split(rest, "\n") {
		if strings.Contains(l, " remember ") {
			// The nudge is one line (the user sees it whole): a sentence,
			// then after ": " the command, as a model reads it.
			parts := strings.Split(l, ": ")
			for j := len(parts) - 1; j >= 0; j-- {
				if strings.Contains(parts[j], " remember ") {
					return strings.TrimSpace(strings.Join(parts[j:], ": ")), true
				}
			}
		}
	}
	return "", true
}

// placeholders are the parts of the remember command bimri-hook leaves for
// the model to fill in: the importance, the tags and the quoted summary.
var (
	importancePlaceholder = regexp.MustCompile(`--importance N\b`)
	tagsPlaceholder       = regexp.MustCompile(`--tags \S+`)
	summaryPlaceholder    = regexp.MustCompile(`"[^"]*"$`)
)

// note is what a fake model records: the importance, tags and text it puts
// in place of the placeholders.
type note struct {
	Importance int
	Tags       string // comma-separated
	Text       string // no double quotes, $ or backquotes: it goes in "..."
}

// fillRemember does what a model does with the command it was given: keeps
// it as it is and fills in the placeholders. It fails when a placeholder is
// missing, since a model could then not follow the instructions.
func fillRemember(line string, n note) (string, error) {
	for _, p := range []*regexp.Regexp{importancePlaceholder, tagsPlaceholder, summaryPlaceholder} {
		if !p.MatchString(line) {
			return "", fmt.Errorf("the remember command %q has no placeholder matching %s", line, p)
		}
	}
	line = importancePlaceholder.ReplaceAllLiteralString(line, "--importance "+strconv.Itoa(n.Importance))
	line = tagsPlaceholder.ReplaceAllLiteralString(line, "--tags "+n.Tags)
	return summaryPlaceholder.ReplaceAllLiteralString(line, `"`+n.Text+`"`), nil
}

// Tool-use IDs of the recording model.
const (
	writeID    = "toolu_write"
	rememberID = "toolu_remember"
	searchID   = "toolu_search"
)

// recordingModel is the fake model of scenario 2: asked to, it writes file
// (real work, so the Stop hook blocks); when the block arrives it makes
// the remember call it names, filled in with n: the command, run with
// Bash, or the MCP tool (loaded with ToolSearch first, as the client asks
// of a deferred tool); then it finishes.
func recordingModel(t *testing.T, file string, n note) modelScript {
	return func(s *Sandbox, r Recorded) Reply {
		if !r.IsMain() {
			return Reply{}
		}
		if _, ok := r.ToolResult(rememberID); ok {
			return TextReply("Recorded.")
		}
		if reply, ok := callRememberTool(t, r, n); ok {
			return reply
		}
		if line, ok := rememberFromBlock(r.NewText()); ok {
			cmd, err := fillRemember(line, n)
			if err != nil {
				t.Errorf("the Stop block gave no usable remember command: %v\n%s", err, r.NewText())
				return TextReply("I cannot record this.")
			}
			return Reply{ToolUse: &ToolUse{ID: rememberID, Name: "Bash",
				Input: map[string]string{"command": cmd, "description": "Record what this session did in bimri.md"}}}
		}
		if _, ok := r.ToolResult(writeID); ok {
			return TextReply("I wrote " + file + ".")
		}
		return Reply{ToolUse: &ToolUse{ID: writeID, Name: "Write", Input: map[string]string{
			"file_path": filepath.Join(s.Workspace, file),
			"content":   "# Notes\n\n" + n.Text + "\n",
		}}}
	}
}

// rememberToolCall is the MCP form of the nudge's remember call:
// `mcp__..._remember` with {ARGS}.
var rememberToolCall = regexp.MustCompile("`(mcp__[^`]+__remember)` with (\\{[^{}]*\\})")

// callRememberTool is the recording model's answer to a nudge that names
// the MCP remember tool, from the request that brought the nudge or the
// ToolSearch result after it; ok is false when the nudge names no tool.
func callRememberTool(t *testing.T, r Recorded, n note) (Reply, bool) {
	conv := r.ConversationText()
	i := strings.LastIndex(conv, stopBlockMarker)
	_, searched := r.ToolResult(searchID)
	if i < 0 || !(searched || strings.Contains(r.NewText(), stopBlockMarker)) {
		return Reply{}, false
	}
	m := rememberToolCall.FindStringSubmatch(conv[i:])
	if m == nil {
		return Reply{}, false
	}
	name := m[1]
	if !slices.Contains(toolNames(r), name) {
		if searched {
			t.Errorf("ToolSearch did not load %s; the request's tools: %v", name, toolNames(r))
			return TextReply("I cannot record this."), true
		}
		return Reply{ToolUse: &ToolUse{ID: searchID, Name: "ToolSearch", Input: map[string]any{"query": "select:" + name, "max_results": 5}}}, true
	}
	var args map[string]any
	if err := json.Unmarshal([]byte(strings.Replace(m[2], `"importance": N`, `"importance": 0`, 1)), &args); err != nil {
		t.Errorf("the Stop block's tool call %s has arguments that are not JSON once filled in: %v", m[0], err)
		return TextReply("I cannot record this."), true
	}
	for _, k := range []string{"text", "importance", "tags"} {
		if _, ok := args[k]; !ok {
			t.Errorf("the Stop block's tool call %s has no %q to fill in", m[0], k)
		}
	}
	args["text"], args["importance"], args["tags"] = n.Text, n.Importance, strings.Split(n.Tags, ",")
	return Reply{ToolUse: &ToolUse{ID: rememberID, Name: name, Input: args}}, true
}

// toolNames are the names in a request's tools array: the tools the
// client gave the model, deferred ones once ToolSearch loaded them.
func toolNames(r Recorded) []string {
	var names []string
	for _, n := range r.Get("tools.#.name").Array() {
		names = append(names, n.String())
	}
	return names
}

// rememberCallRun returns the model's remember call with rememberID
// that the client ran (a Bash call, or an MCP tool's), and its result,
// from the request that carries the result.
func rememberCallRun(reqs []Recorded) (call, result Block, ok bool) {
	for _, r := range reqs {
		res, found := r.ToolResult(rememberID)
		if !found {
			continue
		}
		for _, m := range r.Messages() {
			for _, b := range m.Blocks {
				if b.Type == "tool_use" && b.ID == rememberID {
					call = b
				}
			}
		}
		return call, res, true
	}
	return Block{}, Block{}, false
}

// sessionsAt is a sandbox's Sessions count as the fake model saw it while
// the session ran, before SessionEnd.
type sessionsAt struct {
	mu       sync.Mutex
	sessions int
	seen     bool
}

func (s *sessionsAt) record(workspace string) {
	data, err := os.ReadFile(filepath.Join(workspace, memfile.MemoryName))
	if err != nil {
		return
	}
	f, _, err := memfile.Parse(data)
	if err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sessions, s.seen = f.Header.Sessions, true
}

func (s *sessionsAt) get() (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sessions, s.seen
}

// seedMemory writes a bimri.md that has already lived through sessions
// sessions and knows one Tier 1 fact, so the workspace is not new.
func seedMemory(t *testing.T, workspace string, sessions int) {
	t.Helper()
	f := memfile.New(memfile.DefaultConfig())
	if _, _, err := f.Add(memfile.NewEntry{Tier: 1, Importance: 5, Date: today(t).AddDate(0, -2, 0),
		Tags: []string{"project"}, Text: "This project is a command-line tool for tracking household expenses."}); err != nil {
		t.Fatal(err)
	}
	f.Header.Sessions = sessions
	writeMemory(t, workspace, f)
}

// checkRecordedSession checks scenario 2's outcome for one run in which the
// recording model recorded n in workspace with the command prefix
// rememberPrefix, or the MCP tool of that name (mcp__...), and the session
// count was sessionsBefore while it ran.
func checkRecordedSession(t *testing.T, run *RunResult, reqs []Recorded, workspace, rememberPrefix string, n note, sessionsBefore int) {
	t.Helper()
	is := is.NewRelaxed(t)

	// The Stop hook blocked exactly once, and its reason held the command.
	blocks := 0
	for _, r := range reqs {
		if strings.Contains(r.NewText(), stopBlockMarker) {
			blocks++
		}
	}
	is.Equal(blocks, 1) // the Stop hook nudges once

	// The model made the call it was given, and it worked without a
	// permission prompt.
	call, res, ok := rememberCallRun(reqs)
	if !ok {
		t.Fatalf("the model never got the result of its remember call; requests:\n%s", summarize(reqs))
	}
	if strings.HasPrefix(rememberPrefix, "mcp__") {
		is.Equal(call.Name, rememberPrefix)                           // the tool the hooks named
		is.Equal(gjson.GetBytes(call.Input, "text").String(), n.Text) // sent as JSON, no shell
	} else {
		cmd := gjson.GetBytes(call.Input, "command").String()
		if !strings.HasPrefix(cmd, rememberPrefix+" ") {
			t.Errorf("the remember command run was %q; want it to start with %q, the prefix the permission rule allows", cmd, rememberPrefix)
		}
		// The model's Bash gets no CLAUDE_PROJECT_DIR, so the command must
		// name the workspace itself.
		if dir := " --dir " + wiring.ShellWord(workspace) + " "; !strings.Contains(cmd, dir) {
			t.Errorf("the remember command run was %q; want it to hold %q", cmd, dir)
		}
	}
	if res.IsError {
		t.Errorf("remember failed: %s", res.Text)
	}
	is.Equal(len(run.Result().Get("permission_denials").Array()), 0) // remember needed no prompt

	// The entry is in bimri.md, once, as recorded; the backup exists.
	f, raw := readMemory(t, workspace)
	got := entriesWith(f, n.Text)
	if len(got) != 1 {
		t.Fatalf("want the entry %q once in bimri.md, found %d:\n%s", n.Text, len(got), raw)
	}
	is.Equal(got[0].Importance, n.Importance)
	is.Equal(got[0].Tags, sortedTags(n.Tags)) // bimri.md keeps tags sorted
	// The session recorded, so SessionEnd must not add a fallback entry.
	if auto := taggedEntries(f, "auto"); len(auto) != 0 {
		t.Errorf("SessionEnd wrote a fallback entry although the session recorded one: %q", auto[0].Text)
	}
	if _, err := os.Stat(filepath.Join(workspace, memfile.BackupName)); err != nil {
		t.Errorf("no backup: %v", err)
	}

	// The user was told, and the session stopped with the model's last
	// answer.
	if !toldUpdated(run) {
		t.Errorf(`the user was not told "BIMRI updated"; system messages: %q`, run.Informational())
	}
	is.Equal(run.Result().Get("subtype").String(), "success")
	is.Equal(run.Result().Get("result").String(), "Recorded.") // the session stopped after recording
	if _, ok := reqs[len(reqs)-1].ToolResult(rememberID); !ok {
		t.Errorf("the session went on after the model recorded; requests:\n%s", summarize(reqs))
	}

	// Sessions went up by exactly one, at SessionEnd.
	is.Equal(f.Header.Sessions, sessionsBefore+1)
}

// toldUpdated reports whether the client showed the user the Stop hook's
// "BIMRI updated" message.
func toldUpdated(run *RunResult) bool {
	for _, m := range run.Informational() {
		if strings.HasPrefix(m, "Stop says: BIMRI updated") {
			return true
		}
	}
	return false
}

// sortedTags splits comma-separated tags into the sorted list bimri.md
// keeps.
func sortedTags(tags string) []string {
	out := strings.Split(tags, ",")
	slices.Sort(out)
	return out
}

// summarize lists requests one line each for failure messages.
func summarize(reqs []Recorded) string {
	var b strings.Builder
	for _, r := range reqs {
		fmt.Fprintf(&b, "#%d new=%.200q\n", r.Seq, r.NewText())
	}
	return b.String()
}
