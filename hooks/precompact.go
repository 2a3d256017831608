package hooks

import "github.com/bimri/bimri-hook/store"

// entryTextLimit bounds the summaries the hook writes itself.
const entryTextLimit = 240

// preCompact writes a checkpoint from the transcript when the session has
// recorded nothing, so compaction cannot erase its only trace, and steers
// the compaction summary.
func preCompact(env Env, in Input) (Output, error) {
	_, err := env.Store.Update(func(tx *store.Tx) error {
		st := stateOf(tx.State(stateKey(in)))
		catchUp(env, in, &st)
		if !recordedAnything(st) {
			for _, e := range summaryEntry(env, st.Transcript, "checkpoint", checkpointPrefix) {
				if _, _, err := tx.File.Add(e); err != nil {
					return err
				}
				// The work after the checkpoint gets a nudge and a fallback entry of its own.
				next := st.resumed()
				next.Blocks, next.Reported = st.Blocks, st.Reported
				st = next
			}
		}
		tx.SetState(stateKey(in), encodeJSON(st))
		tellLater(tx, tx.Notice)
		return nil
	})
	if err != nil && !isBusy(err) {
		return Output{}, err
	}
	return Output{Text: compactInstructions}, nil
}
