package hooks

import (
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
	"github.com/bimri/bimri-hook/transcript"
)

// entryTextLimit bounds the summaries the hook writes itself.
const entryTextLimit = 240

// preCompact writes a checkpoint entry from the transcript when the
// session has recorded nothing yet, so compaction cannot erase the only
// trace of it, and prints instructions that steer the compaction summary.
// SessionStart (source compact) then injects the memory again. The
// checkpoint covers the work up to it: what comes after starts a stretch
// of its own (afterCheckpoint), nudged and covered by SessionEnd's
// fallback entry as a new session's work is.
func preCompact(env Env, in Input) (Output, error) {
	_, err := env.Store.Update(func(tx *store.Tx) error {
		st := loadState(tx, in)
		catchUp(env, in, &st)
		if !recordedAnything(st) {
			if text := transcript.FallbackSummary(st.Transcript, entryTextLimit); text != "" {
				if _, _, err := tx.File.Add(memfile.NewEntry{Tier: 2, Importance: 2, Date: env.Today,
					Tags: []string{"checkpoint"}, Text: checkpointPrefix + text}); err != nil {
					return err
				}
				st = st.afterCheckpoint()
			}
		}
		saveState(tx, in, st)
		tellLater(tx, tx.Notice)
		return nil
	})
	if err != nil && !isBusy(err) {
		return Output{}, err
	}
	return Output{Text: compactInstructions}, nil
}
