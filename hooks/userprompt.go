package hooks

import (
	"regexp"
	"strings"
	"sync"

	"github.com/bimri/bimri-hook/internal/event"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
)

// maintenanceAsk matches the protocol's manual triggers.
var maintenanceAsk = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(run\s+(the\s+)?bimri\s+maintenance|clean\s+up\s+(the\s+)?memory\s+file)\b`)
})

// politeLead is what may stand before a trigger in a request; anything
// else ("don't", "should we") makes it something else.
var politeLead = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^((please|kindly|now|ok|okay|so|then|and|also|go ahead and|let's|lets|can you|could you|would you|will you)[\s,]*)*$`)
})

// askingLead makes a question a request: "can you run BIMRI maintenance?".
var askingLead = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\b(can|could|would|will) you\b`) })

// putOff, after the trigger, defers or negates it.
var putOff = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\b(later|tomorrow|yet|not|next time|after)\b`) })

var sentenceEnd = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[.!?;\n]`) })

// asksForMaintenance says the prompt asks, in the imperative, for
// maintenance now; not a negation or a question about it.
func asksForMaintenance(prompt string) bool {
	for _, loc := range maintenanceAsk().FindAllStringIndex(prompt, -1) {
		start := 0
		if ends := sentenceEnd().FindAllStringIndex(prompt[:loc[0]], -1); len(ends) > 0 {
			start = ends[len(ends)-1][1]
		}
		end := len(prompt)
		if i := sentenceEnd().FindStringIndex(prompt[loc[1]:]); i != nil {
			end = loc[1] + i[0]
		}
		lead := strings.Trim(prompt[start:loc[0]], " \t,:-")
		if politeLead().MatchString(lead) && !putOff().MatchString(prompt[loc[1]:end]) &&
			(end == len(prompt) || prompt[end] != '?' || askingLead().MatchString(lead)) {
			return true
		}
	}
	return false
}

// UserPromptSubmit runs deep maintenance when the user asks for it and
// returns its report; any other prompt may get recall.
func UserPromptSubmit(env Env, in Input) (Output, error) {
	if !asksForMaintenance(in.Prompt) {
		return recallPrompt(env, in), nil
	}
	var text string
	_, err := env.Store.Update(func(tx *store.Tx) error {
		rep := tx.Maintain(env.Today, env.Config, memfile.Options{Deep: true, ArchivedEntries: env.Store.ArchivedEntries()})
		text = "BIMRI deep maintenance ran just now, at the user's request.\n" + maintenanceReport(rep, env, tx.File) + "\nTell the user briefly what changed."
		tellLater(tx, tx.Notice)
		return nil
	})
	if isBusy(err) {
		return additionalContext(event.UserPromptSubmit, busyMaintenanceMessage), nil
	}
	if err != nil {
		return Output{}, err
	}
	return additionalContext(event.UserPromptSubmit, text), nil
}
