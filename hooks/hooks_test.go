package hooks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
	"github.com/matryer/is"
	"github.com/tidwall/gjson"
)

// The Stop policies, as a table: which combinations block.
func TestShouldBlock(t *testing.T) {
	cases := []struct {
		policy         string
		stopHookActive bool
		work           bool
		nudged         bool
		blocks         int
		want           bool
	}{
		{PolicyNudge, false, true, false, 0, true},   // real work, nothing recorded: block
		{PolicyNudge, true, true, false, 0, false},   // stop_hook_active: never
		{PolicyNudge, false, false, false, 0, false}, // no work: nothing to ask
		{PolicyNudge, false, true, true, 1, false},   // already nudged for this stretch
		{PolicyNudge, false, true, false, 3, true},   // a new stretch after a record: nudge again
		{PolicyOnce, false, true, false, 0, true},
		{PolicyOnce, false, true, false, 1, false}, // once per session
		{PolicyOnce, true, true, false, 0, false},
		{PolicyNever, false, true, false, 0, false},
	}
	for _, c := range cases {
		got := shouldBlock(c.policy, c.stopHookActive, c.work, sessionState{Nudged: c.nudged, Blocks: c.blocks})
		if got != c.want {
			t.Errorf("shouldBlock(%s, active=%v, work=%v, nudged=%v, blocks=%d) = %v, want %v",
				c.policy, c.stopHookActive, c.work, c.nudged, c.blocks, got, c.want)
		}
	}
}

func TestParseSettings(t *testing.T) {
	is := is.New(t)
	s, err := ParseSettings(gjson.Parse(`{"stop_policy":"once","lock_timeout":0.5,"nudge_prompts":5}`))
	is.NoErr(err)
	is.Equal(s.StopPolicy, PolicyOnce)
	is.Equal(s.LockTimeout, 500*time.Millisecond)
	is.Equal(s.NudgePrompts, 5)
	is.True(s.Recall.Lexicon) // on unless turned off
	s, err = ParseSettings(gjson.Parse(`{"recall_lexicon":false}`))
	is.NoErr(err)
	is.True(!s.Recall.Lexicon)
	is.True(s.Recall.On)
	for _, bad := range []struct{ json, field string }{
		{`{"stop_policy":"sometimes"}`, `"stop_policy"`},
		{`{"lock_timeout":0}`, `"lock_timeout"`},
		{`{"lock_timeout":"2"}`, `"lock_timeout"`},
		{`{"nudge_prompts":1.5}`, `"nudge_prompts"`},
		{`{"recall":"no"}`, `"recall"`},
		{`{"recall_lexicon":0}`, `"recall_lexicon"`},
	} {
		_, err := ParseSettings(gjson.Parse(bad.json))
		is.True(err != nil)
		is.True(strings.Contains(err.Error(), bad.field)) // the error names the field
	}
}

// Hook input must not make bimri-hook read any file it likes: only .jsonl
// transcripts under Claude Code's projects folder or the workspace.
func TestTranscriptAllowed(t *testing.T) {
	is := is.New(t)
	home, root, other := t.TempDir(), t.TempDir(), t.TempDir()
	store, err := store.OpenStore(root, memfile.DefaultConfig(), store.StoreOptions{LockTimeout: time.Second})
	is.NoErr(err)
	env := Env{Store: store, ClaudeDir: filepath.Join(home, ".claude")}
	write := func(p string) string {
		is.NoErr(os.MkdirAll(filepath.Dir(p), 0o755))
		is.NoErr(os.WriteFile(p, []byte("{}\n"), 0o644))
		return p
	}
	inProjects := write(filepath.Join(home, ".claude", "projects", "p", "s.jsonl"))
	inRoot := write(filepath.Join(root, "t.jsonl"))
	outside := write(filepath.Join(other, "s.jsonl"))
	notJSONL := write(filepath.Join(home, ".claude", "projects", "p", "s.txt"))
	is.True(transcriptAllowed(env, inProjects))
	is.True(transcriptAllowed(env, inRoot))
	is.True(!transcriptAllowed(env, outside))
	is.True(!transcriptAllowed(env, notJSONL))
	is.True(!transcriptAllowed(env, filepath.Join(home, ".claude", "projects", "..", "..", strings.TrimPrefix(outside, "/"))))
	is.True(!transcriptAllowed(env, "relative/s.jsonl"))
	is.True(!transcriptAllowed(env, filepath.Join(home, ".claude", "projects", "missing.jsonl")))
}

// The SessionStart context never passes the limit, whatever the file holds.
func TestStartContextFitsLimit(t *testing.T) {
	is := is.New(t)
	root := t.TempDir()
	cfg := memfile.DefaultConfig()
	store, err := store.OpenStore(root, cfg, store.StoreOptions{LockTimeout: time.Second})
	is.NoErr(err)
	f := memfile.New(cfg)
	day := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	for i := range 300 {
		_, _, err := f.Add(memfile.NewEntry{Tier: 1 + i%2, Importance: 4 + i%2, Date: day,
			Tags: []string{"t"}, Text: strings.Repeat("word ", 20) + string(rune('a'+i%26)) + strings.Repeat("x", i)})
		is.NoErr(err)
	}
	f.Header.Sessions = 10 // deep maintenance brief too
	env := Env{Store: store, Config: cfg, Settings: DefaultSettings(), Today: day, Binary: "/opt/bimri hook/bimri-hook"}
	for _, limit := range []int{10000, 3000, 800} {
		env.Config.ContextLimit = limit
		got := startContext(env, Input{Source: "startup"}, f, nil, "a notice", "")
		is.True(memfile.Length(got) <= limit)
		is.True(strings.Contains(got, "left out")) // says what it dropped
	}
}

// When the whole memory fits, the messages of the moment may use the room
// it leaves, beyond their own share of the limit.
func TestMessagesTakeTheRoomAWholeMemoryLeaves(t *testing.T) {
	is := is.New(t)
	cfg := memfile.DefaultConfig()
	cfg.ContextLimit = 4000 // the messages' own share: 600 characters
	st, err := store.OpenStore(t.TempDir(), cfg, store.StoreOptions{LockTimeout: time.Second})
	is.NoErr(err)
	day := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	f := memfile.New(cfg)
	_, _, err = f.Add(memfile.NewEntry{Tier: 2, Importance: 3, Date: day, Tags: []string{"api"}, Text: "The API is versioned."})
	is.NoErr(err)
	f.Header.Sessions = 3
	notice := strings.TrimSpace(strings.Repeat("a pass kept your edit beside the file; ", 25)) + " the end"
	env := Env{Store: st, Config: cfg, Settings: DefaultSettings(), Today: day, Binary: "/opt/bin/bimri-hook"}
	got := startContext(env, Input{Source: "startup"}, f, nil, notice, "")
	is.True(memfile.Length(notice) > cfg.ContextLimit*upkeepShare/100)
	is.True(strings.Contains(got, "Note: "+notice)) // whole
	is.True(memfile.Length(got) <= cfg.ContextLimit)
}
