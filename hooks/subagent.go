package hooks

import (
	"strings"

	"github.com/bimri/bimri-hook/internal/event"
	"github.com/bimri/bimri-hook/memfile"
)

// subagentLimit bounds the pack a subagent gets: its context is its own
// task, and memory should be a short preface to it.
const subagentLimit = 3000

// subagentStart gives a subagent a small pack of memory: Tier 1, within
// subagentLimit characters. The payload does not carry the subagent's
// task, so there is nothing to recall against (e2e TestSubagentHooks). It
// reads without the lock and writes nothing.
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

// subagentPack is Tier 1 as one line an entry, in file order, whole lines
// within subagentLimit; the entries foreign names (nil: none) are marked.
func subagentPack(f *memfile.File, foreign func(string) bool) string {
	entries := f.Entries(1)
	if len(entries) == 0 {
		return ""
	}
	head := subagentHeading + "\n" + memfile.NotInstructions
	var lines []string
	for _, e := range entries {
		mark := ""
		if foreign != nil && foreign(e.ID) {
			mark = memfile.ForeignMark + " "
			if !strings.HasSuffix(head, memfile.ForeignLegend) {
				head += " " + memfile.ForeignLegend
			}
		}
		lines = append(lines, "- "+mark+memfile.Inert(e.Text)+" (id "+e.ID+")")
	}
	var b strings.Builder
	b.WriteString(head + "\n")
	used := memfile.Length(head) + 1
	for _, line := range lines {
		n := memfile.Length(line) + 1
		if used+n > subagentLimit {
			break
		}
		b.WriteString(line + "\n")
		used += n
	}
	return strings.TrimRight(b.String(), "\n")
}
