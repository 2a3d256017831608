package hooks

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
	"github.com/matryer/is"
)

// Transcript lines as Claude Code writes them, cut to what matters.
const (
	tPrompt   = `{"type":"user","message":{"role":"user","content":"Please write NOTES.md"}}` + "\n"
	tWriteUse = `{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_w","name":"Write","input":{"file_path":"/p/NOTES.md","content":"x"}}]}}` + "\n"
	tWrite    = tWriteUse + `{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_w","type":"tool_result","content":"File created successfully at: /p/NOTES.md"}]}}` + "\n"
	// A Write the client did not allow: its result is an error.
	tWriteDenied = `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"Claude requested permissions to write to /p/NOTES.md, but you haven't granted it yet.","is_error":true,"tool_use_id":"toolu_w"}]}}` + "\n"
	tRemember    = `{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_r","name":"Bash","input":{"command":"bimri-hook remember --importance 3 -- Wrote NOTES.md"}}]}}` + "\n"
	tOK          = `{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_r","type":"tool_result","content":"Recorded E1."}]}}` + "\n"
	tDenied      = `{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_r","type":"tool_result","content":"This command requires approval","is_error":true}]}}` + "\n"
	tFailed      = `{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_r","type":"tool_result","content":"Exit code 1\nbimri-hook: remember: no text","is_error":true}]}}` + "\n"
)

// A record is a remember call whose result succeeded. Each case plays a
// session's transcript as it stands at Stop, then at SessionEnd, through
// the handlers, and checks the nudge, what the user is told, and whether
// the fallback entry is written.
func TestRecordNeedsASuccessfulResult(t *testing.T) {
	cases := []struct {
		name          string
		atStop, atEnd string // the transcript when each event runs
		nudge         bool   // Stop asks the agent to record
		told          string // Stop tells the user this ("" nothing)
		fallback      bool   // SessionEnd writes the fallback entry
		fallbackText  string // and it says this ("" for the prompt and NOTES.md)
		nextStart     string // the next SessionStart tells the user this
		meant         bool   // SessionEnd records the denied call's entry, as the agent meant it
	}{
		{name: "recorded", atStop: tPrompt + tWrite + tRemember + tOK, told: "BIMRI updated: 1 entry recorded", fallback: false},
		{name: "work and no record", atStop: tPrompt + tWrite, nudge: true, fallback: true},
		{name: "denied", atStop: tPrompt + tWrite + tRemember + tDenied, told: "records the entry the agent meant at the session's end, tagged after-denial. To let it record: accept this workspace's trust dialog in Claude Code, or run bimri-hook install --scope user", meant: true},
		{name: "failed", atStop: tPrompt + tWrite + tRemember + tFailed, told: "failed (Exit code 1)", fallback: true},
		{name: "result not yet written at Stop, then recorded", atStop: tPrompt + tWrite + tRemember,
			atEnd: tPrompt + tWrite + tRemember + tOK, fallback: false},
		{name: "result not yet written at Stop, then denied", atStop: tPrompt + tWrite + tRemember,
			atEnd: tPrompt + tWrite + tRemember + tDenied, meant: true, nextStart: "denied the agent's"},
		{name: "result never written", atStop: tPrompt + tWrite + tRemember, fallback: true},
		// A write the client denied changed nothing: no nudge for work,
		// and the fallback entry does not say NOTES.md changed.
		{name: "denied write", atStop: tPrompt + tWriteUse + tWriteDenied, fallback: true, fallbackText: "Session: Please write NOTES.md"},
		{name: "write whose result is still to come", atStop: tPrompt + tWriteUse, atEnd: tPrompt + tWrite, fallback: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // several cases wait out pendingWait for a result never written
			is := is.New(t)
			env, path := recordEnv(t)
			in := Input{SessionID: "s1", TranscriptPath: path, Cwd: env.Store.Root()}
			is.NoErr(os.WriteFile(path, []byte(c.atStop), 0o600))

			in.Event = "Stop"
			out, err := stop(env, in)
			is.NoErr(err)
			is.Equal(stopNudged(out), c.nudge)
			msg, _ := out.JSON["systemMessage"].(string)
			if c.told == "" {
				is.True(!strings.Contains(msg, "BIMRI")) // nothing to tell
			} else {
				is.True(strings.Contains(msg, c.told))
			}

			if c.atEnd != "" {
				is.NoErr(os.WriteFile(path, []byte(c.atEnd), 0o600))
			}
			in.Event = "SessionEnd"
			_, err = sessionEnd(env, in)
			is.NoErr(err)
			read, err := env.Store.Read()
			is.NoErr(err)
			f := read.File
			is.Equal(hasFallback(f), c.fallback)
			if want := c.fallbackText; c.fallback {
				if want == "" {
					want = "Session: Please write NOTES.md; changed NOTES.md"
				}
				is.Equal(fallbackText(f), want)
			}
			var meant *memfile.Entry
			for _, e := range f.Entries(2) {
				if e.Text == "Wrote NOTES.md" {
					meant = e
				}
			}
			is.Equal(meant != nil, c.meant)
			if c.meant {
				is.Equal(meant.Importance, 3)
				is.True(slices.Contains(meant.Tags, memfile.DeniedTag))
			}

			start := func() string {
				out, err := SessionStart(env, Input{Event: "SessionStart", SessionID: "s2", Source: "startup", Cwd: env.Store.Root()})
				is.NoErr(err)
				msg, _ := out.JSON["systemMessage"].(string)
				return msg
			}
			next := start()
			if c.nextStart == "" {
				is.True(!strings.Contains(next, "BIMRI:"))
			} else {
				is.True(strings.Contains(next, c.nextStart))
				is.True(strings.Contains(next, "install --scope user")) // the one advice
				is.True(!strings.Contains(start(), "BIMRI:"))           // told once
			}
		})
	}
}

// A denied remember is told once: the Stops after it say nothing more and
// do not ask again.
func TestDeniedToldOnce(t *testing.T) {
	is := is.New(t)
	env, path := recordEnv(t)
	in := Input{Event: "Stop", SessionID: "s1", TranscriptPath: path, Cwd: env.Store.Root()}
	is.NoErr(os.WriteFile(path, []byte(tPrompt+tWrite+tRemember+tDenied), 0o600))
	out, err := stop(env, in)
	is.NoErr(err)
	is.True(strings.Contains(out.JSON["systemMessage"].(string), "denied"))
	is.NoErr(os.WriteFile(path, []byte(tPrompt+tWrite+tRemember+tDenied+tWrite), 0o600))
	out, err = stop(env, in)
	is.NoErr(err)
	is.True(!stopNudged(out)) // more work, but asking again would be denied again
	msg, _ := out.JSON["systemMessage"].(string)
	is.True(!strings.Contains(msg, "denied"))
}

func recordEnv(t *testing.T) (Env, string) {
	t.Helper()
	root := t.TempDir()
	cfg := memfile.DefaultConfig()
	store, err := store.OpenStore(root, cfg, store.StoreOptions{LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	env := Env{Store: store, Config: cfg, Settings: DefaultSettings(), Binary: "bimri-hook",
		Today: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)}
	return env, filepath.Join(root, "t.jsonl")
}

func stopNudged(out Output) bool {
	spec, ok := out.JSON["hookSpecificOutput"].(map[string]any)
	return ok && spec["hookEventName"] == "Stop" && strings.Contains(spec["additionalContext"].(string), "remember")
}

// fallbackText is the text of the fallback entry, "" when there is none.
func fallbackText(f *memfile.File) string {
	for t := 1; t <= 3; t++ {
		for _, e := range f.Entries(t) {
			if strings.HasPrefix(e.Text, "Session: ") {
				return e.Text
			}
		}
	}
	return ""
}

func hasFallback(f *memfile.File) bool { return fallbackText(f) != "" }

// "BIMRI updated" only when a pass changed something.
func TestUpdatedMessage(t *testing.T) {
	is := is.New(t)
	archived := memfile.Report{Removed: []memfile.Removal{{}}}
	is.Equal(updatedMessage(0, memfile.Report{}, ""), "")
	is.Equal(updatedMessage(0, memfile.Report{}, "a notice"), "a notice")
	is.Equal(updatedMessage(0, archived, ""), "BIMRI updated: 1 archived")
	is.Equal(updatedMessage(1, archived, "a notice"), "BIMRI updated: 1 entry recorded; 1 archived. a notice")
	is.Equal(updatedMessage(2, memfile.Report{}, ""), "BIMRI updated: 2 entries recorded")
}

// Pruning done at SessionStart is reported to the user, as at Stop; a
// SessionStart that changes nothing says nothing.
func TestSessionStartReportsPruning(t *testing.T) {
	is := is.New(t)
	env, _ := recordEnv(t)
	f := memfile.New(env.Config)
	_, _, err := f.Add(memfile.NewEntry{Tier: 2, Importance: 1, Date: env.Today.AddDate(0, -6, 0), Tags: []string{"old"}, Text: "A transient note from long ago."})
	is.NoErr(err)
	is.NoErr(os.WriteFile(filepath.Join(env.Store.Root(), memfile.MemoryName), memfile.Render(f), 0o644))
	start := func() string {
		out, err := SessionStart(env, Input{Event: "SessionStart", SessionID: "s", Source: "startup", Cwd: env.Store.Root()})
		is.NoErr(err)
		msg, _ := out.JSON["systemMessage"].(string)
		return msg
	}
	is.Equal(start(), "BIMRI updated: 1 archived")
	is.Equal(start(), "") // nothing more to do
}

// Stop waits for a pending remember result before it takes the lock, not
// while holding it: a Stop whose wait for the lock is shorter than the
// time another writer holds it still gets the lock once its own wait for
// the transcript is over. (Were it to take the lock first, it would give
// up and answer busy.) The result never arrives here, so Stop waits the
// whole pendingWait.
func TestStopWaitsForPendingOutsideTheLock(t *testing.T) {
	is := is.New(t)
	env, path := recordEnv(t)
	is.NoErr(os.WriteFile(path, []byte(tPrompt+tWrite+tRemember), 0o600))
	held, release := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- env.Store.UpdateState([]string{"other"}, func(map[string][]byte) error {
			close(held)
			<-release
			return nil
		})
	}()
	<-held
	time.AfterFunc(pendingWait/2, func() { close(release) })
	env.Store = env.Store.WithLockTimeout(pendingWait / 5)
	out, err := stop(env, Input{Event: "Stop", SessionID: "s1", TranscriptPath: path, Cwd: env.Store.Root()})
	is.NoErr(err)
	is.NoErr(<-done)
	msg, _ := out.JSON["systemMessage"].(string)
	is.True(msg != busyMessage) // Stop got the lock
	is.True(!stopNudged(out))   // the pending call is an answer, as before
}
