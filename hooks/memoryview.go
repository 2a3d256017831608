package hooks

import "github.com/bimri/bimri-hook/internal/event"

// MemoryView is what SessionStart gives a session starting in the
// workspace, for a client with no hooks (the MCP memory tool): the same
// handler, so the same view, instructions, intake and upkeep questions,
// and the same day's pass, run at most once a day. sessionID keys the
// per-session state (what was already asked). It returns the context
// and the line SessionStart would show the user ("" for none).
func MemoryView(env Env, sessionID string) (context, userMessage string, err error) {
	out, err := SessionStart(env, Input{Event: event.SessionStart, SessionID: sessionID, Source: "startup", Cwd: env.Store.Root()})
	if err != nil {
		return "", "", err
	}
	context, _ = out.spec()["additionalContext"].(string)
	userMessage, _ = out.JSON["systemMessage"].(string)
	return context, userMessage, nil
}
