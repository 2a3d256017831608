package hooks

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/bimri/bimri-hook/store"
	"github.com/bimri/bimri-hook/transcript"
)

// sessionState is what bimri-hook keeps of one session between its events.
type sessionState struct {
	// Transcript is what has been read; each event reads on from its Offset.
	Transcript transcript.Summary `json:"transcript"`
	Nudged     bool               `json:"nudged"`             // nudged for the current stretch of unrecorded work
	Blocks     int                `json:"blocks"`             // nudges this session, for the "once" policy
	Recorded   bool               `json:"recorded"`           // a fallback entry was written
	Counted    bool               `json:"counted"`            // the header's Sessions counts this session
	Told       bool               `json:"told,omitempty"`     // the user heard a remember call failed
	Reported   int                `json:"reported,omitempty"` // the agent's records the user has heard of
	Advised    bool               `json:"advised,omitempty"`  // asked to consolidate or promote
	// Ended by SessionEnd: a later event is a resumed session's.
	Ended bool `json:"ended,omitempty"`
}

// resumed is the state a resumed session goes on from: a new session's
// but for the transcript read so far and what is counted, shown and asked.
func (st sessionState) resumed() sessionState {
	return sessionState{
		Transcript: transcript.Summary{Offset: st.Transcript.Offset, Pending: st.Transcript.Pending, PendingChanges: st.Transcript.PendingChanges, Intents: st.Transcript.Intents},
		Counted:    st.Counted,
		Told:       st.Told,
		Advised:    st.Advised,
	}
}

func stateKey(in Input) string { return "session-" + in.SessionID }

// noticeKey holds a message for the user the next SessionStart shows.
const noticeKey = "notice"

func tellLater(tx *store.Tx, msg string) {
	if msg == "" {
		return
	}
	if kept := tx.State(noticeKey); len(kept) > 0 {
		msg = string(kept) + " · " + msg
	}
	tx.SetState(noticeKey, []byte(msg))
}

// stateOf is the state an event goes on from: after SessionEnd, the
// resumed one; a missing or damaged state is a fresh start.
func stateOf(data []byte) sessionState {
	st := decodeJSON[sessionState](data)
	if st.Ended {
		return st.resumed()
	}
	return st
}

func decodeJSON[T any](data []byte) T {
	var v T
	_ = json.Unmarshal(data, &v)
	return v
}

func encodeJSON(v any) []byte {
	data, _ := json.Marshal(v)
	return data
}

// transcriptLimit bounds one read: past it (a huge jump), the newest part.
const transcriptLimit = 2 << 20

// catchUp adds the transcript written since the last event to st. A
// remember call counts once its tool_result is read and is not an error.
func catchUp(env Env, in Input, st *sessionState) {
	if !transcriptAllowed(env, in.TranscriptPath) {
		return
	}
	if next, err := st.Transcript.ReadMore(in.TranscriptPath, transcriptLimit); err == nil {
		st.Transcript = next
	}
}

// transcriptAllowed accepts absolute .jsonl paths in Claude Code's
// projects folder or the workspace: input must not read arbitrary files.
func transcriptAllowed(env Env, path string) bool {
	if path == "" || !filepath.IsAbs(path) || filepath.Ext(path) != ".jsonl" {
		return false
	}
	path = filepath.Clean(path)
	// Without ClaudeDir, "projects" is relative and holds no absolute path.
	for _, r := range []string{env.Store.Root(), filepath.Join(env.ClaudeDir, "projects")} {
		if rel, err := filepath.Rel(filepath.Clean(r), path); err == nil && filepath.IsLocal(rel) {
			info, err := os.Stat(path)
			return err == nil && info.Mode().IsRegular()
		}
	}
	return false
}

func recordedAnything(st sessionState) bool {
	return st.Recorded || st.Transcript.RememberCalls > 0
}
