package hooks

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

// FuzzDecode feeds the hook input decoder arbitrary bytes. Whatever comes
// on stdin, Decode must not panic, and it must either fail or return an
// Input the handlers can trust: an event name, and a cwd that is empty or
// absolute. An accepted Input, written back as JSON, must decode to itself.
func FuzzDecode(f *testing.F) {
	seeds := []string{
		`{"hook_event_name":"SessionStart","session_id":"s","cwd":"/home/dev/proj","source":"startup"}`,
		`{"hook_event_name":"Stop","session_id":"s","cwd":"/p","stop_hook_active":true,"transcript_path":"/p/t.jsonl"}`,
		`{"hook_event_name":"UserPromptSubmit","cwd":"/p","prompt":"run BIMRI maintenance \u00e9 \ud83d\ude00"}`,
		`{"hook_event_name":"SessionEnd","reason":"other","cwd":"relative/dir"}`,
		`{"hook_event_name":"PreCompact","trigger":"manual","cwd":null,"stop_hook_active":"true"}`,
		`{"hook_event_name":["x"],"cwd":{"a":1}}`,
		`{"hook_event_name":"Stop","hook_event_name":"SessionEnd"}`,
		"{\"hook_event_name\":\"Stop\",\"prompt\":\"\xff\xfe\"}",
		`{"hook_event_name":"\u0000","cwd":"/\u0000"}`,
		`[]`, `null`, `"SessionStart"`, `{`, ``, ` `,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	// The real payloads Claude Code sent, when the command's fixtures are
	// there to read.
	real, _ := filepath.Glob(filepath.Join("..", "cmd", "bimri-hook", "testdata", "hook-inputs", "*.json"))
	for _, path := range real {
		if data, err := os.ReadFile(path); err == nil {
			f.Add(data)
		}
	}

	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := Decode(data)
		if err != nil {
			if in != (Input{}) {
				t.Fatalf("Decode failed (%v) but returned %+v", err, in)
			}
			return
		}
		if len(data) > maxInput {
			t.Fatalf("Decode accepted %d bytes, over MaxInput", len(data))
		}
		if in.Event == "" {
			t.Fatalf("Decode accepted an input without an event: %q", data)
		}
		if in.Cwd != "" && !filepath.IsAbs(in.Cwd) {
			t.Fatalf("Decode accepted a relative cwd %q", in.Cwd)
		}

		// Round trip, where JSON can carry the strings unchanged.
		for _, s := range []string{string(in.Event), in.SessionID, in.TranscriptPath, in.Cwd, in.Source, in.Reason, in.Trigger, in.Prompt, in.ToolName, in.Command} {
			if !utf8.ValidString(s) {
				return
			}
		}
		again, err := json.Marshal(map[string]any{
			"hook_event_name": in.Event, "session_id": in.SessionID, "transcript_path": in.TranscriptPath,
			"cwd": in.Cwd, "source": in.Source, "reason": in.Reason, "trigger": in.Trigger,
			"prompt": in.Prompt, "stop_hook_active": in.StopHookActive,
			"tool_name": in.ToolName, "tool_input": map[string]any{"command": in.Command},
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(again) > maxInput {
			return // escaping made it longer than the decoder takes
		}
		back, err := Decode(again)
		if err != nil {
			t.Fatalf("Decode rejected its own output %s: %v", again, err)
		}
		if back != in {
			t.Fatalf("round trip changed the input:\n got %+v\nwant %+v", back, in)
		}
	})
}
