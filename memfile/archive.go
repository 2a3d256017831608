package memfile

import (
	"fmt"
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
	for i := 0; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(t, "[") {
			continue
		}
		fields, rest, _, ok := splitFields(t)
		if !ok {
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
	for t, e := range current.tierEntries() {
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
