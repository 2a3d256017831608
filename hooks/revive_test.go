package hooks

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bimri/bimri-hook/internal/inspect"
	"github.com/bimri/bimri-hook/internal/recall"
	"github.com/bimri/bimri-hook/memfile"
)

// reviveWorkspace is a workspace whose archive holds the given entries
// (ID, tags and text), each archived long ago, and whose bimri.md holds none
// of them, beside unrelated ones (a term every entry has weighs nothing).
func reviveWorkspace(t *testing.T, archived ...[3]string) Env {
	t.Helper()
	cfg := memfile.DefaultConfig()
	env := truthWorkspace(t, memfile.New(cfg), cfg)
	var b strings.Builder
	b.WriteString("# BIMRI Archive\n\n")
	for i, topic := range []string{"lint pass on module one", "README install steps", "race detector in CI", "release notes for 1.2", "dark mode colours", "the billing export", "log rotation on the server", "font loading"} {
		archived = append(archived, [3]string{fmt.Sprintf("f000000%d", i), "chore", "Worked on " + topic + "."})
	}
	for _, a := range archived {
		fmt.Fprintf(&b, "[IMPORTANCE:4] [TIMESTAMP:2026-03-20] [TAGS:%s] [WEIGHT:0.8] [ID:%s] [TIER:2] [ARCHIVED:2026-03-24] [REASON:weight 0.8 below threshold 1.5]\n%s\n\n", a[1], a[0], a[2])
	}
	if err := os.WriteFile(env.Store.Path(env.Store.Names().Archive), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return env
}

var redisEntry = [3]string{"7c1e0a42", "cache,redis", "Decided to use Redis for the session cache, not memcached."}

// worthRevivingIn lists inspect.WorthReviving's IDs, as show and
// forecast list them.
func worthRevivingIn(t *testing.T, env Env) []string {
	t.Helper()
	read, err := env.Store.Read()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range inspect.WorthReviving(env.Store, read.File) {
		ids = append(ids, r.Record.Entry.ID)
	}
	return ids
}

// The same prompt in session after session recalls the entry every time,
// and never makes it worth reviving: one question asked again is one
// need. (On the rule before, the third session's answer said so.)
func TestSamePromptInManySessionsIsNotWorthReviving(t *testing.T) {
	env := reviveWorkspace(t, redisEntry)
	for n := range 6 {
		got := promptContext(t, env, fmt.Sprint("session-", n), "Which cache backend did we settle on for user sessions?")
		if !strings.Contains(got, "id 7c1e0a42") {
			t.Fatalf("session %d: the entry was not recalled:\n%s", n, got)
		}
		if strings.Contains(got, "worth reviving") {
			t.Fatalf("session %d: the same prompt again made it worth reviving:\n%s", n, got)
		}
	}
	if ids := worthRevivingIn(t, env); len(ids) != 0 {
		t.Errorf("show lists %v as worth reviving after one prompt in many sessions", ids)
	}
}

// Different prompts in different sessions are need: the third session
// that recalls the entry, for a second prompt, is told it is worth
// reviving, once, and show lists it.
func TestDifferentPromptsInDifferentSessionsAreWorthReviving(t *testing.T) {
	env := reviveWorkspace(t, redisEntry)
	prompts := []string{
		"Which cache backend did we settle on for user sessions?",
		"Why is memcached not the session cache any more?",
		"Which cache backend did we settle on for user sessions?",
	}
	for n, p := range prompts {
		got := promptContext(t, env, fmt.Sprint("session-", n), p)
		if !strings.Contains(got, "id 7c1e0a42") {
			t.Fatalf("session %d: the entry was not recalled:\n%s", n, got)
		}
		worth := strings.Contains(got, "recalled for 2 different prompts in 3 sessions, worth reviving")
		if want := n == 2; worth != want {
			t.Fatalf("session %d: worth reviving = %v, want %v:\n%s", n, worth, want, got)
		}
	}
	if ids := worthRevivingIn(t, env); len(ids) != 1 || ids[0] != redisEntry[0] {
		t.Errorf("show lists %v as worth reviving, want [%s]", ids, redisEntry[0])
	}
}

// However many recalled entries are worth reviving, one answer names at
// most recall.NameAtMost of them, the strongest.
func TestAnswerNamesFewWorthReviving(t *testing.T) {
	var archived [][3]string
	for i := range 5 {
		archived = append(archived, [3]string{fmt.Sprintf("0000000%d", i+1), "tests", fmt.Sprintf("The flaky checkout test number %d failed on the login page.", i+1)})
	}
	env := reviveWorkspace(t, archived...)
	env.Settings.Recall.Items = 10
	env.Settings.Recall.Chars = 5000
	prompts := []string{
		"Why did the flaky checkout test fail on the login page?",
		"Which checkout test failed on the login page, and was it flaky?",
		"Why did the flaky checkout test fail on the login page?",
		"The checkout test on the login page: flaky or failed?",
	}
	named := 0
	for n, p := range prompts {
		got := promptContext(t, env, fmt.Sprint("session-", n), p)
		if c := strings.Count(got, "id 0000000"); c != len(archived) {
			t.Fatalf("session %d recalled %d of the %d entries:\n%s", n, c, len(archived), got)
		}
		c := strings.Count(got, "worth reviving")
		if c > recall.NameAtMost {
			t.Errorf("session %d: the answer names %d entries worth reviving, want at most %d:\n%s", n, c, recall.NameAtMost, got)
		}
		named += c
	}
	if named == 0 {
		t.Fatal("no answer named any entry worth reviving: the test proved little")
	}
	if ids := worthRevivingIn(t, env); len(ids) != len(archived) {
		t.Errorf("WorthReviving found %v, want all %d", ids, len(archived))
	}
}

// A recall record that does not read, or of an older version (version 1
// kept sessions only), is set aside beside it, and recall goes on with a
// fresh one.
func TestRecallRecordDamagedOrOld(t *testing.T) {
	env := reviveWorkspace(t, redisEntry)
	state := env.Store.StatePath()
	if err := os.MkdirAll(state, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(state, recall.StateKey+".json")
	if err := os.WriteFile(path, []byte(`{"7c1e0a42":["s1","s2","s3","s4"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := promptContext(t, env, "s5", "Which cache backend did we settle on for user sessions?"); !strings.Contains(got, "id 7c1e0a42") || strings.Contains(got, "worth reviving") {
		t.Fatalf("with an old record: want the entry recalled and not called worth reviving:\n%s", got)
	}
	data, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(data), `{"version":2,`) {
		t.Errorf("the old record was not replaced by a new one: %s", data)
	}
	if err := os.WriteFile(path, []byte(`{"version":2,"items":[`), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := promptContext(t, env, "s6", "Which cache backend did we settle on for user sessions?"); !strings.Contains(got, "id 7c1e0a42") {
		t.Fatalf("with a damaged record: want the entry recalled:\n%s", got)
	}
	aside, _ := filepath.Glob(path + ".broken-*")
	if len(aside) != 2 {
		t.Fatalf("the old and the damaged record were set aside %d times, want twice", len(aside))
	}
	var kept []string
	for _, p := range aside {
		kept = append(kept, string(must(os.ReadFile(p))))
	}
	slices.Sort(kept)
	if want := []string{`{"7c1e0a42":["s1","s2","s3","s4"]}`, `{"version":2,"items":[`}; !slices.Equal(kept, want) {
		t.Errorf("the copies set aside hold %q, want %q", kept, want)
	}
	r, err := recall.ParseRecalls(must(os.ReadFile(path)))
	if err != nil || r.Strength(redisEntry[0]) != (recall.Strength{Sessions: 1, Prompts: 1}) {
		t.Errorf("after the damaged record: %v, %+v; want a fresh record with one recall", err, r.Strength(redisEntry[0]))
	}
}

func must(data []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return data
}

// An item comes once a session, whichever prompt asks again, resumed
// sessions too; another session gets it. A recalling prompt writes one
// state file, the recall record, and no session state.
func TestRecallOnceASessionInOneStateFile(t *testing.T) {
	env := reviveWorkspace(t, redisEntry)
	const ask = "Which cache backend did we settle on for user sessions?"
	if got := promptContext(t, env, "s1", ask); !strings.Contains(got, "id 7c1e0a42") {
		t.Fatalf("the first prompt recalled nothing:\n%s", got)
	}
	written, _ := filepath.Glob(filepath.Join(env.Store.StatePath(), "*.json"))
	if len(written) != 1 || filepath.Base(written[0]) != recall.StateKey+".json" {
		t.Errorf("a recalling prompt wrote %v, want the recall record alone", written)
	}
	for _, p := range []string{ask, "Why is memcached not the session cache any more?"} {
		if got := promptContext(t, env, "s1", p); strings.Contains(got, "id 7c1e0a42") {
			t.Errorf("%q recalled the entry again in the same session:\n%s", p, got)
		}
	}
	if got := promptContext(t, env, "s2", ask); !strings.Contains(got, "id 7c1e0a42") {
		t.Errorf("another session did not get the entry:\n%s", got)
	}
}
