package hooks

// Other clients than Claude Code: each one's payload becomes an Input as
// Claude Code's does, with Agent set, and the answer goes back in the
// client's own format, inside its limits. Only this file knows a client
// by name; the handlers ask Agent what the client lacks.

import (
	"maps"
	"strings"

	"github.com/bimri/bimri-hook/internal/event"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
)

// Agent is the client an event came from: "" for Claude Code.
type Agent string

// AgentCodex is the Codex CLI, whose hooks run `bimri-hook hook codex`.
const AgentCodex Agent = "codex"

// AgentGemini is the Gemini CLI, whose hooks run `bimri-hook hook gemini`.
const AgentGemini Agent = "gemini"

// AgentOpenCode is OpenCode, whose plugin (wiring/opencode_plugin.js)
// runs `bimri-hook hook opencode` with payloads it builds in Claude
// Code's field names: SessionStart before a session's first model
// request, UserPromptSubmit at each user message, Stop when the session
// goes idle. It reads hookSpecificOutput.additionalContext alone, into the
// system prompt; it has no transcript, so Stop never nudges under it.
const AgentOpenCode Agent = "opencode"

// AgentCopilot is the GitHub Copilot CLI, whose hooks file
// (wiring.Copilot) runs `bimri-hook hook copilot` at its PascalCase
// events, whose payloads carry Claude Code's field names (1.0.102).
const AgentCopilot Agent = "copilot"

// AgentCursor is Cursor, whose hooks.json runs `bimri-hook hook cursor`
// at sessionStart and sessionEnd. Read from Cursor's documentation, not
// measured: no Cursor client runs here.
const AgentCursor Agent = "cursor"

// Agents are the clients besides Claude Code whose payloads `hook` reads.
var Agents = []Agent{AgentCodex, AgentGemini, AgentOpenCode, AgentCopilot, AgentCursor}

// cursorEvents are Cursor's names of the events it is wired at. Its
// payloads carry session_id, and the workspace in workspace_roots, not cwd
// (Decode reads either); its transcript is in a format of its own.
var cursorEvents = map[event.Name]event.Name{
	"sessionStart": event.SessionStart,
	"sessionEnd":   event.SessionEnd,
}

// geminiEvents are the Gemini CLI's names of the events whose meaning is
// Claude Code's under another name (0.61.0): BeforeAgent fires when the
// user submits a prompt. Its PreCompress is not PreCompact: it fires
// before every check of whether to compress, on each turn whose history
// is not empty, compression or none, so it goes unanswered.
var geminiEvents = map[event.Name]event.Name{
	"BeforeAgent": event.UserPromptSubmit,
}

// geminiContextTag wraps the context Gemini adds to a prompt; a
// non-interactive run gives BeforeAgent's prompt SessionStart's context
// in front of the user's words (measured on 0.61.0).
const geminiContextTag = "<hook_context>"

// FromAgent is in as read from client a's payload: the event under
// Claude Code's name, and Agent set. The fields Gemini's payloads carry
// (session_id, transcript_path, cwd, source, reason, trigger, prompt)
// have Claude Code's names already.
func (in Input) FromAgent(a Agent) Input {
	in.Agent = a
	if name, ok := cursorEvents[in.Event]; ok && a == AgentCursor {
		in.Event, in.TranscriptPath = name, ""
	}
	if a == AgentGemini {
		if name, ok := geminiEvents[in.Event]; ok {
			in.Event = name
		}
		in.Prompt = userWords(in.Prompt)
	}
	return in
}

// userWords is a Gemini prompt without the context Gemini put in front
// of it, so recall reads the user's words and not the memory view. Gemini
// escapes < and > in a hook's context, so the first closing tag is the
// context's own.
func userWords(prompt string) string {
	if !strings.HasPrefix(prompt, geminiContextTag) {
		return prompt
	}
	if _, rest, ok := strings.Cut(prompt, "</hook_context>"); ok {
		return strings.TrimLeft(rest, "\n")
	}
	return prompt
}

// endsAtStop says whether the client has no SessionEnd event, so that
// its Stop counts the session (once per session ID) and runs the
// session-end pass: Codex's hooks have no SessionEnd (0.171.0), and
// OpenCode tells a plugin of no session's end (1.18.33), only of its
// going idle after each turn.
func (a Agent) endsAtStop() bool { return a == AgentCodex || a == AgentOpenCode }

// codexViewLimit caps the memory view under Codex, in UTF-16 code units:
// install gives the hooks Codex's additionalContextLimit of 7,500 tokens,
// a quarter of the UTF-8 bytes, and 10,000 code units are at most 30,000
// bytes. A bimri config asking for a larger view is held to this.
const codexViewLimit = 10000

// forAgent fits env to the client of in.
func forAgent(env Env, in Input) Env {
	if in.Agent == AgentCodex {
		env.Config.ContextLimit = min(env.Config.ContextLimit, codexViewLimit)
	}
	return env
}

// ForAgent gives out in the format of in's client. Codex reads Claude
// Code's hookSpecificOutput.additionalContext at SessionStart and
// UserPromptSubmit, and systemMessage everywhere; its Stop takes no
// additionalContext, but a block with a reason, which Codex gives the
// model as the next prompt of the turn.
func (out Output) ForAgent(in Input) Output {
	if in.Agent == AgentGemini {
		return out.forGemini(in)
	}
	if in.Agent == AgentCopilot || in.Agent == AgentCursor {
		return out.forCopilot(in.Agent)
	}
	if in.Agent != AgentCodex || in.Event != event.Stop || out.JSON == nil {
		return out
	}
	spec := out.spec()
	if spec == nil {
		return out
	}
	reason, _ := spec["additionalContext"].(string)
	return Output{JSON: map[string]any{"decision": "block", "reason": reason}}
}

// forGemini gives out in the Gemini CLI's format (0.61.0): stdout must
// be one JSON object, so plain text (PreCompact's instructions, which
// Gemini cannot take) becomes an empty answer; the context
// stays in hookSpecificOutput.additionalContext, which Gemini reads at
// SessionStart (prepended to the prompt in a non-interactive run, the
// first turn in an interactive one) and BeforeAgent (appended to the
// prompt), with hookEventName in Gemini's own name.
func (out Output) forGemini(in Input) Output {
	if out.JSON == nil {
		return Output{JSON: map[string]any{}}
	}
	spec := out.spec()
	if spec == nil {
		return out
	}
	name := in.Event
	for gemini, ours := range geminiEvents {
		if ours == in.Event {
			name = gemini
		}
	}
	fitted := maps.Clone(spec)
	fitted["hookEventName"] = string(name)
	json := maps.Clone(out.JSON)
	json["hookSpecificOutput"] = fitted
	return Output{JSON: json}
}

// forCopilot gives out in the Copilot CLI's format (1.0.102): it reads
// a hook's context from a top-level additionalContext and ignores
// hookSpecificOutput (SessionStart's reaches the model before the
// prompt, UserPromptSubmit's after it, in a <system_reminder>), and
// parses stdout as one JSON object, so plain text becomes {}. Cursor's
// is the same with the context in additional_context (its
// documentation's sessionStart output).
func (out Output) forCopilot(a Agent) Output {
	if out.JSON == nil {
		return Output{JSON: map[string]any{}}
	}
	spec := out.spec()
	if spec == nil {
		return out
	}
	json := maps.Clone(out.JSON)
	delete(json, "hookSpecificOutput")
	key := "additionalContext"
	if a == AgentCursor {
		key = "additional_context"
	}
	json[key] = spec["additionalContext"]
	return Output{JSON: json}
}

// sessionCount is the pass options of the event that ends a session:
// count it once per session ID, and every DeepEvery-th session run the
// deterministic part of deep maintenance.
func sessionCount(env Env, tx *store.Tx, st sessionState) memfile.Options {
	opt := memfile.Options{CountSession: !st.Counted}
	if opt.CountSession && (tx.File.Header.Sessions+1)%env.Config.DeepEvery == 0 {
		opt.Deep = true
		opt.ArchivedEntries = env.Store.ArchivedEntries()
	}
	return opt
}
