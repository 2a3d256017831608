package hooks

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/bimri/bimri-hook/store"
	"github.com/bimri/bimri-hook/transcript"
)

// sessionState is what bimri-hook remembers about one session between its
// events, in the store's state folder under the session ID.
type sessionState struct {
	// Transcript is what has been read of the transcript so far; each
	// event reads on from its Offset.
	Transcript transcript.Summary `json:"transcript"`
	Nudged     bool               `json:"nudged"`             // nudged for the current stretch of unrecorded work
	Blocks     int                `json:"blocks"`             // nudges this session, for the "once" policy
	Recorded   bool               `json:"recorded"`           // a fallback entry was written
	Counted    bool               `json:"counted"`            // the header's Sessions counts this session
	Told       bool               `json:"told,omitempty"`     // the user heard a remember call failed
	Reported   int                `json:"reported,omitempty"` // the agent's records the user has heard of
	Advised    bool               `json:"advised,omitempty"`  // asked to consolidate or promote
	Recalled   []string           `json:"recalled,omitempty"` // IDs recall brought back
	// Ended is set by SessionEnd: a later event of the session ID is a
	// resumed session (--resume, --continue), whose work is a stretch of
	// its own.
	Ended bool `json:"ended,omitempty"`
}

// resumed is the state a resumed session goes on from: the transcript
// read on from where it was, nothing of the ended part counted, so its
// work is nudged and summed up as a new session's is; counted once, and
// what it was shown and asked stays so, as the conversation still holds it.
func (st sessionState) resumed() sessionState {
	return sessionState{
		Transcript: transcript.Summary{Offset: st.Transcript.Offset, Pending: st.Transcript.Pending, PendingChanges: st.Transcript.PendingChanges, Intents: st.Transcript.Intents},
		Counted:    st.Counted,
		Told:       st.Told,
		Advised:    st.Advised,
		Recalled:   st.Recalled,
	}
}

// afterCheckpoint is the state once PreCompact has written a checkpoint
// for the stretch so far: the work after it gets a nudge and a fallback
// entry of its own.
func (st sessionState) afterCheckpoint() sessionState {
	next := st.resumed()
	next.Blocks, next.Reported = st.Blocks, st.Reported
	return next
}

func stateKey(in Input) string { return "session-" + in.SessionID }

// noticeKey holds a message for the user that an event could not show;
// the next SessionStart shows it and clears it.
const noticeKey = "notice"

// tellLater keeps msg for the next SessionStart, after any kept already.
func tellLater(tx *store.Tx, msg string) {
	if msg == "" {
		return
	}
	if kept := tx.State(noticeKey); len(kept) > 0 {
		msg = string(kept) + " · " + msg
	}
	tx.SetState(noticeKey, []byte(msg))
}

func loadState(tx *store.Tx, in Input) sessionState {
	return stateOf(tx.State(stateKey(in)))
}

// stateOf is the saved state an event goes on from: after SessionEnd, the
// resumed session's.
func stateOf(data []byte) sessionState {
	st := decodeState(data)
	if st.Ended {
		return st.resumed()
	}
	return st
}

func saveState(tx *store.Tx, in Input, st sessionState) {
	tx.SetState(stateKey(in), encodeState(st))
}

// decodeState reads a saved state; a missing or damaged one is a fresh
// start, never an error.
func decodeState(data []byte) sessionState { return decodeJSON[sessionState](data) }

func encodeState(st sessionState) []byte { return encodeJSON(st) }

// decodeList and encodeList are the same for a list of strings.
func decodeList(data []byte) []string { return decodeJSON[[]string](data) }

func encodeList(list []string) []byte { return encodeJSON(list) }

// decodeJSON is data's value, or the zero value when it does not read.
func decodeJSON[T any](data []byte) T {
	var v T
	_ = json.Unmarshal(data, &v)
	return v
}

// encodeJSON is v's JSON; plain fields and lists always marshal.
func encodeJSON(v any) []byte {
	data, _ := json.Marshal(v)
	return data
}

// transcriptLimit bounds one read of a transcript. Each event reads only
// what is new, so it is reached only by a huge jump; then the newest part
// is read.
const transcriptLimit = 2 << 20

// catchUp adds the transcript written since the last event to the state,
// when its path is one Claude Code would use; memory works without it.
// A remember call counts as a record only once its tool_result, which the
// client appends a moment after the call, is read and is not an error;
// until then it is pending (see transcript.Summary).
func catchUp(env Env, in Input, st *sessionState) {
	if !transcriptAllowed(env, in.TranscriptPath) {
		return
	}
	if next, err := st.Transcript.ReadMore(in.TranscriptPath, transcriptLimit); err == nil {
		st.Transcript = next
	}
}

// transcriptAllowed accepts only absolute .jsonl paths inside Claude
// Code's projects folder or the workspace: hook input must not make
// bimri-hook read arbitrary files.
func transcriptAllowed(env Env, path string) bool {
	if path == "" || !filepath.IsAbs(path) || filepath.Ext(path) != ".jsonl" {
		return false
	}
	path = filepath.Clean(path)
	roots := []string{env.Store.Root()}
	if env.ClaudeDir != "" {
		roots = append(roots, filepath.Join(env.ClaudeDir, "projects"))
	}
	for _, r := range roots {
		if rel, err := filepath.Rel(filepath.Clean(r), path); err == nil && filepath.IsLocal(rel) {
			info, err := os.Stat(path)
			return err == nil && info.Mode().IsRegular()
		}
	}
	return false
}

// didWork says whether the session did real work since its last record:
// a file changed, or several prompts.
func didWork(env Env, t transcript.Summary) bool {
	return t.ChangesSinceRemember > 0 || t.PromptsSinceRemember >= env.Settings.NudgePrompts
}

func recordedAnything(st sessionState) bool {
	return st.Recorded || st.Transcript.RememberCalls > 0
}
