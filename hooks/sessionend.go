package hooks

import (
	"fmt"
	"slices"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
	"github.com/bimri/bimri-hook/transcript"
)

// sessionEndWait bounds the lock wait at SessionEnd, which the client
// kills after about 1.5 s.
const sessionEndWait = 800 * time.Millisecond

// sessionEndShare is the part of the client's 1.5 s SessionEnd budget
// the process may have used when it starts the pass and the write: past
// it, the session's work is left pending (pendSummary) for the next event.
const sessionEndShare = 1000 * time.Millisecond

// errOutOfTime is treated as a busy lock: the work waits for the next event.
var errOutOfTime = fmt.Errorf("%w: SessionEnd past its share of the client's 1.5 s budget", store.ErrBusy)

// outOfTime says whether SessionEnd has used its share of the budget.
func outOfTime(env Env) bool {
	return env.Elapsed != nil && env.Elapsed() >= sessionEndShare
}

// sessionEndLockWait is the store's wait, at most sessionEndWait, never
// past the share of the budget.
func sessionEndLockWait(env Env) time.Duration {
	wait := min(env.Store.LockTimeout(), sessionEndWait)
	if env.Elapsed != nil {
		wait = max(0, min(wait, sessionEndShare-env.Elapsed()))
	}
	return wait
}

// sessionEnd writes a fallback entry when the session recorded nothing,
// runs the pass, counts the session once per session ID, and every Nth
// session runs deep maintenance. The client shows no SessionEnd output.
func sessionEnd(env Env, in Input) (Output, error) {
	env.Store = env.Store.WithLockTimeout(sessionEndLockWait(env))
	_, err := env.Store.Update(func(tx *store.Tx) error {
		if outOfTime(env) {
			return errOutOfTime
		}
		st := loadState(tx, in)
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
		saveState(tx, in, st)
		return nil
	})
	if isBusy(err) {
		// The summary waits in the state folder for the next transaction;
		// the count is skipped (a resumed session's SessionEnd counts it).
		return Output{}, pendSummary(env, in)
	}
	return Output{}, err
}

// fallbackEntries are the entries SessionEnd writes itself: those the
// agent meant and the client denied, tagged memfile.DeniedTag (taken out
// of st, so written once); else, for a session that recorded nothing, one
// automatic summary.
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
	text := transcript.FallbackSummary(st.Transcript, entryTextLimit)
	if text == "" {
		return nil
	}
	return []memfile.NewEntry{{Tier: 2, Importance: 2, Date: env.Today, Tags: []string{"auto"}, Text: text}}
}

// pendSummary is SessionEnd without the lock: the fallback entries are
// left for the next transaction, and the state saved as ended. Only this
// session writes its state, and SessionEnd is its last event.
func pendSummary(env Env, in Input) error {
	st := stateOf(env.Store.ReadState(stateKey(in)))
	catchUp(env, in, &st)
	entries := fallbackEntries(env, &st)
	st.Recorded = st.Recorded || len(entries) > 0
	st.Ended = true
	for _, e := range entries {
		if err := env.Store.Pend(stateKey(in), nil, &e); err != nil {
			return err
		}
	}
	return env.Store.Pend(stateKey(in), encodeState(st), nil)
}
