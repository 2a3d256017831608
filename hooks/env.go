package hooks

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/tidwall/gjson"
)

// Env is everything a handler needs from outside: no handler reads the
// environment, the clock or flags itself.
type Env struct {
	Store    *memfile.Store
	Config   memfile.Config
	Settings Settings
	Now      time.Time // the clock; today is its calendar date
	Binary   string    // the command the agent runs to record (this binary)
	Home     string    // the user's home, where Claude Code keeps transcripts
	// ClaudeConfigDir is CLAUDE_CONFIG_DIR when set; transcripts live
	// under it instead of ~/.claude.
	ClaudeConfigDir string
	// Global is the user's memory across workspaces, if any.
	Global *memfile.File
}

// Stop policies.
const (
	PolicyNudge = "nudge" // block once per stretch of unrecorded work
	PolicyOnce  = "once"  // block at most once per session
	PolicyNever = "never" // never block; only maintain
)

// Settings are the hook's own knobs, read from the same config file as
// memfile.Config.
type Settings struct {
	StopPolicy   string
	LockTimeout  time.Duration
	NudgePrompts int // prompts without a record that count as real work
}

// SettingsKeys are the config fields ParseSettings reads.
var SettingsKeys = []string{"stop_policy", "lock_timeout", "nudge_prompts"}

// DefaultSettings: nudge, and wait up to 2 s for the lock, well inside
// the 10 s timeout the settings give each event. SessionEnd waits less;
// see sessionEndWait.
func DefaultSettings() Settings {
	return Settings{StopPolicy: PolicyNudge, LockTimeout: 2 * time.Second, NudgePrompts: 3}
}

// ParseSettings reads the hook settings from a config object (already
// checked as JSON, and for unknown fields, by internal/config). An error
// names the field and quotes the value.
func ParseSettings(root gjson.Result) (Settings, error) {
	s := DefaultSettings()
	if v := root.Get("stop_policy"); v.Exists() {
		switch p := v.String(); {
		case v.Type == gjson.String && (p == PolicyNudge || p == PolicyOnce || p == PolicyNever):
			s.StopPolicy = p
		default:
			return s, fmt.Errorf("field \"stop_policy\" must be \"nudge\", \"once\" or \"never\", got %s", v.Raw)
		}
	}
	if v := root.Get("lock_timeout"); v.Exists() {
		if v.Type != gjson.Number || v.Num <= 0 || v.Num > 60 {
			return s, fmt.Errorf("field \"lock_timeout\" must be seconds from 0 to 60, got %s", v.Raw)
		}
		s.LockTimeout = time.Duration(v.Num * float64(time.Second))
	}
	if v := root.Get("nudge_prompts"); v.Exists() {
		if v.Type != gjson.Number || v.Num != math.Trunc(v.Num) || v.Num < 1 || v.Num > 1000 {
			return s, fmt.Errorf("field \"nudge_prompts\" must be a whole number from 1 to 1000, got %s", v.Raw)
		}
		s.NudgePrompts = int(v.Num)
	}
	return s, nil
}

// errBusy reports whether err is a lock timeout, which handlers turn into
// a quiet skip: memory can wait a turn, the session must not.
func errBusy(err error) bool { return errors.Is(err, memfile.ErrBusy) }
