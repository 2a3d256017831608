package memfile

import (
	"strconv"
	"strings"
)

// viewGroup is a group of the view. Its share of the workspace's room,
// in percent: floor is guaranteed, cap taken before later groups have
// theirs, and firm bounds it at the end too. compact allows compact
// lines; named names by ID the entries that do not fit.
type viewGroup struct {
	heading        string
	floor, cap     int
	firm           bool
	compact, named bool
	lines          []viewLine
	items          int  // lines counted in the footer
	size           int  // the room of every line whole
	foreign        bool // a line carries the foreign mark
}

type viewLine struct {
	text        string // the whole line
	compact     string // the line in a few words, in a compact group; else ""
	id          string // the entry or pattern it shows; "" for other lines
	item        bool   // counted in the footer: an entry, a pattern, an unread line
	size, small int    // the room it takes whole and at its shortest, with its newline
}

func (g *viewGroup) add(l viewLine) {
	l.size, l.small = Length(l.text)+1, Length(l.compact)+1
	if !g.compact || l.compact == "" {
		l.compact, l.small = "", l.size
	}
	g.lines = append(g.lines, l)
	g.size += l.size
	if l.item {
		g.items++
	}
	g.foreign = g.foreign || strings.Contains(l.text, foreignMark)
}

// fitted is what of a group is shown: its first shown lines, the first
// full of them whole (all of it when full is its length), the names line,
// and the room used.
type fitted struct {
	shown, full int
	names       string
	used        int
}

// fit is what of g is shown in room units (newlines counted): as many
// lines as fit compact, then as many whole as room allows once all are
// shown, so a larger room never shows less than a smaller one.
func (g *viewGroup) fit(room int) fitted {
	if len(g.lines) == 0 {
		return fitted{}
	}
	// least[i]: the heading and the first i lines at their shortest.
	least := make([]int, len(g.lines)+1)
	least[0] = Length(g.heading) + 1
	for i, l := range g.lines {
		least[i+1] = least[i] + l.small
	}
	best := fitted{}
	for m := len(g.lines); m >= 0 && best.used == 0; m-- {
		if least[m] > room {
			continue // too long even without the names
		}
		names, used := g.nameLine(m), least[m]
		if names != "" {
			used += Length(names) + 1
		} else if m == 0 {
			return best
		}
		if used <= room {
			best = fitted{shown: m, names: names, used: used}
		}
	}
	if !g.compact || best.shown == len(g.lines) {
		// Whole lines where they fit, first first (all when never compact).
		for _, l := range g.lines[:best.shown] {
			if best.used+l.size-l.small > room {
				break
			}
			best.full, best.used = best.full+1, best.used+l.size-l.small
		}
	}
	return best
}

// maxNamed bounds the IDs one line names.
const maxNamed = 12

// nameLine names the first maxNamed items a lasting group leaves out when
// it shows its first shown lines, and how many more; "" for none.
func (g *viewGroup) nameLine(shown int) string {
	var ids []string
	more := 0
	for _, l := range g.lines[shown:] {
		switch {
		case !g.named || l.id == "":
		case len(ids) == maxNamed:
			more++
		default:
			ids = append(ids, l.id)
		}
	}
	if len(ids) == 0 {
		return ""
	}
	s := "- left out for room, found by recall and search: " + strings.Join(ids, ", ")
	if more > 0 {
		s += " and " + strconv.Itoa(more) + " more"
	}
	return s
}

// need is the room the group takes whole: its heading and lines.
func (g *viewGroup) need() int {
	if len(g.lines) == 0 {
		return 0
	}
	return Length(g.heading) + 1 + g.size
}

// place is what each group shows, keeping room for the longest footer
// unless the whole view fits with its own.
func place(v View, groups []viewGroup, head string, total int) []fitted {
	fits := make([]fitted, len(groups))
	need := Length(head) + 1 + Length(viewFooter(v, total, 0))
	for i := range groups {
		need += groups[i].need()
	}
	if need <= v.Limit {
		for i := range groups {
			fits[i] = fitted{shown: len(groups[i].lines), full: len(groups[i].lines), used: groups[i].need()}
		}
		return fits
	}
	base := Length(head) + 1 + Length(viewFooter(v, total, total))
	sure, limit := max(v.Sure-base, 0), v.Limit-base
	rooms := allocate(groups, sure, v.Sure/3)
	for i := range groups {
		fits[i] = groups[i].fit(rooms[i])
	}
	spread(groups, rooms, fits, sure)
	if limit > sure {
		spread(groups, rooms, fits, limit)
	}
	return fits
}

// allocate gives each group its room: its floor, then up to its cap, then
// what it needs, each round in order of priority. The global memory's
// floor is a third of the view, the workspace's shares are of the rest.
func allocate(groups []viewGroup, room, global int) []int {
	rooms, left := make([]int, len(groups)), room // with no room, give gives nothing
	give := func(i, most int) {
		if n := min(most-rooms[i], groups[i].need()-rooms[i], left); n > 0 {
			rooms[i] += n
			left -= n
		}
	}
	give(groupGlobal, global)
	workspace := left
	for round := range 3 { // the floors, the caps, all that is left but firm caps
		for i := groupTier1; i < len(groups); i++ {
			share := [3]int{groups[i].floor, groups[i].cap, 100}[round]
			if groups[i].firm {
				share = min(share, groups[i].cap)
			}
			give(i, workspace*share/100)
		}
	}
	give(groupGlobal, room)
	return rooms
}

// spread gives the room groups leave unused to those that can show more,
// in order of priority (the global memory last), up to firm caps.
func spread(groups []viewGroup, rooms []int, fits []fitted, room int) {
	used := 0
	for i := range fits {
		used += fits[i].used
	}
	workspace := room - rooms[groupGlobal]
	for n := 1; n <= len(groups); n++ {
		i := n % len(groups) // groupGlobal, 0, last
		g := &groups[i]
		if used >= room || fits[i].full == len(g.lines) { // all of it, whole
			continue
		}
		most := fits[i].used + room - used
		if g.firm && i != groupGlobal {
			most = min(most, max(rooms[i], workspace*g.cap/100))
		}
		if most <= rooms[i] {
			continue
		}
		rooms[i] = most
		f := g.fit(rooms[i])
		used += f.used - fits[i].used
		fits[i] = f
	}
}

// write writes the view from what each group shows.
func write(v View, groups []viewGroup, fits []fitted, head string, total int) Layout {
	lay := Layout{Whole: map[string]bool{}, All: true}
	var b strings.Builder
	b.Grow(3 * v.Limit) // the most bytes the view can take: pages it leaves unwritten cost nothing
	shown := 0
	b.WriteString(head)
	b.WriteByte('\n')
	for i := range groups {
		g, fit := &groups[i], fits[i]
		lay.All = lay.All && fit.full == len(g.lines)
		if fit.used == 0 {
			continue
		}
		b.WriteString(g.heading)
		b.WriteByte('\n')
		for j, l := range g.lines[:fit.shown] {
			text := l.text
			if j >= fit.full && l.compact != "" {
				text = l.compact
			} else if l.id != "" {
				lay.Whole[l.id] = true
			}
			b.WriteString(text)
			b.WriteByte('\n')
			if l.item {
				shown++
			}
		}
		if fit.names != "" {
			b.WriteString(fit.names)
			b.WriteByte('\n')
		}
	}
	last := viewFooter(v, total, total-shown)
	if Length(b.String())+Length(last) > v.Limit {
		// Only a limit too small for the head and the footer comes here.
		return Layout{Text: truncateUnits(last, v.Limit), Whole: map[string]bool{}}
	}
	b.WriteString(last)
	lay.Text = b.String()
	return lay
}
