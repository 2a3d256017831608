package hooks

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bimri/bimri-hook/internal/event"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
)

// passWorkspace is a workspace whose bimri.md has counted sessions and
// two entries of the same words, as a hand edit or a merge leaves them
// (Add refuses a second).
func passWorkspace(t *testing.T, sessions int) Env {
	t.Helper()
	cfg := memfile.DefaultConfig()
	f := memfile.New(cfg)
	for _, text := range []string{"Billing uses Postgres.", "Billing will use Postgres.", "The API is versioned."} {
		if _, _, err := f.Add(memfile.NewEntry{Tier: 2, Importance: 3, Date: truthDay, Tags: []string{"db"}, Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	f.Header.Sessions = sessions
	env := truthWorkspace(t, f, cfg)
	path := filepath.Join(env.Store.Root(), memfile.MemoryName)
	if err := os.WriteFile(path, bytes.Replace(memfile.Render(f), []byte("will use"), []byte("uses"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	return env
}

// The session-end pass that counts every DeepEvery-th session is deep (it
// merges entries of the same words); the others are not.
func TestEveryDeepEveryThSessionEndIsDeep(t *testing.T) {
	for _, c := range []struct {
		before int
		deep   bool
	}{{8, false}, {9, true}, {10, false}, {19, true}} {
		env := passWorkspace(t, c.before)
		if _, err := Handle(env, Input{Event: event.SessionEnd, SessionID: "s", Cwd: env.Store.Root()}); err != nil {
			t.Fatal(err)
		}
		read, err := env.Store.Read()
		if err != nil {
			t.Fatal(err)
		}
		if n, want := len(read.File.Entries(2)), map[bool]int{false: 3, true: 2}[c.deep]; n != want || read.File.Header.Sessions != c.before+1 {
			t.Errorf("session %d ended: %d entries (want %d), sessions %d", c.before+1, n, want, read.File.Header.Sessions)
		}
	}
}

// maintain without --deep says when deep maintenance is due: at every
// DeepEvery-th session.
func TestMaintainSaysDeepIsDue(t *testing.T) {
	for _, c := range []struct {
		sessions int
		due      bool
	}{{7, false}, {10, true}} {
		var b strings.Builder
		if err := Maintain(&b, passWorkspace(t, c.sessions), false, false); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(b.String(), "Deep maintenance is due (maintain --deep)"); got != c.due {
			t.Errorf("sessions %d: due %v, want %v:\n%s", c.sessions, got, c.due, b.String())
		}
	}
}

// Notices kept for the next SessionStart are joined, never replaced: two
// passes before the user comes back both reach them.
func TestNoticesKeptForLaterAreJoined(t *testing.T) {
	env := passWorkspace(t, 1)
	for _, msg := range []string{"first", "", "second"} {
		if _, err := env.Store.Update(func(tx *store.Tx) error { tellLater(tx, msg); return nil }); err != nil {
			t.Fatal(err)
		}
	}
	if got := string(env.Store.ReadState(noticeKey)); got != "first · second" {
		t.Fatalf("kept %q", got)
	}
}
