package memfile

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/privacy"
)

// The archive is append-only: each item that left the file, with its tag
// line, where it was, when and why, so pruning loses nothing.

// ArchiveHeading starts a new archive file.
const ArchiveHeading = "# BIMRI Archive\n<!-- Entries and patterns taken out of bimri.md, with the date and the reason. Append-only. -->\n"

// ArchiveRecord is one item read back from the archive.
type ArchiveRecord struct {
	Tier       int
	Entry      *Entry
	Pattern    *Pattern
	ArchivedOn time.Time // the day it left the file
	Reason     string
}

// The reasons of entries another took the place of (Consolidate, a deep
// merge).
const (
	reasonConsolidated = "consolidated into "
	reasonMerged       = "merged into "
)

// RenderArchived renders removals as archive records dated day.
func RenderArchived(items []Removal, day time.Time) []byte {
	var b strings.Builder
	for _, a := range items {
		// A reason can be a person's words, and the archive committed.
		reason := strings.NewReplacer("[", "(", "]", ")", "\n", " ").Replace(strings.TrimSpace(privacy.Clean(a.Reason)))
		extra := fmt.Sprintf(" [TIER:%d] [ARCHIVED:%s] [REASON:%s]", a.Tier, day.Format(dateLayout), reason)
		b.WriteByte('\n')
		switch {
		case a.Entry != nil:
			b.WriteString(entryLine(a.Entry) + extra + "\n" + a.Entry.Text + "\n")
		case a.Pattern != nil:
			b.WriteString(patternLine(a.Pattern) + extra + "\n" + a.Pattern.Text + "\n")
		case a.Note != nil:
			// Quoted, so no line of a note can read as a record.
			b.WriteString("<!-- unread lines [NOTE:" + NoteID(a.Note) + "]" + extra + " -->\n")
			for _, l := range a.Note.Lines {
				b.WriteString("> " + l + "\n")
			}
		}
	}
	return []byte(b.String())
}

var archiveFields = map[string]bool{"TIER": true, "ARCHIVED": true, "REASON": true}

// ParseArchive reads an archive's records, reporting and skipping lines
// it cannot read (the archive is never rewritten).
func ParseArchive(data []byte) ([]ArchiveRecord, []Warning) {
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	var out []ArchiveRecord
	var warnings []Warning
	var fields fieldList
	for i := 0; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(t, "[") {
			continue
		}
		var rest string
		var ok bool
		if fields, rest, _, ok = splitFields(t, fields); !ok {
			continue
		}
		lineNo := i + 1 // the tag line, reported even when the summary is on the next
		var body []string
		i, body = itemBody(lines, i, strings.TrimSpace(rest))
		rec := ArchiveRecord{Tier: 2}
		if v, ok := fields.get("TIER"); ok && len(v) == 1 && v[0] >= '1' && v[0] <= '3' {
			rec.Tier = int(v[0] - '0')
		}
		if v, ok := fields.get("ARCHIVED"); ok {
			rec.ArchivedOn, _ = ParseDate(v)
		}
		rec.Reason, _ = fields.get("REASON")
		var err error
		if _, isPattern := fields.get("PATTERN"); isPattern {
			rec.Tier = 3
			rec.Pattern, _, err = patternFromFields(fields, body)
		} else {
			rec.Entry, _, err = entryFromFields(fields, body, archiveFields)
			if err == nil && rec.Entry.Date.IsZero() {
				rec.Entry.Date = rec.ArchivedOn
			}
			if err == nil && rec.Entry.ID == "" {
				rec.Entry.ID = EntryID(rec.Entry.Date, rec.Entry.Text)
			}
		}
		if err != nil {
			warnings = append(warnings, Warning{Line: lineNo, Message: "archive record skipped: " + err.Error()})
			continue
		}
		out = append(out, rec)
	}
	return out, warnings
}

// TakenOut lists the items of current that replacement does not hold with
// the same ID and text: a restore archives them, so nothing recorded
// after the backup is lost.
func TakenOut(current, replacement *File, reason string) []Removal {
	var out []Removal
	for t, e := range current.TierEntries() {
		if kept, _ := replacement.Find(e.ID); kept == nil || kept.Text != e.Text {
			out = append(out, Removal{Tier: t, Entry: e, Reason: reason})
		}
	}
	for _, p := range current.Patterns() {
		if kept := replacement.FindPattern(p.ID); kept == nil || kept.Text != p.Text {
			out = append(out, Removal{Tier: 3, Pattern: p, Reason: reason})
		}
	}
	return out
}

// Fate is what the rules will do with an entry, in words.
func Fate(s Scoring, cfg Config) string {
	switch {
	case s.Tier == 1:
		return "Tier 1 never decays and is never pruned automatically; only deep maintenance's review can remove it"
	case s.Floored || (s.Importance >= 4 && s.Weight >= cfg.Floor):
		return "the floor keeps importance 4 and 5 at " + cfg.Floor.String() + " or more, so the threshold never archives it; it leaves only if Tier 2 goes over its budget (importance 5 last, importance 4 next within three quarters of the budget; otherwise the lowest importance x freshness, then the oldest, first)"
	case s.Weight < cfg.Threshold:
		return "below the threshold " + cfg.Threshold.String() + ": the next pass archives it"
	}
	return "at or above the threshold " + cfg.Threshold.String() + ": it stays for now"
}

// Departure is when an entry will fall below the threshold.
type Departure struct {
	Entry *Entry
	Day   time.Time // the first day its weight is below the threshold
	Days  int       // days from today
	From  Weight    // its weight today
	To    Weight    // its weight that day
}

// Forecast lists the Tier 2 entries the threshold will archive within
// days, soonest first (budget evictions cannot be foreseen).
func Forecast(f *File, today time.Time, cfg Config, days int) []Departure {
	var out []Departure
	for _, e := range f.Entries(2) {
		if d, ok := ForecastEntry(e, today, cfg, days); ok {
			out = append(out, d)
		}
	}
	slices.SortStableFunc(out, func(a, b Departure) int { return cmp.Or(a.Days-b.Days, strings.Compare(a.Entry.ID, b.Entry.ID)) })
	return out
}

// ForecastEntry says when one Tier 2 entry falls below the threshold, if
// it does within days.
func ForecastEntry(e *Entry, today time.Time, cfg Config, days int) (Departure, bool) {
	today = civil(today)
	now := Score(*e, 2, today, cfg).Weight
	for d := 0; d <= days; d++ {
		day := today.AddDate(0, 0, d)
		if w := Score(*e, 2, day, cfg).Weight; w < cfg.Threshold {
			return Departure{Entry: e, Day: day, Days: d, From: now, To: w}, true
		}
	}
	return Departure{}, false
}
