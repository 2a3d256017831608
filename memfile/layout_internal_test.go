package memfile

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/internal/slowtest"
)

// randomViewFile is a maintained-looking file with a random amount of
// everything the view has a group for: Tier 1 entries and notes,
// decisions, key work, the latest work, older work, the week's records
// in the archive, patterns with and without a sentence, unread lines;
// texts short and long, some not ASCII.
func randomViewFile(rng *rand.Rand) (*File, []ArchiveRecord) {
	today := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	f := New(DefaultConfig())
	f.Header.LastMaintained = today
	f.Header.Sessions = rng.IntN(400)
	text := func(i int) string {
		var b strings.Builder
		fmt.Fprintf(&b, "Item %d", i)
		for range rng.IntN(1 + rng.IntN(90)) {
			b.WriteString([]string{" word", " é", " 🎉", " longerword", " x"}[rng.IntN(5)])
		}
		return b.String() + "."
	}
	id := 0
	entry := func(imp, ago int) *Entry {
		id++
		e := &Entry{ID: fmt.Sprintf("e%05d", id), Importance: imp, Date: today.AddDate(0, 0, -ago), Text: text(id)}
		if rng.IntN(3) > 0 {
			e.Tags = []string{[]string{"api", "db", "ui", "ops"}[rng.IntN(4)]}
		}
		return e
	}
	n := func(most int) int { return rng.IntN(1 + rng.IntN(most+1)) }
	for range n(60) {
		e := entry(4+rng.IntN(2), 30+rng.IntN(300))
		e.Weight, e.HasWeight = Weight(e.Importance*100), true
		f.Tiers[0].Blocks = append(f.Tiers[0].Blocks, Block{Entry: e})
	}
	for range n(3) {
		f.Tiers[0].Blocks = append(f.Tiers[0].Blocks, Block{Note: &Note{Lines: []string{text(0)}}})
	}
	add := func(count, impLo, impHi, agoLo, agoHi int) {
		for range count {
			e := entry(impLo+rng.IntN(impHi-impLo+1), agoLo+rng.IntN(agoHi-agoLo+1))
			e.Weigh(2, today, DefaultConfig())
			f.Tiers[1].Blocks = append(f.Tiers[1].Blocks, Block{Entry: e})
		}
	}
	add(n(40), 5, 5, 0, 200) // decisions
	add(n(80), 4, 4, 2, 200) // key work
	add(n(300), 1, 4, 0, 1)  // the latest work
	add(n(200), 2, 3, 2, 6)  // the rest
	for range n(6) {
		f.Tiers[1].Blocks = append(f.Tiers[1].Blocks, Block{Note: &Note{Lines: []string{text(0)}}})
	}
	for i := range n(40) {
		p := &Pattern{ID: fmt.Sprintf("p%04d", i), Level: []Level{Emerging, Developing, Established}[rng.IntN(3)], Observations: 1 + rng.IntN(30),
			Last: today, Tags: []string{fmt.Sprintf("tag%d", i)}}
		if rng.IntN(2) == 0 {
			p.Text = text(i)
		}
		f.Tiers[2].Blocks = append(f.Tiers[2].Blocks, Block{Pattern: p})
	}
	var archived []ArchiveRecord
	for range n(60) {
		e := entry(1+rng.IntN(4), 2+rng.IntN(7))
		archived = append(archived, ArchiveRecord{Tier: 2, Entry: e, ArchivedOn: today, Reason: "weight below threshold"})
	}
	return f, archived
}

// placed is what layOut gives each group, for the tests.
func placed(f *File, v View) ([]viewGroup, []fitted, int) {
	if v.Sure <= 0 || v.Sure > v.Limit {
		v.Sure = v.Limit
	}
	v.Name, v.Archive = "bimri.md", ArchiveName
	groups := chooseGroups(f, v)
	total := 0
	for i := range groups {
		total += groups[i].items
	}
	return groups, place(v, groups, viewHead(f, v, groups), total), total
}

// Every group's floor holds: it shows at least what it would show in the
// floor of the room it has (or all of itself, when that is less), and
// nothing passes the limit, whatever the file holds.
func TestViewFloorsHold(t *testing.T) {
	slowtest.Gate(t) // a property over 300 random files
	rng := rand.New(rand.NewPCG(25, 1))
	for round := range 300 {
		f, archived := randomViewFile(rng)
		v := View{Limit: 300 + rng.IntN(14000), Archived: archived, Name: "bimri.md", Archive: ArchiveName}
		if rng.IntN(4) == 0 {
			g, _ := randomViewFile(rng)
			v.Global = g
		}
		v.Sure = v.Limit
		if rng.IntN(2) == 0 {
			v.Sure = v.Limit - rng.IntN(v.Limit/2)
		}
		view := ContextView(f, v)
		if Length(view) > v.Limit {
			t.Fatalf("round %d: the view is %d characters, over its limit of %d", round, Length(view), v.Limit)
		}
		groups, fits, total := placed(f, v)
		head := Length(viewHead(f, v, groups)) + 1 + Length(viewFooter(v, total, total))
		room := max(v.Sure-head, 0)
		left := room
		floor := func(i, share int) int {
			n := min(groups[i].need(), share, left)
			left -= n
			return n
		}
		floors := make([]int, len(groups))
		floors[groupGlobal] = floor(groupGlobal, v.Sure/3)
		workspace := left
		for i := groupTier1; i < len(groups); i++ {
			floors[i] = floor(i, workspace*groups[i].floor/100)
		}
		for i := range groups {
			want := groups[i].fit(floors[i])
			if fits[i].shown < want.shown || fits[i].full < want.full {
				t.Fatalf("round %d, limit %d, group %d: shows %d lines (%d whole), its floor of %d units holds %d (%d whole)",
					round, v.Limit, i, fits[i].shown, fits[i].full, floors[i], want.shown, want.full)
			}
		}
	}
}

// A view with more room shows whole every line a view with less shows
// whole, when it is laid out sure of the smaller room: what recall
// counts as shown (the view of the room the session always has) is in
// the view the session got.
func TestViewSureIsShownWhole(t *testing.T) {
	slowtest.Gate(t) // a property over 300 random files
	rng := rand.New(rand.NewPCG(25, 2))
	for round := range 300 {
		f, archived := randomViewFile(rng)
		sure := 300 + rng.IntN(9000)
		limit := sure + rng.IntN(4000)
		seen := ViewLayout(f, View{Limit: sure, Archived: archived})
		got := ViewLayout(f, View{Limit: limit, Sure: sure, Archived: archived})
		if Length(got.Text) > limit {
			t.Fatalf("round %d: %d characters, over the limit of %d", round, Length(got.Text), limit)
		}
		for id := range seen.Whole {
			if !got.Whole[id] {
				t.Fatalf("round %d: %s is whole in the view of %d, not in the view of %d sure of %d", round, id, sure, limit, sure)
			}
		}
	}
}

// More room never shows fewer lines of a group, nor fewer whole.
func TestFitIsMonotone(t *testing.T) {
	slowtest.Gate(t) // a property over 100 random files
	rng := rand.New(rand.NewPCG(25, 3))
	for range 100 {
		f, archived := randomViewFile(rng)
		groups := chooseGroups(f, View{Limit: 20000, Name: "bimri.md", Archived: archived})
		for i := range groups {
			g := &groups[i]
			last := fitted{}
			for room := 0; room <= g.need()+10; room += 1 + rng.IntN(40) {
				fit := g.fit(room)
				if fit.used > room || fit.shown < last.shown || fit.full < last.full {
					t.Fatalf("group %d, room %d: %+v after %+v", i, room, fit, last)
				}
				last = fit
			}
		}
	}
}

// Every entry and pattern of the file is accounted for: whole in the
// view, in a compact line, named, or among those the footer counts as
// left out.
func TestViewAccountsForEveryItem(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 4))
	for round := range 200 {
		f, archived := randomViewFile(rng)
		v := View{Limit: 300 + rng.IntN(14000), Archived: archived, Name: "bimri.md", Archive: ArchiveName}
		lay := ViewLayout(f, v)
		groups, fits, total := placed(f, v)
		shown := 0
		for i := range groups {
			for j, l := range groups[i].lines[:fits[i].shown] {
				if !l.item {
					continue
				}
				shown++
				inText := strings.Contains(lay.Text, l.text+"\n")
				if j >= fits[i].full && groups[i].compact && l.compact != "" {
					inText = strings.Contains(lay.Text, l.compact+"\n")
				}
				if !inText {
					t.Fatalf("round %d: group %d line %d is not in the view", round, i, j)
				}
			}
		}
		if total > shown && !strings.Contains(lay.Text, fmt.Sprintf("%d of %d items left out", total-shown, total)) && Length(lay.Text) > 200 {
			t.Fatalf("round %d: %d of %d items shown, and the footer does not say so:\n%s", round, shown, total, lay.Text[max(0, len(lay.Text)-300):])
		}
	}
}

// Past the view's limit addRanked keeps only the IDs of Tier 2 entries:
// the view is the same as when every line is built.
func TestViewShortcutChangesNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 7))
	for round := range 200 {
		f, archived := randomViewFile(rng)
		v := View{Limit: 300 + rng.IntN(3000), Archived: archived, Name: "bimri.md", Archive: ArchiveName}
		short := ViewLayout(f, v).Text
		buildEveryLine = true
		every := ViewLayout(f, v).Text
		buildEveryLine = false
		if short != every {
			t.Fatalf("round %d: the view differs when every line is built:\n%s\n---\n%s", round, short, every)
		}
	}
}
