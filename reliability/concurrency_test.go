package reliability

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/internal/slowtest"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
	"github.com/matryer/is"
)

const (
	writers           = 32
	entriesPerWriter  = 15
	sessionRunners    = 4 // goroutines running whole sessions side by side
	sessionsPerRunner = 6
)

// recorded is one entry a writer asked for.
type recorded struct {
	text string
	date time.Time
	id   string // as remember printed it
}

// TestConcurrentSessions runs 32 processes recording 15 entries each while
// whole sessions (SessionStart, Stop, SessionEnd, a maintenance request)
// run alongside and a reader parses bimri.md in a loop. Entries carry
// dates up to 40 days old and importance 1 to 5, so the passes prune,
// decay and evict by budget while the writers write. Every entry must end
// up exactly once in bimri.md or the archive, and the reader must never
// see a torn file.
func TestConcurrentSessions(t *testing.T) {
	slowtest.Gate(t) // hundreds of processes
	is := is.New(t)
	dir := t.TempDir()
	root, home := filepath.Join(dir, "proj"), filepath.Join(dir, "home")
	is.NoErr(os.MkdirAll(root, 0o755))
	is.NoErr(os.MkdirAll(home, 0o755))
	// The default config: remember, run by the agent, waits for the lock
	// far longer than a hook may (see agentLockWait), so on a loaded
	// 2-CPU machine with 32 writers none may fail "busy"; a hook that
	// finds the lock busy skips its update by design.
	env := map[string]string{"CLAUDE_PROJECT_DIR": root}
	base, _ := memfile.ParseDate(today)

	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		want     []recorded
		sessions []string
	)
	done := make(chan struct{})

	// The reader: every version of bimri.md it catches must parse.
	var reads, torn atomic.Int64
	var tornSample atomic.Value
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		for {
			select {
			case <-done:
				return
			default:
			}
			// A pause between reads leaves the writers the CPU; thousands
			// of reads still happen.
			time.Sleep(time.Millisecond)
			data, err := os.ReadFile(filepath.Join(root, memfile.MemoryName))
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				torn.Add(1)
				tornSample.Store(err.Error())
				continue
			}
			if _, _, err := memfile.Parse(data); err != nil {
				torn.Add(1)
				tornSample.Store(fmt.Sprintf("%v\n%s", err, data))
				continue
			}
			reads.Add(1)
		}
	}()

	for w := range writers {
		wg.Go(func() {
			for i := range entriesPerWriter {
				n := w*entriesPerWriter + i
				imp := 1 + n%5
				date := base.AddDate(0, 0, -(n * 7 % 41))
				text := fmt.Sprintf("Writer %02d entry %02d chose option %d for the %s module.", w, i, n, modules[n%len(modules)])
				args := []string{"remember", "--importance", fmt.Sprint(imp),
					"--tags", modules[n%len(modules)] + "," + modules[(n/3)%len(modules)],
					"--today", date.Format("2006-01-02")}
				if imp == 5 && n%2 == 0 {
					args = append(args, "--tier", "1")
				}
				res := run(t, home, proc{args: append(args, text), env: env})
				if res.code != 0 {
					t.Errorf("remember %q: exit %d: %s", text, res.code, res.stderr)
					continue
				}
				id := rememberedID(t, res.stdout)
				mu.Lock()
				want = append(want, recorded{text: text, date: date, id: id})
				mu.Unlock()
			}
		})
	}
	for r := range sessionRunners {
		wg.Go(func() {
			for s := range sessionsPerRunner {
				id := fmt.Sprintf("sess-%d-%d", r, s)
				day := base.AddDate(0, 0, -(r+s)%4).Format("2006-01-02")
				in := map[string]any{"session_id": id, "cwd": root, "transcript_path": ""}
				sessionEnv := map[string]string{"CLAUDE_PROJECT_DIR": root, "BIMRI_TODAY": day}
				steps := []struct{ name, extra string }{
					{"SessionStart", "startup"}, {"Stop", ""}, {"UserPromptSubmit", ""}, {"Stop", ""}, {"SessionEnd", "other"},
				}
				for _, st := range steps {
					fields := map[string]any{}
					for k, v := range in {
						fields[k] = v
					}
					switch st.name {
					case "SessionStart":
						fields["source"] = st.extra
					case "SessionEnd":
						fields["reason"] = st.extra
					case "UserPromptSubmit":
						fields["prompt"] = "Please continue with the next task."
						if s == 2 {
							fields["prompt"] = "run BIMRI maintenance"
						}
					}
					res := run(t, home, proc{args: []string{"hook"}, stdin: event(st.name, fields), env: sessionEnv})
					if res.code != 0 {
						t.Errorf("%s of %s: exit %d: %s", st.name, id, res.code, res.stderr)
					}
				}
				mu.Lock()
				sessions = append(sessions, id)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	close(done)
	<-readerDone
	if t.Failed() {
		t.FailNow()
	}

	t.Logf("the reader parsed %d whole versions of bimri.md while %d processes ran", reads.Load(), writers*entriesPerWriter+sessionRunners*sessionsPerRunner*5)
	if n := torn.Load(); n > 0 {
		t.Fatalf("the reader saw %d torn or unreadable versions of bimri.md; one was:\n%v", n, tornSample.Load())
	}
	is.True(reads.Load() > 0) // the reader must have read something to prove anything

	f, _ := readMemory(t, root)
	recs := readArchive(t, root)
	is.Equal(len(want), writers*entriesPerWriter)

	// Every entry is in bimri.md or the archive, exactly once, with the
	// ID remember gave it and the date it was recorded on.
	type place struct {
		where string
		e     *memfile.Entry
	}
	found := map[string][]place{}
	for _, e := range entries(f) {
		found[e.Text] = append(found[e.Text], place{"bimri.md", e})
	}
	for _, r := range recs {
		if r.Entry != nil {
			found[r.Entry.Text] = append(found[r.Entry.Text], place{"archive", r.Entry})
		}
	}
	inFile, inArchive := 0, 0
	for _, w := range want {
		ps := found[w.text]
		if len(ps) != 1 {
			var where []string
			for _, p := range ps {
				where = append(where, p.where)
			}
			t.Errorf("entry %q is in %d places (%s), want exactly 1", w.text, len(ps), strings.Join(where, ", "))
			continue
		}
		e := ps[0].e
		if e.ID != w.id {
			t.Errorf("entry %q has ID %s in %s, remember said %s", w.text, e.ID, ps[0].where, w.id)
		}
		if !e.Date.Equal(w.date) {
			t.Errorf("entry %q is dated %s, recorded on %s", w.text, e.Date.Format("2006-01-02"), w.date.Format("2006-01-02"))
		}
		if ps[0].where == "archive" {
			inArchive++
		} else {
			inFile++
		}
	}
	t.Logf("%d entries stayed in bimri.md, %d were archived by the passes", inFile, inArchive)
	is.True(inArchive > 0) // the passes must have pruned or evicted, or the test proved little
	is.True(inFile > 0)

	// Sessions counts each session whose SessionEnd got the lock. A
	// SessionEnd that found the lock busy skipped by design (Claude Code
	// kills it after 1.5 s); its session state says so.
	counted := countedSessions(t, root)
	is.Equal(f.Header.Sessions, counted)
	t.Logf("%d of %d SessionEnds counted their session under load", counted, len(sessions))

	// Ending every session again, one after another, counts the skipped
	// ones and never a session twice.
	for _, id := range sessions {
		res := run(t, home, proc{args: []string{"hook"}, env: env,
			stdin: event("SessionEnd", map[string]any{"session_id": id, "cwd": root, "reason": "other"})})
		is.Equal(res.code, 0)
	}
	f, _ = readMemory(t, root)
	is.Equal(f.Header.Sessions, len(sessions))

	is.Equal(tempFiles(t, root), nil)    // no temporary file left behind
	is.Equal(brokenCopies(t, root), nil) // nothing was ever found unreadable
	backup, err := os.ReadFile(filepath.Join(root, memfile.BackupName))
	is.NoErr(err)
	_, _, err = memfile.Parse(backup)
	is.NoErr(err) // the backup parses
}

var modules = []string{"db", "api", "ui", "tests", "deploy", "auth", "cli"}

// rememberedID reads the ID from remember's "recorded <id> in Tier ..." line.
func rememberedID(t *testing.T, stdout string) string {
	t.Helper()
	fields := strings.Fields(stdout)
	if len(fields) < 2 || fields[0] != "recorded" {
		t.Errorf("remember printed %q, want \"recorded <id> ...\"", stdout)
		return ""
	}
	return fields[1]
}

// countedSessions counts the session states that say their session was
// counted in the header.
func countedSessions(t *testing.T, root string) int {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(store.StateDir), "session-*.json"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var st struct {
			Counted bool `json:"counted"`
		}
		if err := json.Unmarshal(data, &st); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if st.Counted {
			n++
		}
	}
	return n
}
