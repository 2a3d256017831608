package hooks

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/bimri/bimri-hook/internal/inspect"
	"github.com/bimri/bimri-hook/internal/recall"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
	"github.com/tidwall/gjson"
)

// Env is all a handler needs from outside: none reads the environment, clock or flags.
type Env struct {
	Store     *store.Store
	Config    memfile.Config
	Settings  Settings
	Today     time.Time     // the day the event happens on (the clock's date, or --today)
	Binary    string        // the command the agent runs to record (this binary)
	ClaudeDir string        // Claude Code's config folder: transcripts are in its projects folder
	Global    *memfile.File // the user's memory across workspaces, if any
	Tools     Tools         // the agent's MCP tools, named instead of commands when On
	// Elapsed is how long this process has run, SessionEnd's budget; nil: no bound.
	Elapsed func() time.Duration
	// ConfigErr is why the config did not load: defaults, and only
	// SessionStart runs, showing the memory and writing nothing.
	ConfigErr error
}

// Tools is how the agent's client names bimri-hook's MCP tools.
type Tools struct {
	On bool
	// Prefix goes before each tool's name ("" for the bare name).
	Prefix string
}

// Stop policies.
const (
	PolicyNudge = "nudge" // block once per stretch of unrecorded work
	PolicyOnce  = "once"  // block at most once per session
	PolicyNever = "never" // never block; only maintain
)

// Settings are the hook's own knobs, from the same config file as memfile.Config.
type Settings struct {
	StopPolicy   string
	LockTimeout  time.Duration
	NudgePrompts int // prompts without a record that count as real work
	Recall       RecallSettings
}

// RecallSettings bound what UserPromptSubmit brings back.
type RecallSettings struct {
	On    bool // "recall"
	Items int  // "recall_items": items per prompt, at most
	Chars int  // "recall_chars": characters per prompt, at most
	// MinShare, "recall_min_score" (a percentage), of the prompt's best possible score.
	MinShare float64
	// Lexicon, "recall_lexicon": a word also matches its lexicon neighbours.
	Lexicon bool
}

// SettingsKeys are the config fields ParseSettings reads.
var SettingsKeys = []string{"stop_policy", "lock_timeout", "nudge_prompts", "recall", "recall_items", "recall_chars", "recall_min_score", "recall_lexicon"}

// DefaultSettings wait up to 2 s for the lock, well inside each event's 10 s timeout.
func DefaultSettings() Settings {
	return Settings{StopPolicy: PolicyNudge, LockTimeout: 2 * time.Second, NudgePrompts: 3,
		Recall: RecallSettings{On: true, Items: 5, Chars: 1500, MinShare: recall.DefaultMinShare, Lexicon: true}}
}

// ParseSettings reads a config object internal/config checked; an error names the field.
func ParseSettings(root gjson.Result) (Settings, error) {
	s := DefaultSettings()
	if v := root.Get("stop_policy"); v.Exists() {
		switch p := v.String(); {
		case v.Type == gjson.String && (p == PolicyNudge || p == PolicyOnce || p == PolicyNever):
			s.StopPolicy = p
		default:
			return s, fmt.Errorf("field \"stop_policy\" must be \"nudge\", \"once\" or \"never\", got %s", memfile.JSONKind(v))
		}
	}
	for _, f := range []struct {
		key      string
		bool     *bool
		set      func(float64)
		min, max float64 // a whole number from a min of 1 up
	}{
		{key: "recall", bool: &s.Recall.On},
		{key: "recall_lexicon", bool: &s.Recall.Lexicon},
		{"lock_timeout", nil, func(n float64) { s.LockTimeout = time.Duration(n * float64(time.Second)) }, 0.001, 60},
		{"recall_min_score", nil, func(n float64) { s.Recall.MinShare = n / 100 }, 0, 100}, // a percentage
		{"nudge_prompts", nil, func(n float64) { s.NudgePrompts = int(n) }, 1, 1000},
		{"recall_items", nil, func(n float64) { s.Recall.Items = int(n) }, 1, 50},
		{"recall_chars", nil, func(n float64) { s.Recall.Chars = int(n) }, 100, 5000},
	} {
		v, whole := root.Get(f.key), f.min >= 1
		switch {
		case !v.Exists():
		case f.bool != nil && !v.IsBool():
			return s, fmt.Errorf("field %q must be true or false, got %s", f.key, memfile.JSONKind(v))
		case f.bool != nil:
			*f.bool = v.Bool()
		case v.Type != gjson.Number || v.Num < f.min || v.Num > f.max || (whole && v.Num != math.Trunc(v.Num)):
			return s, fmt.Errorf("field %q must be %s from %g to %g, got %s", f.key, inspect.Pick(whole, "a whole number", "a number"), f.min, f.max, memfile.JSONKind(v))
		default:
			f.set(v.Num)
		}
	}
	return s, nil
}

// isBusy: a lock timeout, skipped quietly; memory can wait a turn, the session not.
func isBusy(err error) bool { return errors.Is(err, store.ErrBusy) }
