package hooks

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

// cutMemory writes a bimri.md that lost its END marker, with one entry,
// as a tool that cut it short and a commit leave it.
func cutMemory(t *testing.T, env Env) {
	t.Helper()
	is := is.New(t)
	f := memfile.New(env.Config)
	_, _, err := f.Add(memfile.NewEntry{Tier: 2, Importance: 3, Date: env.Today, Text: "Kept after the cut."})
	is.NoErr(err)
	data := string(memfile.Render(f))
	path := env.Store.Path(env.Store.Names().Memory)
	is.NoErr(os.WriteFile(path, []byte(data[:strings.Index(data, "<!-- END BIMRI -->")]), 0o644))
	long := time.Now().Add(-time.Hour) // no writer is at it any more
	is.NoErr(os.Chtimes(path, long, long))
}

// What the store repaired is told to the user, not only to the model:
// at SessionStart in the answer's systemMessage.
func TestRepairIsToldToTheUserAtSessionStart(t *testing.T) {
	is := is.New(t)
	env, _ := recordEnv(t)
	cutMemory(t, env)
	out, err := SessionStart(env, Input{Event: "SessionStart", SessionID: "s1", Source: "startup", Cwd: env.Store.Root()})
	is.NoErr(err)
	msg, _ := out.JSON["systemMessage"].(string)
	is.True(strings.Contains(msg, "ended without its"))
	read, err := env.Store.Read()
	is.NoErr(err)
	is.Equal(read.File.Entries(2)[0].Text, "Kept after the cut.")
}

// A repair made by an event whose answer the user never sees
// (SessionEnd) is told by the next SessionStart, once.
func TestRepairAtSessionEndIsToldNextSession(t *testing.T) {
	is := is.New(t)
	env, _ := recordEnv(t)
	cutMemory(t, env)
	_, err := sessionEnd(env, Input{Event: "SessionEnd", SessionID: "s1", Cwd: env.Store.Root()})
	is.NoErr(err)
	start := Input{Event: "SessionStart", SessionID: "s2", Source: "startup", Cwd: env.Store.Root()}
	out, err := SessionStart(env, start)
	is.NoErr(err)
	msg, _ := out.JSON["systemMessage"].(string)
	is.True(strings.Contains(msg, "ended without its"))
	out, err = SessionStart(env, start)
	is.NoErr(err)
	msg, _ = out.JSON["systemMessage"].(string)
	is.True(!strings.Contains(msg, "ended without its")) // told once
}
