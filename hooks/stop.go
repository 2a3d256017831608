package hooks

import (
	"bytes"
	"slices"
	"time"

	"github.com/bimri/bimri-hook/internal/event"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
	"github.com/bimri/bimri-hook/transcript"
)

// stop runs after every turn. When the session did real work and recorded
// nothing since, it nudges once with the command to record with (context,
// which keeps the turn going without telling the user of a problem);
// otherwise, and always under stop_hook_active, it runs the pass. A failed
// remember call is told to the user once and not asked for again.
func stop(env Env, in Input) (Output, error) {
	early, caught := awaitPending(env, in)
	var out Output
	_, err := env.Store.Update(func(tx *store.Tx) error {
		st := stateOf(tx.State(stateKey(in)))
		if bytes.Equal(tx.State(stateKey(in)), early) { // the state the early read started from
			st.Transcript = caught.Transcript
		}
		catchUp(env, in, &st)
		// Real work: a file changed, or several prompts since the last record.
		work := st.Transcript.ChangesSinceRemember > 0 || st.Transcript.PromptsSinceRemember >= env.Settings.NudgePrompts
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
			tx.SetState(stateKey(in), encodeJSON(st))
			tellLater(tx, tx.Notice) // the nudge is the model's
			out = additionalContext(event.Stop, nudgeReason(env))
			return nil
		}
		opt := memfile.Options{}
		if in.Agent.endsAtStop() {
			// No SessionEnd will come: the session is counted here.
			opt = sessionCount(env, tx, st)
			st.Counted = true
		}
		rep := tx.Maintain(env.Today, env.Config, opt)
		recorded := st.Transcript.RememberCalls - st.Reported
		st.Reported = st.Transcript.RememberCalls
		tx.SetState(stateKey(in), encodeJSON(st))
		out = userMessage(told, updatedMessage(recorded, rep, tx.Notice))
		return nil
	})
	if isBusy(err) {
		return systemMessage(busyMessage), nil
	}
	return out, err
}

// pendingWait bounds Stop's wait, polled every pendingPoll, for a pending
// call's result: Claude Code writes the transcript asynchronously, and
// without it the user would not hear "1 entry recorded".
const (
	pendingWait = 500 * time.Millisecond
	pendingPoll = 20 * time.Millisecond
)

// awaitPending waits, before Stop takes the lock, until nothing is pending
// or pendingWait has passed; it saves nothing. It returns the state file as
// read without the lock and that state caught up with the transcript.
func awaitPending(env Env, in Input) ([]byte, sessionState) {
	state := env.Store.ReadState(stateKey(in))
	st := stateOf(state) // damaged: a fresh start, as under the lock
	before := st.Transcript.PendingChanges
	catchUp(env, in, &st)
	for waited := time.Duration(0); unsettled(st.Transcript, before) && waited < pendingWait; waited += pendingPoll {
		time.Sleep(pendingPoll)
		catchUp(env, in, &st)
	}
	return state, st
}

// unsettled: t waits for a remember call's result, or for a file change
// made since the last event (not in before).
func unsettled(t transcript.Summary, before []transcript.Change) bool {
	return len(t.Pending) > 0 || slices.ContainsFunc(t.PendingChanges, func(c transcript.Change) bool {
		return !slices.ContainsFunc(before, func(b transcript.Change) bool { return b.ID == c.ID })
	})
}

func shouldBlock(policy string, stopHookActive, work bool, st sessionState) bool {
	return !stopHookActive && work && (policy == PolicyNudge && !st.Nudged || policy == PolicyOnce && st.Blocks == 0)
}
