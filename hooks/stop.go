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

// stop runs after every assistant turn. Under the nudge policy, when the
// session did real work and recorded nothing since, it nudges once: it
// gives the agent the exact command to record with as additional context,
// which (measured on Claude Code 2.1.328) keeps the turn going like a block
// does, without showing the user "stop hook reported a problem". Otherwise
// (and always when stop_hook_active is set, so the agent can never be
// trapped) it runs the session-end pass and tells the user what changed,
// if anything did. A remember call that failed is told to the user once,
// with what to do about it, and is not asked for again: a denied call
// would only be denied again.
func stop(env Env, in Input) (Output, error) {
	early := awaitPending(env, in)
	var out Output
	_, err := env.Store.Update(func(tx *store.Tx) error {
		st := loadState(tx, in)
		early.use(tx, in, &st)
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
		saveState(tx, in, st)
		out = userMessage(told, updatedMessage(recorded, rep, tx.Notice))
		return nil
	})
	if isBusy(err) {
		return systemMessage(busyMessage), nil
	}
	return out, err
}

// pendingWait bounds how long Stop waits for the result of a remember call
// to reach the transcript, polled every pendingPoll. Claude Code 2.1.328
// writes the transcript asynchronously: measured with the e2e harness, the
// Stop after a remember the model had already seen succeed often arrived
// before the call's tool_result line, which appeared a moment later.
// Without the wait the record is still pending, the user is not told
// "1 entry recorded", and on a fast machine that was most Stops. The wait
// happens only while a call is pending, so a Stop without one costs
// nothing, and it stays far inside Stop's timeout.
const (
	pendingWait = 500 * time.Millisecond
	pendingPoll = 20 * time.Millisecond
)

// awaitPending waits, before Stop takes the lock, until no remember call
// or new file change is pending in the transcript (see unsettled) or
// pendingWait has passed, so a Stop that
// waits never keeps another hook from the memory. It reads the session's
// state without the lock (Store.ReadState: a whole version) and nothing it
// reads is saved: under the lock Stop loads the state again. A call still
// pending after the wait is settled by a later event, as before.
func awaitPending(env Env, in Input) earlyRead {
	r := earlyRead{state: env.Store.ReadState(stateKey(in))}
	r.st = stateOf(r.state) // damaged: a fresh start, as loadState does
	before := r.st.Transcript.PendingChanges
	catchUp(env, in, &r.st)
	for waited := time.Duration(0); unsettled(r.st.Transcript, before) && waited < pendingWait; waited += pendingPoll {
		time.Sleep(pendingPoll)
		catchUp(env, in, &r.st)
	}
	return r
}

// unsettled says whether t waits for a remember call's result, or for
// that of a file change made since the last event (not in before): a
// change whose result never came at an earlier event never will, and
// must not make every Stop wait.
func unsettled(t transcript.Summary, before []transcript.Change) bool {
	if len(t.Pending) > 0 {
		return true
	}
	for _, c := range t.PendingChanges {
		if !slices.ContainsFunc(before, func(b transcript.Change) bool { return b.ID == c.ID }) {
			return true
		}
	}
	return false
}

// earlyRead is the transcript awaitPending read on top of a saved state.
type earlyRead struct {
	state []byte       // the state file as read without the lock
	st    sessionState // that state, caught up with the transcript
}

// use takes the transcript awaitPending already read when st, loaded
// under the lock, is the state it started from, so Stop reads the new
// part of the transcript once; catchUp then reads only what came since.
// When another event saved the state in between, st is left as loaded.
func (r earlyRead) use(tx *store.Tx, in Input, st *sessionState) {
	if bytes.Equal(tx.State(stateKey(in)), r.state) {
		st.Transcript = r.st.Transcript
	}
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
