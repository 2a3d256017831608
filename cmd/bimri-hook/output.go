package main

// What remember, forget, restore and revive print. Other commands' reports are printed by the
// package that computes them (report.go in internal/inspect,
// internal/simulate, internal/install, internal/mergedriver; doctor's
// checks); the rest is a line passed through as it is (version, a store's
// Notice). Errors are worded where they arise and printed once by run.
// What the model reads is in hooks/messages.go and memfile/context.go.

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/memfile"
)

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func printRemembered(w io.Writer, e *memfile.Entry, tier int, isNew bool, path, notice string) {
	verb := "recorded"
	if !isNew {
		verb = "already recorded today; updated"
	}
	fmt.Fprintf(w, "%s %s in Tier %d of %s (importance %d, weight %s)\n", verb, e.ID, tier, path, e.Importance, e.Weight)
	if notice != "" {
		fmt.Fprintln(w, notice)
	}
}

// stayHorizon is how far ahead printStay looks for the day an entry
// falls below the threshold: past three weeks freshness no longer falls.
const stayHorizon = 3650

// printStay says how long an entry just recorded or revived stays in
// bimri.md, by the scoring rules (memfile.ForecastEntry): the day its
// weight falls below the threshold, or why it does not.
func printStay(w io.Writer, e *memfile.Entry, tier int, today time.Time, cfg memfile.Config) {
	switch d, ok := memfile.ForecastEntry(e, today, cfg, stayHorizon); {
	case tier == 1:
		fmt.Fprintln(w, "it stays: Tier 1 never decays and is never pruned")
	case ok && d.Days == 0:
		fmt.Fprintf(w, "it weighs %s, under the threshold %s, so the next pass moves it to the archive (recall finds it there; bimri-hook revive %s brings it back)\n", d.To, cfg.Threshold, e.ID)
	case ok:
		fmt.Fprintf(w, "it stays until about %s (%d days), then the archive keeps it: recall finds it there, bimri-hook revive %s brings it back\n", d.Day.Format(time.DateOnly), d.Days, e.ID)
	default:
		fmt.Fprintf(w, "it stays until Tier 2's budget needs the room: importance %d never weighs less than %s\n", e.Importance, cfg.Floor)
	}
}

func printConsolidated(w io.Writer, e *memfile.Entry, tier int, gone []memfile.Removal, path, archive, notice string) {
	ids := make([]string, len(gone))
	for i, a := range gone {
		ids[i] = a.Entry.ID
	}
	fmt.Fprintf(w, "consolidated %s into %s in Tier %d of %s (importance %d, %s, tags %s, weight %s); the originals are in %s\n",
		strings.Join(ids, ", "), e.ID, tier, path, e.Importance, e.Date.Format("2006-01-02"), strings.Join(e.Tags, ","), e.Weight, archive)
	if notice != "" {
		fmt.Fprintln(w, notice)
	}
}

func printPromoted(w io.Writer, e *memfile.Entry, path, notice string) {
	fmt.Fprintf(w, "moved %s to Tier 1 of %s, where it never decays (importance %d): %s\n", e.ID, path, e.Importance, e.Text)
	if notice != "" {
		fmt.Fprintln(w, notice)
	}
}

func printPattern(w io.Writer, p *memfile.Pattern, isNew bool, path, notice string) {
	if isNew {
		fmt.Fprintf(w, "recorded pattern %s [%s] in Tier 3 of %s; the next pass counts the entries that carry its tags\n", p.ID, strings.Join(p.Tags, ","), path)
	} else {
		fmt.Fprintf(w, "pattern %s [%s] in Tier 3 of %s now says: %s\n", p.ID, strings.Join(p.Tags, ","), path, p.Text)
	}
	if notice != "" {
		fmt.Fprintln(w, notice)
	}
}

func printForgotten(w io.Writer, a memfile.Removal, archive string) {
	id, text := "", ""
	if a.Entry != nil {
		id, text = a.Entry.ID, a.Entry.Text
	} else if a.Pattern != nil {
		id, text = a.Pattern.ID, a.Pattern.Text
	} else if a.Note != nil {
		id, text = memfile.NoteID(a.Note), strings.Join(a.Note.Lines, " / ")
	}
	fmt.Fprintf(w, "moved %s to %s: %s\n", id, archive, text)
}

// printNoMemory says that a workspace has no memory yet, for show.
func printNoMemory(w io.Writer, path string, global bool) {
	if global {
		fmt.Fprintf(w, "no global memory yet: %s does not exist (bimri-hook remember --global creates it)\n", path)
		return
	}
	fmt.Fprintf(w, "no memory yet: %s does not exist (the first Claude Code session here creates it, or bimri-hook remember)\n", path)
}

func printRestored(w io.Writer, s *memfile.Store, notice string) {
	fmt.Fprintf(w, "restored %s from %s; the replaced file is now %s\n", s.Names().Memory, s.Names().Backup, s.Names().Backup)
	if notice != "" {
		fmt.Fprintln(w, notice)
	}
}

func printRevived(w io.Writer, e *memfile.Entry, path, notice string) {
	fmt.Fprintf(w, "revived %s into Tier 2 of %s, dated %s (importance %d, weight %s): %s\n",
		e.ID, path, e.Date.Format("2006-01-02"), e.Importance, e.Weight, e.Text)
	if notice != "" {
		fmt.Fprintln(w, notice)
	}
}
