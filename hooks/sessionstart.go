package hooks

import (
	"slices"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/internal/event"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
	"github.com/tidwall/gjson"
)

// stateMaxAge: a session resumed later starts its bookkeeping afresh.
const stateMaxAge = 30 * 24 * time.Hour

// SessionStart creates bimri.md if missing, runs the pass, and answers
// with the view, the instructions, the intake of a new workspace and the
// judgment brief after deep maintenance, within the context limit.
func SessionStart(env Env, in Input) (Output, error) {
	var p startPass
	// Without the config, a pass on the defaults could prune what the user keeps.
	err := env.ConfigErr
	if err == nil {
		_, err = env.Store.Update(func(tx *store.Tx) error {
			p.run(env, in, tx)
			return nil
		})
		env.Store.PruneState(stateMaxAge)
	}
	if err != nil {
		// The session still gets the memory as it stands; only one that
		// cannot be read is an error.
		read, readErr := env.Store.Read()
		if readErr != nil {
			return Output{}, readErr
		}
		p = startPass{file: read.File, notice: standingNotice(env, err)}
	}
	out := additionalContext(event.SessionStart, startContext(env, in, p.file, env.Store.Foreign(), p.notice, p.advice))
	if msg := userMessage(p.told, p.repaired, p.converted, p.updated); msg.JSON != nil {
		out.JSON["systemMessage"] = msg.JSON["systemMessage"]
	}
	return out, nil
}

// startPass is what SessionStart's pass leaves: the file, and what the model and the user are told.
type startPass struct {
	file                               *memfile.File
	notice, advice                     string
	told, repaired, converted, updated string
}

// run is SessionStart's pass: maintain, take the notice a hook left,
// re-arm a resumed session's nudge, ask for upkeep.
func (p *startPass) run(env Env, in Input, tx *store.Tx) {
	var rep memfile.Report
	if !tx.Settled(env.Today, env.Config) { // else today's pass left the file as it is
		rep = tx.Maintain(env.Today, env.Config, memfile.Options{})
	}
	p.file, p.notice, p.repaired = tx.File, tx.Notice, tx.Notice
	p.updated = updatedMessage(0, rep, "")
	p.converted = conversionMessage(env, tx.Warnings, rep, tx.File)
	if data := tx.State(noticeKey); len(data) > 0 {
		p.told = string(data)
		tx.SetState(noticeKey, []byte{})
	}
	// A resumed session whose SessionEnd never ran may be nudged again
	// (one that ended starts afresh: see resumed).
	if in.Source == "resume" {
		if st := stateOf(tx.State(stateKey(in))); st.Nudged || st.Blocks > 0 {
			st.Nudged, st.Blocks = false, 0
			tx.SetState(stateKey(in), encodeJSON(st))
		}
	}
	p.advice = adviseOnce(env, tx, in)
}

// namedKey lists the patterns the agent was asked to name, each once.
const namedKey = "patterns-asked"

const maxAsked = 200 // Tier 3's budget holds far fewer patterns

// adviseOnce is the upkeep SessionStart asks: consolidation and promotion
// once a session, a pattern's sentence once per pattern.
func adviseOnce(env Env, tx *store.Tx, in Input) string {
	// Only the one field: decoding the whole session state would build
	// encoding/json's tables for it on every SessionStart.
	data := tx.State(stateKey(in))
	advised := gjson.ValidBytes(data) && gjson.GetBytes(data, "advised").Type == gjson.True
	asked := decodeJSON[[]string](tx.State(namedKey)) // damaged state: ask again
	var a memfile.Advice
	if advised {
		a.Unnamed = memfile.Unnamed(tx.File, env.Config)
	} else {
		a = memfile.Advise(tx.File, env.Today, env.Config)
	}
	name := ""
	if i := slices.IndexFunc(a.Unnamed, func(id string) bool { return !slices.Contains(asked, id) }); i >= 0 {
		name = a.Unnamed[i]
	}
	text := adviceText(env, tx.File, a, name)
	if text == "" {
		return ""
	}
	if len(a.Consolidate) > 0 || len(a.Decisions) > 0 || a.Promote != "" {
		st := stateOf(data)
		st.Advised = true
		tx.SetState(stateKey(in), encodeJSON(st))
	}
	if name != "" {
		asked = append(asked, name)
		tx.SetState(namedKey, encodeJSON(asked[max(0, len(asked)-maxAsked):]))
	}
	return text
}

// fitLines keeps whole lines of s within limit characters; a request
// ("- ...") whose indented command does not fit goes with it.
func fitLines(s string, limit int) string {
	if memfile.Length(s) <= limit {
		return s
	}
	lines := strings.Split(s, "\n")
	used, n := 0, 0
	for n < len(lines) && used+memfile.Length(lines[n])+1 <= limit {
		used += memfile.Length(lines[n]) + 1
		n++
	}
	if n > 0 && n < len(lines) && strings.HasPrefix(lines[n], "  ") && strings.HasPrefix(lines[n-1], "- ") {
		n--
	}
	return strings.TrimRight(strings.Join(lines[:n], "\n"), "\n")
}
