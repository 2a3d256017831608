package hooks

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/gofrs/flock"
	"github.com/matryer/is"
)

// A SessionStart on a file already maintained today answers exactly what
// the full path (lock, pass, compare) answers, without the lock: it
// still answers, with no busy notice, while another process holds it.
// Stop on such a file skips its pass and says what the pass would say.
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

	first := answer() // maintains the file (last maintained never) and stamps it
	maintained, err := os.ReadFile(env.Store.Path(memfile.MemoryName))
	is.NoErr(err)
	_, steady := env.Store.ReadMaintained(day, env.Config)
	is.True(steady)
	is.Equal(answer(), first) // the steady path

	stamp := filepath.Join(env.Store.StatePath(), "pass")
	is.NoErr(os.Remove(stamp))
	is.Equal(answer(), first) // the full path again, and it stamps again
	_, steady = env.Store.ReadMaintained(day, env.Config)
	is.True(steady)

	lock := flock.New(filepath.Join(env.Store.StatePath(), "lock"))
	ok, err := lock.TryLock()
	is.NoErr(err)
	is.True(ok)
	is.Equal(answer(), first) // no wait, no busy notice: the lock was never asked for
	is.NoErr(os.Remove(stamp))
	is.True(strings.Contains(answer(), busyMessage)) // the full path needs it
	is.NoErr(lock.Unlock())
	answer() // stamps again

	// Stop: the same file, the same message, and the file untouched.
	stopIn := in
	stopIn.Event, stopIn.StopHookActive = "Stop", true
	out, err := stop(env, stopIn)
	is.NoErr(err)
	skipped, _ := json.Marshal(out.JSON)
	now, err := os.ReadFile(env.Store.Path(memfile.MemoryName))
	is.NoErr(err)
	is.Equal(now, maintained)
	is.NoErr(os.Remove(stamp))
	out, err = stop(env, stopIn)
	is.NoErr(err)
	ran, _ := json.Marshal(out.JSON)
	is.Equal(string(skipped), string(ran))

	// A notice waiting for the user takes the full path, which tells it once.
	is.NoErr(os.WriteFile(filepath.Join(env.Store.StatePath(), noticeKey+".json"), []byte("the agent's remember was denied"), 0o644))
	is.True(strings.Contains(answer(), "remember was denied"))
	is.True(!strings.Contains(answer(), "remember was denied"))
}
