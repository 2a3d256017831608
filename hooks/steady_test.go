package hooks

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

// A SessionStart on a file already maintained today answers as the
// first did and leaves the file as it is; so does Stop, which says what
// its pass said the first time.
func TestSteadySessionStart(t *testing.T) {
	is := is.New(t)
	env, path := recordEnv(t)
	env.Store = env.Store.WithLockTimeout(50 * time.Millisecond)
	day := env.Today
	f := memfile.New(env.Config)
	for i, text := range []string{"Chose PostgreSQL for the invoices.", "Added retries to the upload loop.", "Fixed the login redirect."} {
		_, _, err := f.Add(memfile.NewEntry{Tier: 1 + i%2, Importance: 4 + i%2, Date: day.AddDate(0, 0, -3*i), Tags: []string{"db", "api"}, Text: text})
		is.NoErr(err)
	}
	f.Header.Sessions = 3
	is.NoErr(os.WriteFile(env.Store.Path(memfile.MemoryName), memfile.Render(f), 0o644))
	is.NoErr(os.WriteFile(path, []byte(tPrompt), 0o600))
	in := Input{Event: "SessionStart", SessionID: "s1", TranscriptPath: path, Cwd: env.Store.Root(), Source: "startup"}
	answer := func() string {
		out, err := SessionStart(env, in)
		is.NoErr(err)
		data, err := json.Marshal(out.JSON)
		is.NoErr(err)
		return string(data)
	}

	first := answer() // maintains the file (last maintained never)
	maintained, err := os.ReadFile(env.Store.Path(memfile.MemoryName))
	is.NoErr(err)
	is.Equal(answer(), first)
	now, err := os.ReadFile(env.Store.Path(memfile.MemoryName))
	is.NoErr(err)
	is.Equal(now, maintained)

	// Stop: the same file, the same message, and the file untouched.
	stopIn := in
	stopIn.Event, stopIn.StopHookActive = "Stop", true
	out, err := stop(env, stopIn)
	is.NoErr(err)
	once, _ := json.Marshal(out.JSON)
	now, err = os.ReadFile(env.Store.Path(memfile.MemoryName))
	is.NoErr(err)
	is.Equal(now, maintained)
	out, err = stop(env, stopIn)
	is.NoErr(err)
	twice, _ := json.Marshal(out.JSON)
	is.Equal(string(once), string(twice))

	// A notice waiting for the user takes the full path, which tells it once.
	is.NoErr(os.WriteFile(filepath.Join(env.Store.StatePath(), noticeKey+".json"), []byte("the agent's remember was denied"), 0o644))
	is.True(strings.Contains(answer(), "remember was denied"))
	is.True(!strings.Contains(answer(), "remember was denied"))
}
