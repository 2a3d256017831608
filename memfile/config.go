package memfile

import (
	"fmt"
	"math"
	"strings"

	"github.com/tidwall/gjson"
)

// Config holds every number the rules use. Profiles give the defaults;
// a JSON file may override any field.
type Config struct {
	Profile      string
	Budgets      [3]int // estimated tokens for Tier 1, 2 and 3
	TotalBudget  int    // estimated tokens for the whole file
	DeepEvery    int    // deep maintenance every Nth session
	Threshold    Weight // Tier 2 entries below it are archived
	Floor        Weight // minimum weight of importance 4 and 5 entries
	ContextLimit int    // characters the context view may use
	IgnoreTags   []string
}

// DeniedTag marks an entry the hook recorded because the client denied
// the agent's own remember call.
const DeniedTag = "after-denial"

// ProfileNames lists the built-in profiles; the first is the default.
var ProfileNames = []string{"claude-code", "cowork"}

// Profile returns a built-in profile by name.
func Profile(name string) (Config, error) {
	base := Config{
		Threshold:    150,
		Floor:        400,
		ContextLimit: 10000,
		// The hook's own entries' tags say where they came from, not what recurs.
		IgnoreTags: []string{"auto", "checkpoint", DeniedTag},
	}
	switch name {
	case "", "claude-code": // the tiers' budgets, the file's, the deep cadence
		base.Profile, base.Budgets, base.TotalBudget, base.DeepEvery = "claude-code", [3]int{1500, 3000, 1500}, 6000, 10
	case "cowork":
		base.Profile, base.Budgets, base.TotalBudget, base.DeepEvery = "cowork", [3]int{3000, 8000, 3500}, 15000, 15
	default:
		return Config{}, fmt.Errorf("profile %q is not one of %s", name, strings.Join(ProfileNames, ", "))
	}
	return base, nil
}

// DefaultConfig is the claude-code profile.
func DefaultConfig() Config {
	c, _ := Profile("claude-code")
	return c
}

// ConfigKeys are the JSON fields ParseConfig reads, in README's order.
var ConfigKeys = []string{
	"profile", "tier1_budget", "tier2_budget", "tier3_budget", "total_budget",
	"deep_every", "threshold", "floor", "context_limit", "ignore_tags",
}

// ParseConfig reads the rules' fields from a config object checked by
// internal/config: "profile" picks the defaults, other fields override.
func ParseConfig(root gjson.Result) (Config, error) {
	profile := root.Get("profile")
	if profile.Exists() && profile.Type != gjson.String {
		return Config{}, fmt.Errorf("field \"profile\" must be a string, got %s", JSONKind(profile))
	}
	cfg, err := Profile(profile.String())
	if err != nil {
		// Not the value: a config file given with --config may be any file.
		return Config{}, fmt.Errorf("field \"profile\" must be one of %s, got another string", strings.Join(ProfileNames, ", "))
	}

	// Weights are read in hundredths: any number from 0 to 5.
	for _, f := range []struct {
		key      string
		dst      *int
		min, max int
		weight   bool
	}{
		{"tier1_budget", &cfg.Budgets[0], 1, 1_000_000, false},
		{"tier2_budget", &cfg.Budgets[1], 1, 1_000_000, false},
		{"tier3_budget", &cfg.Budgets[2], 1, 1_000_000, false},
		{"total_budget", &cfg.TotalBudget, 1, 3_000_000, false},
		{"deep_every", &cfg.DeepEvery, 1, 10_000, false},
		{"context_limit", &cfg.ContextLimit, 200, 1_000_000, false},
		{"threshold", (*int)(&cfg.Threshold), 0, 5, true},
		{"floor", (*int)(&cfg.Floor), 0, 5, true},
	} {
		v := root.Get(f.key)
		if !v.Exists() {
			continue
		}
		what, scale := "a whole number", 1.0
		if f.weight {
			what, scale = "a number", 100
		}
		if v.Type != gjson.Number || (!f.weight && v.Num != math.Trunc(v.Num)) || v.Num < float64(f.min) || v.Num > float64(f.max) {
			return Config{}, fmt.Errorf("field %q must be %s from %d to %d, got %s", f.key, what, f.min, f.max, JSONKind(v))
		}
		*f.dst = int(math.Round(v.Num * scale))
	}
	if v := root.Get("ignore_tags"); v.Exists() {
		if !v.IsArray() {
			return Config{}, fmt.Errorf("field \"ignore_tags\" must be an array of strings, got %s", JSONKind(v))
		}
		cfg.IgnoreTags = nil
		for _, t := range v.Array() {
			if t.Type != gjson.String {
				return Config{}, fmt.Errorf("field \"ignore_tags\" must be an array of strings, got %s", JSONKind(t))
			}
			cfg.IgnoreTags = append(cfg.IgnoreTags, NormalizeTags([]string{t.String()})...)
		}
	}
	return cfg, nil
}

// JSONKind shows a config field's bad value in an error: a number, a
// boolean or null as written, anything else by its kind alone, since a
// file given with --config may hold secrets.
func JSONKind(v gjson.Result) string {
	switch {
	case v.IsObject():
		return "an object"
	case v.IsArray():
		return "an array"
	case v.Type == gjson.String:
		return "a string"
	}
	return v.Raw
}
