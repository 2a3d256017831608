package hooks

import (
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
	"github.com/bimri/bimri-hook/transcript"
)

// sessionEndWait bounds the lock wait at SessionEnd, which the client
// kills after about 1.5 s.
const sessionEndWait = 800 * time.Millisecond

// sessionEnd writes a fallback entry when the session recorded nothing,
// runs the session-end pass, counts the session exactly once per session
// ID, and every Nth session runs the deterministic part of deep
// maintenance. It answers nothing: the client shows no SessionEnd output.
func sessionEnd(env Env, in Input) (Output, error) {
	env.Store = env.Store.WithLockTimeout(min(env.Store.LockTimeout(), sessionEndWait))
	_, err := env.Store.Update(func(tx *store.Tx) error {
		st := loadState(tx, in)
		catchUp(env, in, &st)
		if e := fallbackEntry(env, st); e != nil {
			if _, _, err := tx.File.Add(*e); err != nil {
				return err
			}
			st.Recorded = true
		}
		if st.Transcript.RememberFailed > 0 && !st.Told {
			// The client shows nothing a SessionEnd hook says: the next
			// SessionStart tells the user.
			tellLater(tx, failedMessage(env, st.Transcript))
			st.Told = true
		}
		tellLater(tx, tx.Notice) // a repair the store made: the user hears of it
		tx.Maintain(env.Today, env.Config, sessionCount(env, tx, st))
		st.Counted = true
		st.Ended = true
		saveState(tx, in, st)
		return nil
	})
	if isBusy(err) {
		// The session's summary is not dropped: it waits in the state
		// folder for the next event that gets the lock. Its count is
		// skipped; a later SessionEnd of the session (resumed) counts it.
		return Output{}, pendSummary(env, in)
	}
	return Output{}, err
}

// fallbackEntry is the entry SessionEnd writes for a session that
// recorded nothing, nil when it recorded something or there is nothing
// to say.
func fallbackEntry(env Env, st sessionState) *memfile.NewEntry {
	if recordedAnything(st) {
		return nil
	}
	text := transcript.FallbackSummary(st.Transcript, entryTextLimit)
	if text == "" {
		return nil
	}
	return &memfile.NewEntry{Tier: 2, Importance: 2, Date: env.Today, Tags: []string{"auto"}, Text: text}
}

// pendSummary is SessionEnd without the lock: the fallback entry is left
// for the next transaction (Store.Pend), and the session's state is saved
// as ended, so that a resumed session starts a stretch of its own. Only
// this session writes its state, and its SessionEnd is its last event.
func pendSummary(env Env, in Input) error {
	st := stateOf(env.Store.ReadState(stateKey(in)))
	catchUp(env, in, &st)
	e := fallbackEntry(env, st)
	st.Recorded = st.Recorded || e != nil
	st.Ended = true
	return env.Store.Pend(stateKey(in), encodeState(st), e)
}
