package hooks

import (
	"fmt"
	"testing"

	"github.com/bimri/bimri-hook/internal/event"
	"github.com/bimri/bimri-hook/memfile"
)

// Codex's Stop reads no additionalContext: a nudge goes out as a block
// with the nudge as its reason; anything else, and every other client's
// answer, goes out as the handler gave it.
func TestOutputForCodex(t *testing.T) {
	nudge := additionalContext(event.Stop, "record what you did")
	got := nudge.ForAgent(Input{Event: event.Stop, Agent: AgentCodex})
	if got.JSON["decision"] != "block" || got.JSON["reason"] != "record what you did" || got.JSON["hookSpecificOutput"] != nil {
		t.Fatalf("Codex's Stop nudge: %v", got.JSON)
	}
	if got := nudge.ForAgent(Input{Event: event.Stop}); got.JSON["hookSpecificOutput"] == nil {
		t.Fatalf("Claude Code's Stop nudge changed: %v", got.JSON)
	}
	msg := systemMessage("BIMRI updated")
	if got := msg.ForAgent(Input{Event: event.Stop, Agent: AgentCodex}); got.JSON["systemMessage"] != "BIMRI updated" {
		t.Fatalf("Codex's Stop message: %v", got.JSON)
	}
	start := additionalContext(event.SessionStart, "the memory")
	if got := start.ForAgent(Input{Event: event.SessionStart, Agent: AgentCodex}); got.JSON["hookSpecificOutput"] == nil {
		t.Fatalf("Codex's SessionStart context: %v", got.JSON)
	}
}

// Gemini's event names become ours on the way in and Gemini's again on
// the way out; its stdout is always one JSON object, so plain text
// becomes an empty answer.
func TestGeminiEvents(t *testing.T) {
	in := Input{Event: "BeforeAgent", Prompt: "hi"}.FromAgent(AgentGemini)
	if in.Event != event.UserPromptSubmit || in.Agent != AgentGemini {
		t.Fatalf("BeforeAgent read as %q from %q", in.Event, in.Agent)
	}
	if got := (Input{Event: "PreCompress"}).FromAgent(AgentGemini).Event; got != "PreCompress" {
		t.Fatalf("PreCompress, which fires every turn, read as %q", got)
	}
	// A non-interactive run puts SessionStart's context before the
	// user's words: recall reads the words alone.
	withContext := Input{Event: "BeforeAgent", Prompt: "<hook_context># BIMRI memory\nSQLite</hook_context>\n\nWhich cache?"}
	if got := withContext.FromAgent(AgentGemini).Prompt; got != "Which cache?" {
		t.Fatalf("Gemini's prompt read as %q", got)
	}
	if got := withContext.FromAgent(AgentCodex).Prompt; got != withContext.Prompt {
		t.Fatalf("Codex's prompt changed to %q", got)
	}
	if got := (Input{Event: "BeforeAgent"}).FromAgent(AgentCodex).Event; got != "BeforeAgent" {
		t.Fatalf("Codex's event renamed to %q", got)
	}
	ctx := additionalContext(event.UserPromptSubmit, "recalled").ForAgent(in)
	spec, _ := ctx.JSON["hookSpecificOutput"].(map[string]any)
	if spec["hookEventName"] != "BeforeAgent" || spec["additionalContext"] != "recalled" {
		t.Fatalf("Gemini's BeforeAgent answer: %v", ctx.JSON)
	}
	text := Output{Text: compactInstructions}.ForAgent(Input{Event: event.PreCompact, Agent: AgentGemini})
	if text.Text != "" || text.JSON == nil || len(text.JSON) != 0 {
		t.Fatalf("Gemini's PreCompress answer: %+v", text)
	}
	if got := (Output{Text: "x"}).ForAgent(Input{Event: event.PreCompact}); got.Text != "x" {
		t.Fatalf("Claude Code's PreCompact answer changed: %+v", got)
	}
}

// Cursor's event names become ours, and its transcript, a format of its
// own, is not read as Claude Code's.
func TestCursorInput(t *testing.T) {
	in := Input{Event: "sessionEnd", TranscriptPath: "/p/t.jsonl"}
	if got := in.FromAgent(AgentCursor); got.Event != event.SessionEnd || got.TranscriptPath != "" {
		t.Fatalf("Cursor's sessionEnd read as %q with transcript %q", got.Event, got.TranscriptPath)
	}
	if got := in.FromAgent(AgentCodex); got.TranscriptPath != in.TranscriptPath {
		t.Fatalf("Codex's transcript path changed to %q", got.TranscriptPath)
	}
}

// Copilot reads a hook's context from a top-level additionalContext and
// ignores hookSpecificOutput (1.0.102); plain text becomes {}.
func TestCopilotOutput(t *testing.T) {
	in := Input{Event: event.SessionStart, Agent: AgentCopilot}
	out := additionalContext(event.SessionStart, "the view").ForAgent(in)
	if out.JSON["additionalContext"] != "the view" || out.JSON["hookSpecificOutput"] != nil {
		t.Fatalf("Copilot's SessionStart answer: %v", out.JSON)
	}
	text := Output{Text: compactInstructions}.ForAgent(Input{Event: event.PreCompact, Agent: AgentCopilot})
	if text.Text != "" || text.JSON == nil || len(text.JSON) != 0 {
		t.Fatalf("Copilot's PreCompact answer: %+v", text)
	}
	msg := systemMessage("BIMRI updated").ForAgent(Input{Event: event.SessionEnd, Agent: AgentCopilot})
	if msg.JSON["systemMessage"] != "BIMRI updated" {
		t.Fatalf("Copilot's SessionEnd answer: %v", msg.JSON)
	}
}

// Codex's view stays inside what its additionalContextLimit holds when the
// config allows a longer one; Claude Code's follows the config.
func TestCodexViewIsCapped(t *testing.T) {
	cfg := memfile.DefaultConfig()
	cfg.Budgets, cfg.TotalBudget, cfg.ContextLimit = [3]int{9000, 9000, 9000}, 27000, 20000
	f := memfile.New(cfg)
	for i := range 200 {
		if _, _, err := f.Add(memfile.NewEntry{Tier: 1 + i%2, Importance: 4, Date: truthDay, Tags: []string{"api"},
			Text: fmt.Sprintf("Decision %d: the API keeps its own word list for entry %d.", i, i)}); err != nil {
			t.Fatal(err)
		}
	}
	env := truthWorkspace(t, f, cfg)
	for _, c := range []struct {
		agent    Agent
		min, max int
	}{{"", codexViewLimit + 1, cfg.ContextLimit}, {AgentCodex, codexViewLimit / 2, codexViewLimit}} {
		out, err := Handle(env, Input{Event: event.SessionStart, SessionID: "s-" + string(c.agent), Source: "startup", Agent: c.agent})
		if err != nil {
			t.Fatal(err)
		}
		view := out.JSON["hookSpecificOutput"].(map[string]any)["additionalContext"].(string)
		if n := memfile.Length(view); n < c.min || n > c.max {
			t.Errorf("%s: a view of %d characters, want %d to %d", c.agent, n, c.min, c.max)
		}
	}
}
