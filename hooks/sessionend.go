package hooks

import (
	"fmt"
	"slices"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
	"github.com/bimri/bimri-hook/transcript"
)

// sessionEndWait bounds the lock wait: the client kills SessionEnd after about 1.5 s.
const sessionEndWait = 800 * time.Millisecond

// sessionEndShare is the time used past which SessionEnd leaves the
// session's work pending (pendSummary) for the next event.
const sessionEndShare = 1000 * time.Millisecond

var errOutOfTime = fmt.Errorf("%w: SessionEnd past its share of the client's 1.5 s budget", store.ErrBusy)

func outOfTime(env Env) bool {
	return env.Elapsed != nil && env.Elapsed() >= sessionEndShare
}

func sessionEndLockWait(env Env) time.Duration {
	wait := min(env.Store.LockTimeout(), sessionEndWait)
	if env.Elapsed != nil {
		wait = max(0, min(wait, sessionEndShare-env.Elapsed()))
	}
	return wait
}

// sessionEnd writes a fallback entry when the session recorded nothing,
// runs the pass and counts the session once. The client shows no output.
func sessionEnd(env Env, in Input) (Output, error) {
	env.Store = env.Store.WithLockTimeout(sessionEndLockWait(env))
	_, err := env.Store.Update(func(tx *store.Tx) error {
		if outOfTime(env) {
			return errOutOfTime
		}
		st := stateOf(tx.State(stateKey(in)))
		catchUp(env, in, &st)
		if outOfTime(env) { // the transcript took the time
			return errOutOfTime
		}
		for _, e := range fallbackEntries(env, &st) {
			if _, _, err := tx.File.Add(e); err != nil {
				return err
			}
			st.Recorded = true
		}
		if st.Transcript.RememberFailed > 0 && !st.Told {
			tellLater(tx, failedMessage(env, st.Transcript))
			st.Told = true
		}
		tellLater(tx, tx.Notice)
		tx.Maintain(env.Today, env.Config, sessionCount(env, tx, st))
		st.Counted = true
		st.Ended = true
		tx.SetState(stateKey(in), encodeJSON(st))
		return nil
	})
	if isBusy(err) {
		// The summary waits for the next transaction; a resumed session counts it.
		return Output{}, pendSummary(env, in)
	}
	return Output{}, err
}

// fallbackEntries are the entries the agent meant and the client denied
// (taken out of st, so written once); else, for a session that recorded
// nothing, one automatic summary.
func fallbackEntries(env Env, st *sessionState) []memfile.NewEntry {
	var entries []memfile.NewEntry
	for _, in := range st.Transcript.Denied {
		entries = append(entries, memfile.NewEntry{Tier: in.Tier, Importance: in.Importance, Date: env.Today,
			Tags: append(slices.Clone(in.Tags), memfile.DeniedTag), Text: in.Text})
	}
	st.Transcript.Denied = nil
	if len(entries) > 0 || recordedAnything(*st) {
		return entries
	}
	return summaryEntry(env, st.Transcript, "auto", "")
}

// summaryEntry is the entry the hook writes itself from the transcript, none when it says nothing.
func summaryEntry(env Env, t transcript.Summary, tag, prefix string) []memfile.NewEntry {
	text := transcript.FallbackSummary(t, entryTextLimit)
	if text == "" {
		return nil
	}
	return []memfile.NewEntry{{Tier: 2, Importance: 2, Date: env.Today, Tags: []string{tag}, Text: prefix + text}}
}

// pendSummary is SessionEnd without the lock: the entries wait for the
// next transaction; only this session writes its state.
func pendSummary(env Env, in Input) error {
	st := stateOf(env.Store.ReadState(stateKey(in)))
	catchUp(env, in, &st)
	entries := fallbackEntries(env, &st)
	st.Recorded = st.Recorded || len(entries) > 0
	st.Ended = true
	for _, e := range entries {
		if err := env.Store.Pend(stateKey(in), e); err != nil {
			return err
		}
	}
	return env.Store.WriteState(stateKey(in), encodeJSON(st))
}
