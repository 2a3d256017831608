package hooks

// Other clients than Claude Code: each one's payload becomes an Input
// with Agent set, and the answer goes back in the client's own format.
// Only this file knows a client by name.

import (
	"maps"
	"strings"

	"github.com/bimri/bimri-hook/internal/event"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
)

// Agent is the client an event came from: "" for Claude Code.
type Agent string

// The clients besides Claude Code, each run as `bimri-hook hook NAME`.
// OpenCode's plugin (wiring/opencode_plugin.js) sends Claude Code's field
// names, reads only additionalContext and has no transcript; Copilot's
// payloads carry Claude Code's field names (1.0.102); Cursor's are read
// from its documentation, not measured.
const (
	AgentCodex    Agent = "codex"
	AgentGemini   Agent = "gemini"
	AgentOpenCode Agent = "opencode"
	AgentCopilot  Agent = "copilot"
	AgentCursor   Agent = "cursor"
)

// Agents are the clients besides Claude Code whose payloads `hook` reads.
var Agents = []Agent{AgentCodex, AgentGemini, AgentOpenCode, AgentCopilot, AgentCursor}

// agentEvents are a client's names of Claude Code's events: Cursor's
// (its workspace comes in workspace_roots, which Decode reads, and its
// transcript is its own format) and Gemini's (0.61.0; its PreCompress
// fires before every check for compression, so it goes unanswered).
var agentEvents = map[Agent]map[event.Name]event.Name{
	AgentCursor: {"sessionStart": event.SessionStart, "sessionEnd": event.SessionEnd},
	AgentGemini: {"BeforeAgent": event.UserPromptSubmit},
}

// FromAgent is in as read from client a's payload: the event under Claude
// Code's name, and Agent set. A Gemini prompt loses the context Gemini
// puts before it (a non-interactive run gives BeforeAgent SessionStart's
// context, 0.61.0), so recall reads the user's words; Gemini escapes < and
// > in a hook's context, so the first closing tag is the context's own.
func (in Input) FromAgent(a Agent) Input {
	in.Agent = a
	if name, ok := agentEvents[a][in.Event]; ok {
		in.Event = name
	}
	if a == AgentCursor {
		in.TranscriptPath = ""
	}
	if _, rest, ok := strings.Cut(in.Prompt, "</hook_context>"); ok && a == AgentGemini && strings.HasPrefix(in.Prompt, "<hook_context>") {
		in.Prompt = strings.TrimLeft(rest, "\n")
	}
	return in
}

// endsAtStop says the client has no SessionEnd, so Stop counts the
// session and runs its pass: Codex (0.171.0) and OpenCode (1.18.33).
func (a Agent) endsAtStop() bool { return a == AgentCodex || a == AgentOpenCode }

// codexViewLimit caps the view under Codex, in UTF-16 code units: its
// additionalContextLimit (install sets 7,500 tokens) holds 10,000.
const codexViewLimit = 10000

// ForAgent gives out in the format of in's client. Codex reads Claude
// Code's, but its Stop takes a block with a reason, which it gives the
// model as the turn's next prompt. Gemini (0.61.0), Copilot (1.0.102) and
// Cursor parse stdout as one JSON object (plain text becomes {}); Gemini
// reads hookSpecificOutput under its own event name, Copilot a top-level
// additionalContext, Cursor additional_context (flatContext).
func (out Output) ForAgent(in Input) Output {
	spec := out.spec()
	switch {
	case in.Agent == AgentCodex && in.Event == event.Stop && spec != nil:
		return Output{JSON: map[string]any{"decision": "block", "reason": spec["additionalContext"]}}
	case in.Agent != AgentGemini && flatContext[in.Agent] == "":
		return out
	case out.JSON == nil:
		return Output{JSON: map[string]any{}}
	case spec == nil:
		return out
	}
	json := maps.Clone(out.JSON)
	if key := flatContext[in.Agent]; key != "" {
		delete(json, "hookSpecificOutput")
		json[key] = spec["additionalContext"]
		return Output{JSON: json}
	}
	fitted := maps.Clone(spec)
	for gemini, ours := range agentEvents[AgentGemini] {
		if ours == in.Event {
			fitted["hookEventName"] = string(gemini)
		}
	}
	json["hookSpecificOutput"] = fitted
	return Output{JSON: json}
}

// flatContext is the top-level field a client reads the context from.
var flatContext = map[Agent]string{AgentCopilot: "additionalContext", AgentCursor: "additional_context"}

// sessionCount is the pass options of the event ending a session: count
// it once per session ID, and every DeepEvery-th run deep maintenance.
func sessionCount(env Env, tx *store.Tx, st sessionState) memfile.Options {
	opt := memfile.Options{CountSession: !st.Counted}
	if opt.CountSession && (tx.File.Header.Sessions+1)%env.Config.DeepEvery == 0 {
		opt.Deep = true
		opt.ArchivedEntries = env.Store.ArchivedEntries()
	}
	return opt
}
