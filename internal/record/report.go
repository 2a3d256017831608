package record

// What remember, forget and revive say they did: the CLI prints it, and
// the MCP tools return it as their text.

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/internal/inspect"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/wiring"
)

// Text is what Print writes, without the last newline.
func (d Done) Text() string {
	var b strings.Builder
	d.Print(&b)
	return strings.TrimSuffix(b.String(), "\n")
}

// Print says what d did, then the store's notice, in its route's words.
func (d Done) Print(w io.Writer) {
	e, p := d.Entry, d.Pattern
	switch {
	case d.Form == formConsolidate:
		fmt.Fprintf(w, "consolidated %s into %s in Tier %d of %s (importance %d, %s, tags %s%s, weight %s); the originals are in %s\n",
			strings.Join(goneIDs(d.Gone), ", "), e.ID, d.Tier, d.Memory, e.Importance, e.Date.Format("2006-01-02"), strings.Join(e.Tags, ","), keywordsNote(e), e.Weight, d.Archive)
	case d.Form == formSupersede:
		ids := goneIDs(d.Gone)
		fmt.Fprintf(w, "recorded %s in Tier %d of %s (importance %d, tags %s%s, weight %s); %s now in %s as superseded by %s\n",
			e.ID, d.Tier, d.Memory, e.Importance, strings.Join(e.Tags, ","), keywordsNote(e), e.Weight, strings.Join(ids, ", ")+inspect.Pick(len(ids) == 1, " is", " are"), d.Archive, e.ID)
	case d.Form == formBothHold:
		fmt.Fprintf(w, "noted in %s that %s %s still hold: the memory view no longer marks one as possibly superseded by another, and remember does not ask about them again\n",
			d.Memory, inspect.JoinAnd(entryIDs(append([]*memfile.Entry{e}, d.Held...))), inspect.Pick(len(d.Held) > 1, "all", "both"))
	case d.Form == formPromote:
		fmt.Fprintf(w, "moved %s to Tier 1 of %s, where it never decays (importance %d): %s\n", e.ID, d.Memory, e.Importance, e.Text)
	case d.Form == formPattern && d.IsNew:
		fmt.Fprintf(w, "recorded pattern %s [%s] in Tier 3 of %s; the next pass counts the entries that carry its tags\n", p.ID, strings.Join(p.Tags, ","), d.Memory)
	case d.Form == formPattern:
		fmt.Fprintf(w, "pattern %s [%s] in Tier 3 of %s now says: %s\n", p.ID, strings.Join(p.Tags, ","), d.Memory, p.Text)
	case d.Form == formForget:
		id, text := d.Gone[0].Item()
		fmt.Fprintf(w, "moved %s to %s: %s\n", id, d.Archive, text)
	case d.Form == formRevive:
		fmt.Fprintf(w, "revived %s into Tier 2 of %s, dated %s (importance %d, weight %s): %s\n",
			e.ID, d.Memory, e.Date.Format("2006-01-02"), e.Importance, e.Weight, e.Text)
	default:
		fmt.Fprintf(w, "%s %s in Tier %d of %s (importance %d%s, weight %s)\n", inspect.Pick(d.IsNew, "recorded", "already recorded today; updated"),
			e.ID, d.Tier, d.Memory, e.Importance, keywordsNote(e), e.Weight)
	}
	if d.Notice != "" {
		fmt.Fprintln(w, d.Notice)
	}
	if d.Form == formEntry || d.Form == formRevive || d.Form == formSupersede {
		printStay(w, d.Entry, d.Tier, d.today, d.config, d.names.pick("bimri-hook revive ", "revive with the ID "))
	}
	d.askSupersedes(w)
}

// stayHorizon is how far ahead printStay looks for the day an entry
// falls below the threshold: past three weeks freshness no longer falls.
const stayHorizon = 3650

// printStay says how long an entry just recorded or revived stays in
// bimri.md: the day its weight falls below the threshold, or why never.
func printStay(w io.Writer, e *memfile.Entry, tier int, today time.Time, cfg memfile.Config, revive string) {
	switch d, ok := memfile.ForecastEntry(e, today, cfg, stayHorizon); {
	case tier == 1:
		fmt.Fprintln(w, "it stays: Tier 1 never decays and is never pruned")
	case ok && d.Days == 0:
		fmt.Fprintf(w, "it weighs %s, under the threshold %s, so the next pass moves it to the archive (recall finds it there; %s%s brings it back)\n", d.To, cfg.Threshold, revive, e.ID)
	case ok:
		fmt.Fprintf(w, "it stays until about %s (%s), then the archive keeps it: recall finds it there, %s%s brings it back\n", d.Day.Format(time.DateOnly), inspect.Plural(d.Days, "day", "days"), revive, e.ID)
	default:
		fmt.Fprintf(w, "it stays until Tier 2's budget needs the room: importance %d never weighs less than %s\n", e.Importance, cfg.Floor)
	}
}

func keywordsNote(e *memfile.Entry) string {
	return inspect.Pick(len(e.Keywords) == 0, "", ", keywords "+strings.Join(e.Keywords, ","))
}

const maxAsked = 3

// askSupersedes asks, once, whether d's entry supersedes the older ones
// it looks like, with the exact calls that answer.
func (d Done) askSupersedes(w io.Writer) {
	olds := d.Predecessors[:min(len(d.Predecessors), maxAsked)]
	if len(olds) == 0 {
		return
	}
	ids := entryIDs(olds)
	fmt.Fprintf(w, "%s looks like it may supersede older %s:\n", d.Entry.ID, inspect.Pick(len(olds) == 1, "entry", "entries"))
	for _, o := range olds {
		short := []rune(o.Text)
		if len(short) > 100 {
			short = append(short[:100], '…')
		}
		fmt.Fprintf(w, "  %s (%s, imp %d): %s\n", o.ID, o.Date.Format(time.DateOnly), o.Importance, string(short))
	}
	// The whole calls that answer.
	n, held := d.names, append([]string{d.Entry.ID}, ids...)
	replace := n.pick(n.Remember+" --supersedes "+strings.Join(ids, ",")+" -- "+wiring.ShellWord(d.Entry.Text),
		"`remember` with "+wiring.JSON(map[string]any{"supersedes": ids, "text": d.Entry.Text}))
	hold := n.pick(n.Remember+" --both-hold "+strings.Join(held, ","), "`remember` with "+wiring.JSON(map[string]any{"both_hold": held}))
	one, do := len(olds) == 1, n.pick("run", "call")
	fmt.Fprintf(w, "If it replaces %s, %s: %s\n", inspect.Pick(one, "that entry", "them"), do, replace)
	fmt.Fprintf(w, "If %s still hold, %s: %s\n", inspect.Pick(one, "both", "they all"), do, hold)
	fmt.Fprintf(w, "%sReplaced, %s to %s as superseded by %s; until you answer, the memory view marks %s as possibly superseded.\n",
		inspect.Pick(one, "", "If only some are replaced, give each call only their IDs. "), inspect.Pick(one, "that entry goes", "they go"),
		d.Archive, d.Entry.ID, inspect.Pick(one, "it", "them"))
}

func entryIDs(es []*memfile.Entry) []string {
	ids := make([]string, len(es))
	for i, e := range es {
		ids[i] = e.ID
	}
	return ids
}

func goneIDs(gone []memfile.Removal) []string {
	ids := make([]string, len(gone))
	for i, a := range gone {
		ids[i] = a.Entry.ID
	}
	return ids
}
