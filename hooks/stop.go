package hooks

import (
	"github.com/bimri/bimri-hook/internal/event"
	"github.com/bimri/bimri-hook/memfile"
)

// Stop runs after every assistant turn. Under the nudge policy, when the
// session did real work and recorded nothing since, it nudges once: it
// gives the agent the exact command to record with as additional context,
// which (measured on Claude Code 2.1.328) keeps the turn going like a block
// does, without showing the user "stop hook reported a problem". Otherwise
// (and always when stop_hook_active is set, so the agent can never be
// trapped) it runs the session-end pass and tells the user what changed,
// if anything did. A remember call that failed is told to the user once,
// with what to do about it, and is not asked for again: a denied call
// would only be denied again.
func Stop(env Env, in Input) (Output, error) {
	var out Output
	_, err := env.Store.Update(func(tx *memfile.Tx) error {
		st := loadState(tx, in)
		catchUp(env, in, &st)
		work := didWork(env, st.Transcript)
		if !work {
			st.Nudged = false // recorded since: a later stretch of work may be nudged again
		}
		var told string
		if st.Transcript.RememberFailed > 0 && !st.Told {
			told, st.Told = failedMessage(env, st.Transcript), true
		}
		if st.Transcript.RememberFailed == 0 && shouldBlock(env.Settings.StopPolicy, in.StopHookActive, work, st) {
			st.Nudged = true
			st.Blocks++
			saveState(tx, in, st)
			out = additionalContext(event.Stop, nudgeReason(env))
			return nil
		}
		rep := tx.Maintain(env.Today, env.Config, memfile.Options{})
		recorded := st.Transcript.RememberCalls - st.Reported
		st.Reported = st.Transcript.RememberCalls
		saveState(tx, in, st)
		out = userMessage(told, updatedMessage(recorded, rep, tx.Notice))
		return nil
	})
	if isBusy(err) {
		return systemMessage(busyMessage), nil
	}
	return out, err
}

func shouldBlock(policy string, stopHookActive, work bool, st sessionState) bool {
	if stopHookActive || !work {
		return false
	}
	switch policy {
	case PolicyNudge:
		return !st.Nudged
	case PolicyOnce:
		return st.Blocks == 0
	}
	return false
}
