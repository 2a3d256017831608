package hooks

import (
	"testing"

	"github.com/bimri/bimri-hook/internal/event"
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
