package hooks

import "github.com/bimri/bimri-hook/internal/event"

// MemoryView is SessionStart's context and user line for a client with
// no hooks (the MCP memory tool): the same handler, so the same answer.
func MemoryView(env Env, sessionID string) (context, userMessage string, err error) {
	out, err := SessionStart(env, Input{Event: event.SessionStart, SessionID: sessionID, Source: "startup", Cwd: env.Store.Root()})
	if err != nil {
		return "", "", err
	}
	context, _ = out.spec()["additionalContext"].(string)
	userMessage, _ = out.JSON["systemMessage"].(string)
	return context, userMessage, nil
}
