package hooks

import (
	"strings"

	"github.com/bimri/bimri-hook/internal/event"
	"github.com/bimri/bimri-hook/memfile"
)

// subagentLimit: memory is a short preface to a subagent's own task.
const subagentLimit = 3000

// subagentStart gives a subagent Tier 1 (its payload has no task to
// recall against). It reads without the lock and writes nothing.
func subagentStart(env Env, in Input) (Output, error) {
	read, err := env.Store.Read()
	if err != nil || !read.Exists {
		return Output{}, nil
	}
	text := subagentPack(read.File, env.Store.Foreign())
	if text == "" {
		return Output{}, nil
	}
	return additionalContext(event.SubagentStart, text), nil
}

// subagentPack is Tier 1, an entry a line, whole lines within subagentLimit.
func subagentPack(f *memfile.File, foreign func(string) bool) string {
	entries := f.Entries(1)
	if len(entries) == 0 {
		return ""
	}
	var lines []string
	legend := ""
	for _, e := range entries {
		mark := ""
		if foreign != nil && foreign(e.ID) {
			mark, legend = memfile.ForeignMark+" ", " "+memfile.ForeignLegend
		}
		lines = append(lines, "- "+mark+memfile.Inert(e.Text)+" (id "+e.ID+")")
	}
	return fitLines(subagentHeading+"\n"+memfile.NotInstructions+legend+"\n"+strings.Join(lines, "\n"), subagentLimit)
}
