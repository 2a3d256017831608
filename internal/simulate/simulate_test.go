package simulate

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/bimri/bimri-hook/hooks"
	"github.com/bimri/bimri-hook/internal/event"
	"github.com/matryer/is"
	"github.com/tidwall/gjson"
)

// TestSimulatedPayloadsMatchTheClient holds the payloads simulate builds
// against the ones Claude Code 2.1.328 sent: every key simulate writes is
// one the client writes for that event, in the client's order, and the
// decoder reads back what was put in.
func TestSimulatedPayloadsMatchTheClient(t *testing.T) {
	fixtures := map[event.Name]string{
		"SessionStart":     "SessionStart-startup.json",
		"UserPromptSubmit": "UserPromptSubmit.json",
		"Stop":             "Stop.json",
		"PreCompact":       "PreCompact-manual.json",
		"SessionEnd":       "SessionEnd-other.json",
		"SubagentStop":     "SubagentStop.json",
		"SubagentStart":    "SubagentStart.json",
	}
	for _, ev := range Events {
		t.Run(string(ev), func(t *testing.T) {
			is := is.New(t)
			real, err := os.ReadFile(filepath.Join("..", "..", "cmd", "bimri-hook", "testdata", "hook-inputs", fixtures[ev]))
			is.NoErr(err)
			built := Payload(hooks.Input{Event: ev, SessionID: DefaultSession, TranscriptPath: "/home/dev/.claude/projects/-home-dev-proj/s.jsonl",
				Cwd: "/home/dev/proj", Source: "startup", Reason: "other", Trigger: "manual", Prompt: "run BIMRI maintenance", StopHookActive: true})
			is.True(gjson.ValidBytes(built))

			realKeys := keysOf(real)
			builtKeys := keysOf(built)
			var shared []string
			for _, k := range realKeys {
				if slices.Contains(builtKeys, k) {
					shared = append(shared, k)
				}
			}
			is.Equal(builtKeys, shared) // no invented keys, and the client's order

			in, err := hooks.Decode(built)
			is.NoErr(err)
			is.Equal(in.Event, ev)
			is.Equal(in.SessionID, DefaultSession)
			is.Equal(in.Cwd, "/home/dev/proj")
			switch ev {
			case "SessionStart":
				is.Equal(in.Source, "startup")
			case "UserPromptSubmit":
				is.Equal(in.Prompt, "run BIMRI maintenance")
			case "Stop", "SubagentStop":
				is.True(in.StopHookActive)
			case "PreCompact":
				is.Equal(in.Trigger, "manual")
			case "SessionEnd":
				is.Equal(in.Reason, "other")
			}
		})
	}
}

func keysOf(data []byte) []string {
	var keys []string
	gjson.ParseBytes(data).ForEach(func(k, _ gjson.Result) bool {
		keys = append(keys, k.String())
		return true
	})
	return keys
}

func TestTranscriptPathIsTheClients(t *testing.T) {
	is := is.New(t)
	t.Setenv("CLAUDE_CONFIG_DIR", "/home/dev/.claude")
	is.Equal(transcriptFor("/home/dev/my proj.v2", "abc"), filepath.FromSlash("/home/dev/.claude/projects/-home-dev-my-proj-v2/abc.jsonl"))
}
