package hooks

import (
	"regexp"

	"github.com/bimri/bimri-hook/memfile"
)

// maintenanceAsk matches the protocol's manual triggers.
var maintenanceAsk = regexp.MustCompile(`(?i)\b(run\s+(the\s+)?bimri\s+maintenance|clean\s+up\s+(the\s+)?memory\s+file)\b`)

// UserPromptSubmit runs deep maintenance when the user asks for it ("run
// BIMRI maintenance", "clean up the memory file") and returns its report as
// context. Any other prompt returns at once and touches nothing.
func UserPromptSubmit(env Env, in Input) (Output, error) {
	if !maintenanceAsk.MatchString(in.Prompt) {
		return Output{}, nil
	}
	var text string
	_, err := env.Store.Update(func(tx *memfile.Tx) error {
		rep := tx.Maintain(env.today(), env.Config, memfile.Options{Deep: true, Archived: env.Store.ArchivedEntries()})
		text = maintenanceReport(rep, env, tx.File.Header.Sessions)
		return nil
	})
	if errBusy(err) {
		return additionalContext("UserPromptSubmit", busyMessage+"; ask again in a moment."), nil
	}
	if err != nil {
		return Output{}, err
	}
	return additionalContext("UserPromptSubmit", text), nil
}
