package transcript

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/bimri/bimri-hook/internal/approve"
	"github.com/bimri/bimri-hook/privacy"
	"github.com/tidwall/gjson"
)

// Intent is the entry a remember call asked for, kept while its result is
// to come, so that a call the client denies is recorded as meant.
type Intent struct {
	ID         string `json:",omitempty"` // the call's tool_use id, while its result is to come
	Tier       int
	Importance int
	Tags       []string `json:",omitempty"`
	Text       string   // through privacy.Clean, on one line
}

// notPlain are remember's options that ask for more than one plain entry
// of this workspace: a consolidation, supersession, promotion, --global.
var notPlain = []string{"global", "replaces", "supersedes", "promote", "both-hold"}

// intentOfCommand reads the entry a Bash remember command asks for, as
// remember reads its flags; ok is false for anything but one plain entry
// (or shell expansions that cannot be read without running them).
func intentOfCommand(command string) (Intent, bool) {
	argv, ok := approve.Argv(command)
	i := slices.Index(argv, "remember")
	if !ok || i < 0 {
		return Intent{}, false
	}
	in := Intent{Tier: 2, Importance: 3}
	var words []string
	for args, j := argv[i+1:], 0; j < len(args); j++ {
		a := args[j]
		if a == "--" {
			words = append(words, args[j+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			words = append(words, a)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !hasValue && j+1 < len(args) {
			j, value, hasValue = j+1, args[j+1], true
		}
		n, err := strconv.Atoi(value)
		switch {
		case !hasValue || slices.Contains(notPlain, name) || (name == "tier" || name == "importance") && err != nil:
			return Intent{}, false
		case name == "tier":
			in.Tier = n
		case name == "importance":
			in.Importance = n
		case name == "tags":
			in.Tags = splitTags(value)
		}
	}
	in.Text = strings.Join(words, " ")
	return in.clean()
}

// intentOfTool reads the entry an MCP remember call asks for.
func intentOfTool(input gjson.Result) (Intent, bool) {
	for _, k := range notPlain {
		if v := input.Get(strings.ReplaceAll(k, "-", "_")); v.Exists() && v.Type != gjson.Null && v.String() != "" && v.String() != "[]" && v.Type != gjson.False {
			return Intent{}, false
		}
	}
	in := Intent{Tier: int(cmp.Or(input.Get("tier").Int(), 2)), Importance: int(cmp.Or(input.Get("importance").Int(), 3)), Text: input.Get("text").String()}
	for _, t := range input.Get("tags").Array() { // a string is an array of one
		in.Tags = append(in.Tags, splitTags(t.String())...)
	}
	return in.clean()
}

// clean makes an intent an entry remember would accept, or ok false.
func (in Intent) clean() (Intent, bool) {
	in.Text = shorten(oneLine(privacy.Clean(in.Text)), maxIntentRunes)
	if in.Text == "" || in.Importance < 1 || in.Importance > 5 || in.Tier < 1 || in.Tier > 2 {
		return Intent{}, false
	}
	if in.Tier == 1 && in.Importance < 4 {
		in.Tier = 2
	}
	return in, true
}

// splitTags reads a comma-separated tag list as remember does.
func splitTags(s string) []string {
	var tags []string
	for _, t := range strings.Split(s, ",") {
		if t = strings.ToLower(strings.TrimSpace(oneLine(privacy.Clean(t)))); t != "" {
			tags = append(tags, t)
		}
	}
	return tags
}
