package hooks

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/bimri/bimri-hook/store"
	"github.com/bimri/bimri-hook/transcript"
)

// sessionState is what bimri-hook remembers about one Claude Code session
// between its events. It lives in the store's state folder, keyed by the
// session ID.
type sessionState struct {
	// Transcript is what has been read of the session's transcript so far;
	// its Offset is where the next read starts, so each Stop reads only
	// what is new.
	Transcript transcript.Summary `json:"transcript"`
	Nudged     bool               `json:"nudged"`   // blocked for the current stretch of unrecorded work
	Blocks     int                `json:"blocks"`   // blocks this session, for the "once" policy
	Recorded   bool               `json:"recorded"` // a fallback entry was written (a checkpoint starts a new stretch)
	Counted    bool               `json:"counted"`  // Sessions was bumped for this session
	// Told is true once the user has been told that a remember call
	// failed: they are told once per session.
	Told bool `json:"told,omitempty"`
	// Reported is how many of the agent's records the user has been told
	// of ("BIMRI updated: 1 entry recorded").
	Reported int `json:"reported,omitempty"`
	// Advised is true once the agent was asked to consolidate or promote:
	// it is asked once per session.
	Advised bool `json:"advised,omitempty"`
	// Recalled are the IDs recall has already brought back this session.
	Recalled []string `json:"recalled,omitempty"`
	// Ended is set by SessionEnd. An event of the session after it is a
	// resumed session (--resume, --continue keep the ID), whose work
	// starts a stretch of its own (see resumed).
	Ended bool `json:"ended,omitempty"`
}

// resumed is the state a resumed session goes on from: the transcript
// read on from where it was, with nothing of the ended part counted, so
// that its work is nudged and covered by the fallback as a new session's
// is. It is still counted once, and what it was shown and asked stays
// shown and asked: the resumed conversation still holds it.
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
// entry for the stretch so far: the transcript read on from where it
// was, with nothing of the checkpointed part counted, so that the work
// after it gets a nudge and a fallback entry of its own. What the session
// was told and asked stays as it was.
func (st sessionState) afterCheckpoint() sessionState {
	next := st.resumed()
	next.Blocks, next.Reported = st.Blocks, st.Reported
	return next
}

func stateKey(in Input) string { return "session-" + in.SessionID }

// noticeKey is the state of the workspace that holds a message for the
// user which a session could not show itself; the next SessionStart shows
// it and clears it.
const noticeKey = "notice"

// tellLater keeps msg for the next SessionStart to show the user, after
// any message kept already: for an event whose answer the user does not
// see (SessionEnd, PreCompact, a prompt's maintenance, a Stop's nudge).
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
	return stateOf(tx.State(stateKey(in))) // a damaged state file is a fresh start, never an error
}

// stateOf is a session's saved state as an event of it goes on from:
// after its SessionEnd, the resumed session's.
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

// decodeState reads a session's state as json.Unmarshal does: missing
// or damaged, it is a fresh start.
func decodeState(data []byte) sessionState {
	var st sessionState
	_ = json.Unmarshal(data, &st)
	return st
}

// encodeState is the state as saved; a struct of plain fields always
// marshals.
func encodeState(st sessionState) []byte {
	data, _ := json.Marshal(st)
	return data
}

// decodeList and encodeList are decodeState and encodeState for a list
// of strings (the patterns SessionStart has asked about).
func decodeList(data []byte) []string {
	var list []string
	_ = json.Unmarshal(data, &list)
	return list
}

func encodeList(list []string) []byte {
	data, _ := json.Marshal(list)
	return data
}

// transcriptLimit bounds one read of a transcript; a Stop reads only what
// is new since the last event, so this is reached only by a huge jump (a
// session whose earlier events never ran). Then only the newest 2 MiB are
// read, which keeps SessionEnd far inside the client's 1.5 s.
const transcriptLimit = 2 << 20

// readTranscript adds the new part of the session's transcript to sum, if
// its path is one Claude Code would use. A missing or odd transcript leaves
// sum as it was: memory must work without it.
func readTranscript(env Env, in Input, sum transcript.Summary) transcript.Summary {
	path := in.TranscriptPath
	if !transcriptAllowed(env, path) {
		return sum
	}
	next, err := sum.ReadMore(path, transcriptLimit)
	if err != nil {
		return sum
	}
	return next
}

// transcriptAllowed accepts only absolute .jsonl paths inside Claude Code's
// projects folder or the workspace: hook input must not make bimri-hook
// read arbitrary files.
func transcriptAllowed(env Env, path string) bool {
	if path == "" || !filepath.IsAbs(path) || filepath.Ext(path) != ".jsonl" {
		return false
	}
	path = filepath.Clean(path)
	var roots []string
	if env.ClaudeDir != "" {
		roots = append(roots, filepath.Join(env.ClaudeDir, "projects"))
	}
	roots = append(roots, env.Store.Root())
	for _, r := range roots {
		if within(r, path) {
			info, err := os.Stat(path)
			return err == nil && info.Mode().IsRegular()
		}
	}
	return false
}

func within(root, path string) bool {
	rel, err := filepath.Rel(filepath.Clean(root), path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// catchUp adds the transcript read since the last event to the state.
//
// A remember call counts as a record only once its tool_result, which
// the client appends some milliseconds after the call, is read and is not
// an error (a denial, a failure). Until then it is pending: the Stop that
// follows the call does not nudge again (the agent did answer), and the
// next event settles it. SessionEnd, the last chance, counts a call still
// pending as no record and writes the fallback entry: a spare summary
// costs less than a lost session.
func catchUp(env Env, in Input, st *sessionState) {
	st.Transcript = readTranscript(env, in, st.Transcript)
}

// didWork says whether the session has done real work since its last
// record: a file-changing tool call, or several prompts.
func didWork(env Env, t transcript.Summary) bool {
	return t.ChangesSinceRemember > 0 || t.PromptsSinceRemember >= env.Settings.NudgePrompts
}

// recordedAnything says whether the session left any trace in memory.
func recordedAnything(st sessionState) bool {
	return st.Recorded || st.Transcript.RememberCalls > 0
}
