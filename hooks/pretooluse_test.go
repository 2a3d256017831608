package hooks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/internal/approve"
	"github.com/bimri/bimri-hook/internal/recall"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
	"github.com/bimri/bimri-hook/wiring"
)

// taughtCommands are the commands the hooks give the agent, found in
// everything they say to it, with their placeholders filled in as a
// model fills them.
func taughtCommands(t *testing.T, env Env) []string {
	t.Helper()
	archived := recall.Hit{Item: recall.Item{ID: "77e0d4a1", Date: env.Today, Importance: 3, Text: "x", ArchivedOn: env.Today, Reason: "faded"}}
	texts := []string{
		instructions(env),
		intake(env),
		unreadInstructions(env),
		nudgeReason(env),
		recallContext(env, []recall.Hit{archived}, nil, func(recall.Item) bool { return false }),
		command(env, "remember", "--promote 3f9a1c2b"),
		command(env, "remember", "--tier 3 --tags tag1 -- \"The insight.\""),
	}
	fill := strings.NewReplacer("NOTE-ID", "n-0001", "ID,ID,...", "3f9a1c2b,77e0d4a1", " ID", " 3f9a1c2b",
		"--importance N", "--importance 3")
	start := wiring.ShellWord(env.Binary) + " "
	var cmds []string
	for _, text := range texts {
		for _, line := range strings.Split(text, "\n") {
			for {
				i := strings.Index(line, start)
				if i < 0 {
					break
				}
				cmd := line[i:]
				line = line[i+len(start):]
				// A command, not prose: every taught command names the
				// workspace, after its sub-command.
				if f := strings.Fields(line); len(f) < 2 || f[1] != "--dir" {
					continue
				}
				if j := strings.IndexByte(cmd, '`'); j >= 0 {
					cmd = cmd[:j]
				}
				cmds = append(cmds, fill.Replace(strings.TrimSpace(cmd)))
			}
		}
	}
	return cmds
}

// Every command the hooks teach, for every sub-command, is approved when
// the agent runs it as taught; the same command chained to another is
// not.
func TestPreToolUseApprovesWhatTheHooksTeach(t *testing.T) {
	for _, binary := range []string{"bimri-hook", "/opt/bin/bimri-hook", `C:\Users\dev\my tools\bimri-hook.exe`} {
		root := filepath.Join(t.TempDir(), "my project")
		if err := os.MkdirAll(root, 0o755); err != nil {
			t.Fatal(err)
		}
		store, err := store.OpenStore(root, memfile.DefaultConfig(), store.StoreOptions{})
		if err != nil {
			t.Fatal(err)
		}
		env := Env{Store: store, Binary: binary, Today: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)}
		cmds := taughtCommands(t, env)
		seen := map[string]bool{}
		for _, cmd := range cmds {
			seen[strings.Fields(strings.TrimPrefix(cmd, wiring.ShellWord(binary)+" "))[0]] = true
			out := PreToolUse(approve.Session{Binary: binary, Workspace: root}, Input{Event: "PreToolUse", ToolName: "Bash", Command: cmd})
			if decision(out) != "allow" {
				t.Errorf("taught but not approved: %s", cmd)
			}
			for _, hostile := range []string{cmd + "; id", cmd + " && id", cmd + " > /tmp/x", cmd + " $(id)", "id; " + cmd} {
				if out := PreToolUse(approve.Session{Binary: binary, Workspace: root}, Input{Event: "PreToolUse", ToolName: "Bash", Command: hostile}); out.JSON != nil {
					t.Errorf("approved %q", hostile)
				}
			}
		}
		for _, sub := range wiring.MemoryCommands {
			if !seen[sub] {
				t.Errorf("the hooks never teach %s, yet wiring.MemoryCommands lists it (found %q)", sub, cmds)
			}
		}
	}
}

// Any other call gets no answer at all, so the client decides it as it
// would without the plugin: the real PreToolUse payload of a Bash call,
// and a Write.
func TestPreToolUseAnswersNothingElse(t *testing.T) {
	for _, name := range []string{"PreToolUse-Bash.json", "PreToolUse-Write.json"} {
		data, err := os.ReadFile(filepath.Join("..", "cmd", "bimri-hook", "testdata", "hook-inputs", name))
		if err != nil {
			t.Fatal(err)
		}
		in, err := Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		if out := PreToolUse(approve.Session{Binary: "bimri-hook", Workspace: "/p"}, in); out.JSON != nil || out.Text != "" {
			t.Errorf("%s: answered %v", name, out)
		}
	}
	in, err := Decode([]byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"bimri-hook remember --dir /p -- \"x\""}}`))
	if err != nil {
		t.Fatal(err)
	}
	if decision(PreToolUse(approve.Session{Binary: "bimri-hook", Workspace: "/p"}, in)) != "allow" {
		t.Error("the decoded payload of a taught command was not approved")
	}
}

func decision(out Output) string {
	hso, _ := out.JSON["hookSpecificOutput"].(map[string]any)
	d, _ := hso["permissionDecision"].(string)
	return d
}
