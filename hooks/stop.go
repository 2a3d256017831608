package hooks

import "github.com/bimri/bimri-hook/memfile"

// Stop runs after every assistant turn. Under the nudge policy, when the
// session did real work and recorded nothing since, it blocks once and
// tells the agent the exact command to record with; otherwise (and always
// when stop_hook_active is set, so the agent can never be trapped) it runs
// the session-end pass and tells the user "BIMRI updated".
func Stop(env Env, in Input) (Output, error) {
	var out Output
	_, err := env.Store.Update(func(tx *memfile.Tx) error {
		st := loadState(tx, in)
		catchUp(env, in, &st)
		work := didWork(env, st.Transcript)
		if !work {
			st.Nudged = false // recorded since: a later stretch of work may be nudged again
		}
		if shouldBlock(env.Settings.StopPolicy, in.StopHookActive, work, st) {
			st.Nudged = true
			st.Blocks++
			saveState(tx, in, st)
			out = Output{JSON: map[string]any{"decision": "block", "reason": nudgeReason(env)}}
			return nil
		}
		rep := tx.Maintain(env.today(), env.Config, memfile.Options{})
		saveState(tx, in, st)
		out = systemMessage(updatedMessage(rep, tx.Notice))
		return nil
	})
	if errBusy(err) {
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
