package memfile

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
)

// View says what the context view shows and how much room it has.
type View struct {
	// Limit is the most characters the view may use, counted as UTF-16
	// code units, which is how Claude Code measures its 10,000 cap (a rune
	// outside the BMP counts twice).
	Limit int
	// Global, when set, is the user's memory across workspaces; it comes
	// first.
	Global *File
	// Name is the memory file's name as the model should see it.
	Name string
	// Archive is the archive's name (bimri-archive.md when empty), and
	// Search the exact command that searches the file and the archive,
	// to which the model adds its words; the footer names both when
	// anything is left out.
	Archive string
	Search  string
	// Foreign, when set, says which of the file's entries and patterns
	// (by ID) this workspace's sessions did not record: they came with
	// git (a clone, a pull, a merge) or an edit. The view marks them, so
	// the model can tell its own records from what others wrote.
	Foreign func(id string) bool
}

// foreignMark follows the tags of an entry or pattern View.Foreign names.
const foreignMark = " " + ForeignMark

func (v View) mark(id string) string {
	if v.Foreign != nil && v.Foreign(id) {
		return foreignMark
	}
	return ""
}

// Length counts s as Claude Code does: UTF-16 code units.
func Length(s string) int {
	// ASCII, most of any view, is one unit a byte: only the rest is
	// decoded.
	i := asciiPrefix(s)
	if i == len(s) {
		return i
	}
	return i + length16(s[i:])
}

func length16(s string) int {
	n := 0
	for _, r := range s {
		// Ranging over a string yields U+FFFD for invalid bytes, so RuneLen
		// is 1 or 2 here.
		n += utf16.RuneLen(r)
	}
	return n
}

// ContextView renders what goes into the model's context: the global
// memory's entries, the latest work, Tier 1 (at most half the view), the
// decisions, patterns (established first), the rest of Tier 2 by weight,
// then one line saying how much was left out and where to find it. Items
// go in that order until the next one does not fit (the global memory
// stops at its share of the room first); nothing is ever cut mid-line,
// and the result never exceeds v.Limit.
//
// It is two steps: chooseGroups says what may go in, in which group and
// order; layOut fits the groups into the limit and writes them.
func ContextView(f *File, v View) string {
	if v.Name == "" {
		v.Name = "bimri.md"
	}
	if v.Archive == "" {
		v.Archive = ArchiveName
	}
	return layOut(f, v, chooseGroups(f, v))
}

// chooseGroups is what may go into the view, group by group in the
// order they go in, each group's lines in its own order and with its
// bounds on room (share, leave). What is left out for room is decided
// by layOut, from the end of that order.
func chooseGroups(f *File, v View) []viewGroup {
	var groups []viewGroup
	if v.Global != nil {
		g := viewGroup{heading: "## About you (global memory, all workspaces)", global: true}
		for t := 1; t <= 2; t++ {
			for _, e := range v.Global.Entries(t) {
				g.add(viewEntry(e, false, ""), true)
			}
		}
		groups = append(groups, g)
	}
	// The latest work (recorded on the pass's day or the day before) comes
	// first: it is what the next session most needs, and there is little
	// of it. Then what lasts: Tier 1, and the decisions (Tier 2 importance
	// 5), before patterns and routine work. Tier 1 leaves the decisions
	// their room, unless that would give it less than half the view, so a
	// large Tier 1 cannot crowd them out; Advise asks the agent to
	// consolidate before what lasts outgrows LastingRoom.
	latest, decisions, rest := tier2Groups(f, v)
	t1 := viewGroup{heading: tier1Heading, leave: decisions.length()}
	for _, b := range f.Tiers[0].Blocks {
		switch {
		case b.Entry != nil:
			t1.add(viewEntry(b.Entry, false, v.mark(b.Entry.ID)), true)
		case b.Note != nil:
			t1.add(tier1Note(b.Note), false)
		}
	}
	return append(groups, latest, t1, decisions, patternGroup(f, v), unreadGroup(f, v.Limit/5), rest)
}

// tier2Groups sorts Tier 2's entries into the view's three groups of
// them: the latest work, the decisions and the rest (see tier2Group).
// Tier 2 goes in the order the budget keeps it (importance 5 first,
// then importance x freshness), as of the last pass, so the entries the
// view leaves out for room are those the budget would take first.
func tier2Groups(f *File, v View) (latest, decisions, rest viewGroup) {
	latest = viewGroup{heading: "## Latest work (Tier 2, recorded today or yesterday)"}
	decisions = viewGroup{heading: "## Decisions (Tier 2, importance 5, newest first)"}
	rest = viewGroup{heading: "## Active context (Tier 2, by importance x freshness)"}
	// Which group an entry goes to does not depend on the order, so each
	// group takes its own entries in the budget's order (see addRanked).
	// They are counted first, to rank them all in one allocation.
	day := civilUnix(f.Header.LastMaintained) // for daysBefore
	var n [3]int
	for _, b := range f.Tiers[1].Blocks {
		if b.Entry != nil {
			n[tier2Group(b.Entry, daysBefore(b.Entry.Date, day))]++
		}
	}
	ranked := make([]rankedEntry, n[0]+n[1]+n[2])
	split := [3][]rankedEntry{ranked[:0:n[0]], ranked[n[0] : n[0] : n[0]+n[1]], ranked[n[0]+n[1] : n[0]+n[1]]}
	pos := 0
	for _, b := range f.Tiers[1].Blocks {
		if e := b.Entry; e != nil {
			days := daysBefore(e.Date, day)
			g := tier2Group(e, days)
			split[g] = append(split[g], rankedEntry{rankForDays(e, days), e, pos})
			pos++
		}
	}
	latest.addRanked(split[0], v)
	decisions.addRanked(split[1], v)
	rest.addRanked(split[2], v)
	return latest, decisions, rest
}

// patternGroup is Tier 3, established patterns first. Patterns with a
// sentence say something; the automatic ones only count a tag, so they
// share one compact line after them.
func patternGroup(f *File, v View) viewGroup {
	pats := f.Patterns()
	slices.SortStableFunc(pats, patternOrder)
	g := viewGroup{heading: "## Patterns (Tier 3; EMERGING ones are hypotheses)"}
	var counts []*Pattern
	for _, p := range pats {
		if !p.hasSentence() {
			counts = append(counts, p)
			continue
		}
		g.add(fmt.Sprintf("- %s, %d obs [%s]%s %s (id %s)", p.Level, p.Observations, strings.Join(p.Tags, ","), v.mark(p.ID), Inert(p.Text), p.ID), true)
	}
	if len(counts) > maxTopics {
		counts = counts[:maxTopics]
	}
	if len(counts) > 0 {
		g.add("- recurring topics (tag, entries): "+compactTopics(counts), true)
	}
	return g
}

// unreadGroup is the lines of Tier 2 and 3 that are not entries or
// patterns. They never decay or leave, and nothing reads them: the model
// sees them, marked, so it can record them properly. They get at most
// share of the view, so many of them cannot crowd out Tier 2.
func unreadGroup(f *File, share int) viewGroup {
	g := viewGroup{heading: "## Unread lines (not entries: they never decay; re-record them)", share: share}
	for t := 2; t <= 3; t++ {
		for _, b := range f.Tiers[t-1].Blocks {
			if b.Note != nil {
				g.add(fmt.Sprintf("- unread, Tier %d (note id %s): %s", t, NoteID(b.Note), Inert(strings.Join(trimmed(b.Note.Lines), " "))), true)
			}
		}
	}
	return g
}

// layOut writes the view: the head line, then the groups in order, each
// heading with the lines of it that fit, then the footer. Lines go in
// until the next one does not fit in the room its group has (the limit,
// less the group's bounds); a group whose bound stops it lets the groups
// after it go on, one stopped by the limit ends the view. Room for the
// footer is kept throughout.
func layOut(f *File, v View, groups []viewGroup) string {
	total := 0
	for _, g := range groups {
		total += g.hidden
		for _, l := range g.lines {
			if l.item {
				total++
			}
		}
	}
	head := viewHead(f, v, groups)
	// Room is kept for the longest footer, the one that says every item
	// was left out. When the whole view fits with its own, shorter footer,
	// only that much is kept, so a limit of exactly the full length shows
	// everything.
	w := &viewWriter{limit: v.Limit, reserve: Length(viewFooter(v, total, total))}
	need := Length(head) + 1 + Length(viewFooter(v, total, 0))
	for _, g := range groups {
		need += g.length()
	}
	if need <= v.Limit {
		w.reserve = Length(viewFooter(v, total, 0))
	}
	// Sized once: the view is at most its limit, and a UTF-16 unit is at
	// most 3 bytes of UTF-8; growing by doubling touched twice the memory.
	w.b.Grow(min(viewBytes(head, groups, viewFooter(v, total, total)), 3*v.Limit))
	forGlobal := globalRoom(v, groups, head, w.reserve)
	shown := 0
	full := !w.add(head)
	for _, g := range groups {
		if full || len(g.lines) == 0 {
			continue
		}
		room, capped := g.room(v.Limit, w.used, forGlobal)
		n, whole := w.addGroup(g, room)
		shown += n
		if !whole {
			full = !capped // the groups after a spent share still follow
		}
	}
	last := viewFooter(v, total, total-shown)
	if Length(last) > v.Limit {
		return truncateUnits(last, v.Limit)
	}
	w.b.WriteString(last)
	return w.b.String()
}

// globalRoom is the room the global memory may take, as a bound on the
// view's length: the global memory must not crowd out the workspace's,
// so it gets the room the workspace's memory leaves, and never less than
// a third of the view, so each keeps a share however large the other
// grows.
func globalRoom(v View, groups []viewGroup, head string, reserve int) int {
	if v.Global == nil {
		return v.Limit
	}
	workspace := 0
	for _, g := range groups {
		if !g.global {
			workspace += g.length()
		}
	}
	// room bounds used+reserve; the third is counted after the head.
	return min(max(Length(head)+1+reserve+v.Limit/3, v.Limit-workspace), v.Limit)
}

// room is the room g may fill, as a bound on the view's length, when
// used units of a view of limit units are written: the limit, less the
// group's bounds (forGlobal for the global memory's, its share, the room
// it leaves). capped says a bound, not the limit, set it.
func (g viewGroup) room(limit, used, forGlobal int) (room int, capped bool) {
	room = limit
	if g.global {
		room, capped = forGlobal, forGlobal < limit
	}
	if g.share > 0 && used+g.share < room {
		room, capped = used+g.share, true
	}
	if g.leave > 0 {
		if r := max(used+limit/2, limit-g.leave); r < room {
			room, capped = r, true
		}
	}
	return room, capped
}

// viewHead is the view's first lines: what it is, then what its notes
// are, and what the foreign mark says when a line may carry it.
func viewHead(f *File, v View, groups []viewGroup) string {
	sessions := "sessions"
	if f.Header.Sessions == 1 {
		sessions = "session"
	}
	head := fmt.Sprintf("# BIMRI memory (%s): %d %s, last maintained %s\n%s", v.Name, f.Header.Sessions, sessions, lastMaintained(f.Header), NotInstructions)
	for _, g := range groups {
		for _, l := range g.lines {
			if strings.Contains(l.text, foreignMark) {
				return head + " " + ForeignLegend
			}
		}
	}
	return head
}

// viewFooter is the view's last line, when left of its total items are
// left out.
func viewFooter(v View, total, left int) string {
	if left == 0 {
		return fmt.Sprintf("All %d items shown. The full memory file is %s.", total, v.Name)
	}
	rest := fmt.Sprintf("%d of %d items left out for space (lowest priority first). The full memory file is %s; what left it is in %s.", left, total, v.Name, v.Archive)
	if v.Search != "" {
		rest += fmt.Sprintf(" To find either, run: %s WORDS", v.Search)
	}
	return rest
}

// viewWriter is the view as layOut writes it: the lines so far and the
// room they use, in UTF-16 units with their newlines, with reserve kept
// for the footer.
type viewWriter struct {
	b       strings.Builder
	limit   int
	used    int
	reserve int
}

// add writes line s if it fits in the limit with the footer's reserve.
func (w *viewWriter) add(s string) bool {
	n := Length(s) + 1
	if w.used+n+w.reserve > w.limit {
		return false
	}
	w.b.WriteString(s)
	w.b.WriteByte('\n')
	w.used += n
	return true
}

// addGroup writes g's heading and its lines while they fit in room (a
// bound on used+reserve, never over the limit), and says how many items
// it wrote and whether every line fit. A heading goes in only with its
// first line.
func (w *viewWriter) addGroup(g viewGroup, room int) (shown int, whole bool) {
	if w.used+Length(g.heading)+Length(g.lines[0].text)+2+w.reserve > room {
		return 0, false
	}
	w.add(g.heading)
	for _, l := range g.lines {
		if w.used+Length(l.text)+1+w.reserve > room || !w.add(l.text) {
			return shown, false
		}
		if l.item {
			shown++
		}
	}
	return shown, true
}

// tier2Group is the view's group for a Tier 2 entry recorded days
// before the last pass: 0 the latest work (that day or the day before),
// 1 the decisions, 2 the rest.
func tier2Group(e *Entry, days int) int {
	switch {
	case days <= 1:
		return 0
	case e.Importance >= 5:
		return 1
	}
	return 2
}

const tier1Heading = "## Core intelligence (Tier 1, never decays)"

func tier1Note(n *Note) string { return "- note: " + Inert(strings.Join(trimmed(n.Lines), " ")) }

// LastingShare is the share of the context limit, in percent, that what
// lasts - Tier 1 and the decisions (Tier 2 importance 5) - may take in the
// view; Tier1Share is Tier 1's part of it. The view puts them right after
// the latest work, and the rest of the context (the instructions, the
// brief) leaves them that much room, so while they stay within it every
// one of them is shown. Advise asks the agent to consolidate before they
// outgrow it, and proposes a promotion only while Tier 1 is within its
// part.
const (
	LastingShare = 50
	Tier1Share   = 25
)

// Lasting measures what lasts as the view shows it, in the view's
// characters: Tier 1's lines and the decisions' (every Tier 2 entry of
// importance 5, also the latest ones, which the view shows among the
// latest work), each with its newline.
func Lasting(f *File) (tier1, decisions int) {
	for _, b := range f.Tiers[0].Blocks {
		switch {
		case b.Entry != nil:
			tier1 += viewEntryLength(b.Entry, false, "") + 1
		case b.Note != nil:
			tier1 += Length(tier1Note(b.Note)) + 1
		}
	}
	for _, b := range f.Tiers[1].Blocks { // not Entries: no list of 10,000
		if e := b.Entry; e != nil && e.Importance >= 5 {
			decisions += viewEntryLength(e, true, "") + 1
		}
	}
	return tier1, decisions
}

// maxTopics bounds the compact line of automatic patterns; the strongest
// come first.
const maxTopics = 30

type viewGroup struct {
	heading string
	lines   []viewLine
	// global marks the global memory's group, which has the room the
	// workspace's groups leave (globalRoom).
	global bool
	share  int // the most room the group may take; 0 for no bound
	// leave is the room the group leaves for those after it, as long as
	// it keeps half the view; 0 for none.
	leave  int
	built  int // the length of the lines addEntry built
	hidden int // items after those lines, counted but never built
}

// buildEveryLine turns addEntry's shortcut off, for the test that shows
// the shortcut changes nothing.
var buildEveryLine = false

// viewBytes is the most bytes a view of these groups can take.
func viewBytes(head string, groups []viewGroup, footer string) int {
	n := len(head) + 1 + len(footer)
	for _, g := range groups {
		n += len(g.heading) + 1
		for _, l := range g.lines {
			n += len(l.text) + 1
		}
	}
	return n
}

// length is the room the group takes whole: its heading and lines.
func (g viewGroup) length() int {
	if len(g.lines) == 0 {
		return 0
	}
	n := Length(g.heading) + 1 + g.hidden // a hidden line is at least its newline
	for _, l := range g.lines {
		n += Length(l.text) + 1
	}
	return n
}

type viewLine struct {
	text string
	item bool // counted in the footer: an entry, a pattern, an unread line; Tier 1 notes are not
}

func (g *viewGroup) add(text string, item bool) {
	g.lines = append(g.lines, viewLine{text, item})
}

// addEntry adds a Tier 2 entry's line (with its weight). Once the group's
// lines alone are longer than the whole view (v.Limit), a line could
// never be shown: the entry is still counted (hidden), but its line is
// not built. At 10,000 entries building them was most of the
// view's cost. Every sum of lengths the view compares with its limit
// stays over it, so what is shown does not change.
func (g *viewGroup) addEntry(e *Entry, v View) {
	if g.built > v.Limit && !buildEveryLine {
		g.hidden++
		return
	}
	text := viewEntry(e, true, v.mark(e.ID))
	g.built += Length(text) + 1
	g.add(text, true)
}

// addRanked adds Tier 2 entries in the order the budget keeps them
// longest (keptOrder's). Only the lines addEntry builds need that
// order; the entries after them are only counted. So rather than sort
// them all (most of the view's cost at 10,000 entries), it heaps them
// and takes them off the top only while lines are built: keptOrder is a
// total order, so these are the sort's first lines (TestAddRankedIsTheSort).
func (g *viewGroup) addRanked(ranked []rankedEntry, v View) {
	if buildEveryLine {
		slices.SortFunc(ranked, keptOrder)
		for _, r := range ranked {
			g.addEntry(r.e, v)
		}
		return
	}
	h := rankHeap(ranked)
	h.init()
	for len(h) > 0 && g.built <= v.Limit {
		g.addEntry(h.pop().e, v)
		h = h[:len(h)-1]
	}
	g.hidden += len(h)
}

// viewEntry is an entry's line in the view; mark, when not empty, follows
// its tags (foreignMark). Its text is made Inert.
func viewEntry(e *Entry, withWeight bool, mark string) string {
	// Built by hand, not with fmt: the view writes every entry it shows.
	var b strings.Builder
	b.Grow(48 + len(e.Text) + len(e.ID) + 16*len(e.Tags))
	b.WriteString("- ")
	if withWeight {
		b.WriteByte('(')
		b.WriteString(e.Weight.String())
		b.WriteString(") ")
	}
	if e.Date.IsZero() {
		b.WriteString("undated")
	} else {
		var date [len(dateLayout) + 8]byte
		b.Write(appendDate(date[:0], e.Date))
	}
	b.WriteString(" imp ")
	b.WriteString(strconv.Itoa(e.Importance))
	if len(e.Tags) > 0 {
		b.WriteString(" [")
		for i, t := range e.Tags {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(t)
		}
		b.WriteByte(']')
	}
	b.WriteString(mark)
	b.WriteString(": ")
	b.WriteString(Inert(e.Text))
	b.WriteString(" (id ")
	b.WriteString(e.ID)
	b.WriteByte(')')
	return b.String()
}

// viewEntryLength is Length(viewEntry(e, withWeight, mark)) without
// building the line: Lasting measures every decision, thousands in a big
// file, on every SessionStart. Every part meets the next at an ASCII
// character, so the parts' lengths add up; TestViewEntryLength keeps the
// two equal.
func viewEntryLength(e *Entry, withWeight bool, mark string) int {
	var num [24]byte
	n := len("- ") + len(" imp ") + len(": ") + len(" (id ") + len(")")
	if e.Importance >= 0 && e.Importance <= 9 {
		n++ // one digit, as every valid importance is
	} else {
		n += len(strconv.AppendInt(num[:0], int64(e.Importance), 10))
	}
	if withWeight {
		n += len("(") + weightLen(e.Weight) + len(") ")
	}
	switch {
	case e.Date.IsZero():
		n += len("undated")
	case fourDigitYear(e.Date):
		n += len(dateLayout)
	default:
		n += len(appendDate(num[:0], e.Date)) // ASCII
	}
	if len(e.Tags) > 0 {
		n += len(" [") + len(e.Tags) - 1 + len("]")
		for _, t := range e.Tags {
			n += Length(t)
		}
	}
	return n + len(mark) + Length(Inert(e.Text)) + Length(e.ID)
}

func lastMaintained(h Header) string {
	if h.LastMaintained.IsZero() {
		return "never"
	}
	return h.LastMaintained.Format(dateLayout)
}

func trimmed(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimSpace(l)
	}
	return out
}

// truncateUnits cuts s to at most n UTF-16 units on a rune boundary.
func truncateUnits(s string, n int) string {
	used := 0
	for i, r := range s {
		w := utf16.RuneLen(r)
		if w < 0 {
			w = 1
		}
		if used+w > n {
			return s[:i]
		}
		used += w
	}
	return s
}
