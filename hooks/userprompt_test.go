package hooks

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
	"github.com/bimri/bimri-hook/transcript"
)

// The maintenance trigger is an imperative request, not any mention.
func TestAsksForMaintenance(t *testing.T) {
	cases := []struct {
		prompt string
		want   bool
	}{
		{"run BIMRI maintenance", true},
		{"Run the BIMRI maintenance.", true},
		{"please run BIMRI maintenance", true},
		{"Please, run bimri maintenance now!", true},
		{"clean up the memory file", true},
		{"Go ahead and clean up the memory file.", true},
		{"Can you run BIMRI maintenance?", true},
		{"could you clean up the memory file?", true},
		{"Finished the parser. Now run BIMRI maintenance.", true},
		{"Tests pass; run BIMRI maintenance", true},
		{"Don't run BIMRI maintenance yet", false},
		{"do not run BIMRI maintenance", false},
		{"never clean up the memory file without asking me", false},
		{"Should we run BIMRI maintenance?", false},
		{"What does run BIMRI maintenance do?", false},
		{"run BIMRI maintenance?", false},
		{"When did you last run BIMRI maintenance", false},
		{"run BIMRI maintenance later, not now", false},
		{"the docs explain how to clean up the memory file", false},
		{"fix the login bug", false},
		{"", false},
	}
	for _, c := range cases {
		if got := asksForMaintenance(c.prompt); got != c.want {
			t.Errorf("asksForMaintenance(%q) = %v, want %v", c.prompt, got, c.want)
		}
	}
}

// The nudge's "nothing much" importance must survive the pass that runs
// as the turn ends: an entry recorded today at that importance stays.
func TestNudgeImportanceSurvivesThePass(t *testing.T) {
	store, err := store.OpenStore(t.TempDir(), memfile.DefaultConfig(), store.StoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	reason := nudgeReason(Env{Store: store, Binary: "/b/bimri-hook"})
	m := regexp.MustCompile(`(\d) if little happened`).FindStringSubmatch(reason)
	if m == nil {
		t.Fatalf("the nudge names no importance for a turn where little happened:\n%s", reason)
	}
	imp := int(m[1][0] - '0')
	cfg := memfile.DefaultConfig()
	day := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	s := memfile.Score(memfile.Entry{Importance: imp, Date: day}, 2, day, cfg)
	if s.Weight < cfg.Threshold {
		t.Errorf("importance %d weighs %s on its day, under the threshold %s: the same turn's pass archives it", imp, s.Weight, cfg.Threshold)
	}
}

// Claude Code 2.1.332 shows the user a Stop's additionalContext whole
// (e2e/TestMeasureHookOutputsInTUI): the nudge, and what the user is told
// when a record failed, are one line each.
func TestUserSeesOneLine(t *testing.T) {
	store, err := store.OpenStore(t.TempDir(), memfile.DefaultConfig(), store.StoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	env := Env{Store: store, Binary: "bimri-hook"}
	tools := env
	tools.Tools = Tools{On: true, Prefix: "mcp__plugin_bimri-hook_bimri__"}
	for _, msg := range []string{
		nudgeReason(env),
		failedMessage(env, transcript.Summary{RememberDenied: true, RememberError: "This command requires approval"}),
		failedMessage(env, transcript.Summary{RememberError: "Exit code 1"}),
		nudgeReason(tools),
		failedMessage(tools, transcript.Summary{RememberDenied: true, RememberError: "permission denied"}),
		failedMessage(tools, transcript.Summary{RememberError: "remember: \"importance\" 9 is not a whole number from 1 to 5"}),
	} {
		if strings.Contains(msg, "\n") {
			t.Errorf("more than one line for the user:\n%s", msg)
		}
	}
}
