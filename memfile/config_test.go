package memfile_test

import (
	"strings"
	"testing"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
	"github.com/tidwall/gjson"
)

// parseConfig reads a config object's rule fields.
func parseConfig(json string) (memfile.Config, error) {
	return memfile.ParseConfig(gjson.Parse(json))
}

func TestProfiles(t *testing.T) {
	for _, tc := range []struct {
		name    string
		budgets [3]int
		total   int
		deep    int
	}{
		{"claude-code", [3]int{1500, 3000, 1500}, 6000, 10},
		{"cowork", [3]int{3000, 8000, 3500}, 15000, 15},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			c, err := memfile.Profile(tc.name)
			is.NoErr(err)
			is.Equal(c.Profile, tc.name)
			is.Equal(c.Budgets, tc.budgets)
			is.Equal(c.TotalBudget, tc.total)
			is.Equal(c.DeepEvery, tc.deep)
			is.Equal(c.Threshold.String(), "1.5")
			is.Equal(c.Floor.String(), "4.0")
			is.Equal(c.ContextLimit, 10000)
		})
	}
}

func TestDefaultProfile(t *testing.T) {
	is := is.New(t)
	is.Equal(memfile.ProfileNames[0], "claude-code")
	cc, err := memfile.Profile("claude-code")
	is.NoErr(err)
	empty, err := memfile.Profile("")
	is.NoErr(err)
	is.Equal(memfile.DefaultConfig(), cc)
	is.Equal(empty, cc)

	_, err = memfile.Profile("claud-code")
	is.True(err != nil)
	is.True(strings.Contains(err.Error(), `"claud-code"`)) // names the bad value, a flag's
}

// TestConfigErrorsNeverEchoText: a file given with --config may be any
// JSON file; an error about it never repeats a string it holds (issue
// 34, item 5).
func TestConfigErrorsNeverEchoText(t *testing.T) {
	const secret = "sk-live-do-not-echo"
	for _, doc := range []string{
		`{"profile": {"k": "` + secret + `"}}`,
		`{"profile": "` + secret + `"}`,
		`{"tier1_budget": "` + secret + `"}`,
		`{"ignore_tags": ["` + secret + `", 1]}`,
		`{"ignore_tags": [{"k": "` + secret + `"}]}`,
		`{"floor": ["` + secret + `"]}`,
	} {
		_, err := parseConfig(doc)
		if err == nil || strings.Contains(err.Error(), secret) {
			t.Errorf("%s: error %v", doc, err)
		}
	}
}

func TestParseConfigProfiles(t *testing.T) {
	is := is.New(t)
	c, err := parseConfig((`{}`))
	is.NoErr(err)
	is.Equal(c, memfile.DefaultConfig())

	c, err = parseConfig((`{"profile": "cowork"}`))
	is.NoErr(err)
	cw, _ := memfile.Profile("cowork")
	is.Equal(c, cw)
}

func TestParseConfigOverrides(t *testing.T) {
	for _, tc := range []struct {
		json  string
		check func(*is.I, memfile.Config)
	}{
		{`{"tier1_budget": 111}`, func(is *is.I, c memfile.Config) { is.Equal(c.Budgets, [3]int{111, 3000, 1500}) }},
		{`{"tier2_budget": 222}`, func(is *is.I, c memfile.Config) { is.Equal(c.Budgets, [3]int{1500, 222, 1500}) }},
		{`{"tier3_budget": 333}`, func(is *is.I, c memfile.Config) { is.Equal(c.Budgets, [3]int{1500, 3000, 333}) }},
		{`{"total_budget": 4444}`, func(is *is.I, c memfile.Config) { is.Equal(c.TotalBudget, 4444) }},
		{`{"deep_every": 7}`, func(is *is.I, c memfile.Config) { is.Equal(c.DeepEvery, 7) }},
		{`{"threshold": 2}`, func(is *is.I, c memfile.Config) { is.Equal(c.Threshold, memfile.Weight(200)) }},
		{`{"threshold": 1.25}`, func(is *is.I, c memfile.Config) { is.Equal(c.Threshold, memfile.Weight(125)) }},
		{`{"threshold": 0}`, func(is *is.I, c memfile.Config) { is.Equal(c.Threshold, memfile.Weight(0)) }},
		{`{"floor": 3.5}`, func(is *is.I, c memfile.Config) { is.Equal(c.Floor, memfile.Weight(350)) }},
		{`{"floor": 5}`, func(is *is.I, c memfile.Config) { is.Equal(c.Floor, memfile.Weight(500)) }},
		{`{"context_limit": 200}`, func(is *is.I, c memfile.Config) { is.Equal(c.ContextLimit, 200) }},
		{`{"context_limit": 25000}`, func(is *is.I, c memfile.Config) { is.Equal(c.ContextLimit, 25000) }},
		{`{"ignore_tags": ["Fallback Entry", " X "]}`, func(is *is.I, c memfile.Config) { is.Equal(c.IgnoreTags, []string{"fallback-entry", "x"}) }},
		{`{"ignore_tags": []}`, func(is *is.I, c memfile.Config) { is.Equal(len(c.IgnoreTags), 0) }},
		// An override applies on top of the chosen profile, whatever the
		// order of the keys.
		{`{"tier2_budget": 9000, "profile": "cowork"}`, func(is *is.I, c memfile.Config) {
			is.Equal(c.Profile, "cowork")
			is.Equal(c.Budgets, [3]int{3000, 9000, 3500})
			is.Equal(c.DeepEvery, 15)
		}},
	} {
		t.Run(tc.json, func(t *testing.T) {
			is := is.New(t)
			c, err := parseConfig((tc.json))
			is.NoErr(err)
			tc.check(is, c)
		})
	}
}

func TestParseConfigOverrideKeepsOtherFields(t *testing.T) {
	is := is.New(t)
	c, err := parseConfig((`{"floor": 3}`))
	is.NoErr(err)
	want := memfile.DefaultConfig()
	want.Floor = 300
	is.Equal(c, want)
	// The profile's own value is untouched by the override.
	is.Equal(memfile.DefaultConfig().Floor, memfile.Weight(400))
}

// TestParseConfigInvalid checks that every bad value is refused with an
// error naming the field and showing a number as written, or the kind of
// any other value (a string may be a secret), so a person can find it.
func TestParseConfigInvalid(t *testing.T) {
	for _, tc := range []struct {
		json, field, value string
	}{
		{`{"tier1_budget": 0}`, "tier1_budget", "0"},
		{`{"tier1_budget": -5}`, "tier1_budget", "-5"},
		{`{"tier1_budget": 1.5}`, "tier1_budget", "1.5"},
		{`{"tier1_budget": "1500"}`, "tier1_budget", "a string"},
		{`{"tier2_budget": 1000001}`, "tier2_budget", "1000001"},
		{`{"tier2_budget": null}`, "tier2_budget", "null"},
		{`{"tier3_budget": true}`, "tier3_budget", "true"},
		{`{"total_budget": 0}`, "total_budget", "0"},
		{`{"total_budget": 3000001}`, "total_budget", "3000001"},
		{`{"deep_every": 0}`, "deep_every", "0"},
		{`{"deep_every": 10001}`, "deep_every", "10001"},
		{`{"deep_every": [10]}`, "deep_every", "an array"},
		{`{"context_limit": 199}`, "context_limit", "199"},
		{`{"context_limit": "big"}`, "context_limit", "a string"},
		{`{"threshold": 5.1}`, "threshold", "5.1"},
		{`{"threshold": -1}`, "threshold", "-1"},
		{`{"threshold": "1.5"}`, "threshold", "a string"},
		{`{"floor": 6}`, "floor", "6"},
		{`{"floor": {}}`, "floor", "an object"},
		{`{"ignore_tags": "auto"}`, "ignore_tags", "a string"},
		{`{"ignore_tags": ["auto", 1]}`, "ignore_tags", "1"},
		{`{"profile": 3}`, "profile", "3"},
		{`{"profile": "nope"}`, "profile", "another string"},
	} {
		t.Run(tc.json, func(t *testing.T) {
			is := is.New(t)
			_, err := parseConfig((tc.json))
			is.True(err != nil)
			msg := err.Error()
			is.True(strings.Contains(msg, tc.field)) // the error names the field
			is.True(strings.Contains(msg, tc.value)) // and shows the value or its kind
		})
	}
}
