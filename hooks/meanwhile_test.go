package hooks

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

// A writing SessionStart on a large file builds its answer while the
// file is synced (meanwhileFrom). The answer is the one built after the
// write, byte for byte; and when the write fails, the answer built
// meanwhile is dropped for the one with the failure's notice. Both paths
// run here on a small file, meanwhileFrom lowered to take them.
func TestSessionStartAnswerBuiltMeanwhile(t *testing.T) {
	is := is.New(t)
	answer := func(from int, readOnly bool) string {
		defer func(was int) { meanwhileFrom = was }(meanwhileFrom)
		meanwhileFrom = from
		env, path := recordEnv(t)
		f := memfile.New(env.Config)
		for i, text := range []string{"Chose PostgreSQL for the invoices.", "Added retries to the upload loop.", "Fixed the login redirect."} {
			_, _, err := f.Add(memfile.NewEntry{Tier: 2, Importance: 3 + i, Date: env.Today.AddDate(0, 0, -2*i), Tags: []string{"db", "api"}, Text: text})
			is.NoErr(err)
		}
		memory := env.Store.Path(memfile.MemoryName)
		is.NoErr(os.WriteFile(memory, memfile.Render(f), 0o644)) // never maintained: the pass writes
		if readOnly {
			is.NoErr(os.Chmod(memory, 0o444))
		}
		is.NoErr(os.WriteFile(path, []byte(tPrompt), 0o600))
		out, err := SessionStart(env, Input{Event: "SessionStart", SessionID: "s1", TranscriptPath: path, Cwd: env.Store.Root(), Source: "startup"})
		is.NoErr(err)
		data, err := json.Marshal(out.JSON)
		is.NoErr(err)
		// The store's root differs from run to run; the answer names it.
		return strings.ReplaceAll(string(data), env.Store.Root(), "ROOT")
	}
	is.Equal(answer(0, false), answer(1<<30, false)) // built meanwhile, the same answer
	failed := answer(0, true)
	is.Equal(failed, answer(1<<30, true))
	is.True(strings.Contains(failed, "read-only")) // the failure's notice, not the answer built before it
}
