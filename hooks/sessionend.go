package hooks

import (
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/transcript"
)

// sessionEndWait bounds the lock wait at SessionEnd, which the client
// kills after about 1.5 s.
const sessionEndWait = 800 * time.Millisecond

// SessionEnd writes a fallback entry when the session recorded nothing,
// runs the session-end pass, counts the session exactly once per session
// ID, and every Nth session runs the deterministic part of deep
// maintenance. It answers nothing: the client shows no SessionEnd output.
func SessionEnd(env Env, in Input) (Output, error) {
	env.Store = env.Store.WithLockTimeout(min(env.Store.LockTimeout(), sessionEndWait))
	_, err := env.Store.Update(func(tx *memfile.Tx) error {
		st := loadState(tx, in)
		catchUp(env, in, &st)
		if !recordedAnything(st) {
			if text := transcript.FallbackSummary(st.Transcript, entryTextLimit); text != "" {
				if _, _, err := tx.File.Add(memfile.NewEntry{Tier: 2, Importance: 2, Date: env.Today,
					Tags: []string{"auto"}, Text: text}); err != nil {
					return err
				}
				st.Recorded = true
			}
		}
		if st.Transcript.RememberFailed > 0 && !st.Told {
			// The client shows nothing a SessionEnd hook says: the next
			// SessionStart tells the user.
			tx.SetState(noticeKey, []byte(failedMessage(env, st.Transcript)))
			st.Told = true
		}
		opt := memfile.Options{CountSession: !st.Counted}
		if opt.CountSession && (tx.File.Header.Sessions+1)%env.Config.DeepEvery == 0 {
			opt.Deep = true
			opt.ArchivedEntries = env.Store.ArchivedEntries()
		}
		tx.Maintain(env.Today, env.Config, opt)
		st.Counted = true
		saveState(tx, in, st)
		return nil
	})
	if isBusy(err) {
		return Output{}, nil // the next session's pass catches up
	}
	return Output{}, err
}
