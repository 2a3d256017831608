package hooks

import (
	"github.com/bimri/bimri-hook/memfile"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/internal/event"
	"github.com/bimri/bimri-hook/store"
	"github.com/matryer/is"
)

// holdLock holds the workspace lock until the returned function is
// called.
func holdLock(t *testing.T, store *store.Store) func() {
	t.Helper()
	held, release, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		done <- store.UpdateState(nil, func(map[string][]byte) error {
			close(held)
			<-release
			return nil
		})
	}()
	<-held
	return func() {
		close(release)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

// A SessionEnd that cannot get the lock keeps its session's summary,
// and the next event that gets the lock, of any session, writes it.
func TestBusySessionEndKeepsItsSummary(t *testing.T) {
	is := is.New(t)
	env, path := recordEnv(t)
	is.NoErr(os.WriteFile(path, []byte(tPrompt+tWrite), 0o600))
	in := Input{Event: "SessionEnd", SessionID: "s1", TranscriptPath: path, Cwd: env.Store.Root()}
	release := holdLock(t, env.Store)
	busy := env
	busy.Store = env.Store.WithLockTimeout(10 * time.Millisecond)
	_, err := sessionEnd(busy, in)
	is.NoErr(err)
	release()
	read, err := env.Store.Read()
	is.NoErr(err)
	is.True(!hasFallback(read.File)) // not yet: the lock was busy

	// Another session's Stop gets the lock and writes it.
	_, err = stop(env, Input{Event: "Stop", SessionID: "s2", Cwd: env.Store.Root()})
	is.NoErr(err)
	read, err = env.Store.Read()
	is.NoErr(err)
	is.Equal(fallbackText(read.File), "Session: Please write NOTES.md; changed NOTES.md")
	pending, _ := filepath.Glob(filepath.Join(env.Store.StatePath(), "pending", "*"))
	is.Equal(len(pending), 0) // written once, then removed

	// The session's state says it ended and was not counted: a later
	// SessionEnd of it counts it and writes no second summary.
	st := decodeJSON[sessionState](env.Store.ReadState(stateKey(in)))
	is.True(st.Ended && st.Recorded && !st.Counted)
	_, err = sessionEnd(env, in)
	is.NoErr(err)
	read, err = env.Store.Read()
	is.NoErr(err)
	is.Equal(read.File.Header.Sessions, 1)
	n := 0
	for _, e := range read.File.Entries(2) {
		if strings.HasPrefix(e.Text, "Session: ") {
			n++
		}
	}
	is.Equal(n, 1)
}

// Work done after --resume (the same session ID, SessionStart source
// resume) is nudged and covered by the fallback as a new session's is,
// whether the session's SessionEnd ran before or the client was killed.
func TestResumedSessionIsNudgedAndCovered(t *testing.T) {
	const (
		tPrompt2 = `{"type":"user","message":{"role":"user","content":"Now add a CHANGELOG"}}` + "\n"
		tWrite2  = `{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_w2","name":"Write","input":{"file_path":"/p/CHANGELOG.md","content":"x"}}]}}` + "\n" +
			`{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_w2","type":"tool_result","content":"File created successfully at: /p/CHANGELOG.md"}]}}` + "\n"
	)
	for _, ended := range []bool{true, false} {
		name := "ended"
		if !ended {
			name = "killed before SessionEnd"
		}
		t.Run(name, func(t *testing.T) {
			is := is.New(t)
			env, path := recordEnv(t)
			in := Input{SessionID: "s1", TranscriptPath: path, Cwd: env.Store.Root()}
			fire := func(name string, fn func(Env, Input) (Output, error), extra func(*Input)) Output {
				in := in
				in.Event = event.Name(name)
				if extra != nil {
					extra(&in)
				}
				out, err := fn(env, in)
				is.NoErr(err)
				return out
			}
			// The first stretch: work, the nudge left unanswered.
			is.NoErr(os.WriteFile(path, []byte(tPrompt+tWrite), 0o600))
			is.True(stopNudged(fire("Stop", stop, nil)))
			is.True(!stopNudged(fire("Stop", stop, nil))) // nudged once a stretch
			if ended {
				fire("SessionEnd", sessionEnd, nil)
			}

			// Resumed: more work.
			fire("SessionStart", SessionStart, func(in *Input) { in.Source = "resume" })
			is.NoErr(os.WriteFile(path, []byte(tPrompt+tWrite+tPrompt2+tWrite2), 0o600))
			is.True(stopNudged(fire("Stop", stop, nil))) // the resumed work is nudged
			fire("SessionEnd", sessionEnd, nil)

			read, err := env.Store.Read()
			is.NoErr(err)
			var texts []string
			for _, e := range read.File.Entries(2) {
				texts = append(texts, e.Text)
			}
			want := []string{"Session: Please write NOTES.md; changed NOTES.md, CHANGELOG.md"} // one session, never ended
			if ended {
				want = []string{"Session: Please write NOTES.md; changed NOTES.md", "Session: Now add a CHANGELOG; changed CHANGELOG.md"}
			}
			slices.Sort(texts)
			slices.Sort(want)
			is.Equal(texts, want)
			is.Equal(read.File.Header.Sessions, 1) // one session ID, counted once
		})
	}
}

// A SessionEnd past its share of the client's budget (a loaded machine)
// writes nothing itself: it leaves the session's summary pending, as a
// busy one does, and the next event writes it (issue 34, item 14).
func TestSessionEndOutOfTimeLeavesItsWorkPending(t *testing.T) {
	is := is.New(t)
	env, path := recordEnv(t)
	is.NoErr(os.WriteFile(path, []byte(tPrompt+tWrite), 0o600))
	in := Input{Event: "SessionEnd", SessionID: "s1", TranscriptPath: path, Cwd: env.Store.Root()}
	_, err := SessionStart(env, Input{Event: "SessionStart", SessionID: "s0", Source: "startup", Cwd: env.Store.Root()})
	is.NoErr(err)
	before, err := os.ReadFile(env.Store.Path(memfile.MemoryName))
	is.NoErr(err)

	for _, used := range []time.Duration{sessionEndShare, 3 * time.Second} {
		late := env
		late.Elapsed = func() time.Duration { return used }
		is.Equal(sessionEndLockWait(late), time.Duration(0)) // no lock wait left either
		_, err = sessionEnd(late, in)
		is.NoErr(err)
		after, err := os.ReadFile(env.Store.Path(memfile.MemoryName))
		is.NoErr(err)
		is.Equal(string(after), string(before)) // nothing written past the share
		pending, _ := filepath.Glob(filepath.Join(env.Store.StatePath(), "pending", "*"))
		is.Equal(len(pending), 1) // the summary waits
	}

	// With time to spare, the lock wait is the store's, bounded by the share.
	early := env
	early.Elapsed = func() time.Duration { return 900 * time.Millisecond }
	is.Equal(sessionEndLockWait(early), 100*time.Millisecond)

	_, err = stop(env, Input{Event: "Stop", SessionID: "s2", Cwd: env.Store.Root()})
	is.NoErr(err)
	read, err := env.Store.Read()
	is.NoErr(err)
	is.Equal(fallbackText(read.File), "Session: Please write NOTES.md; changed NOTES.md")
}
