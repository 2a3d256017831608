package memfile

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Options says what a pass should do besides the always-on rules.
type Options struct {
	// CountSession bumps the header's Sessions: the caller counts a
	// session once, however many passes run in it.
	CountSession bool
	// Deep: duplicate merging, tag clean-up, pattern recount, judgment brief.
	Deep bool
	// ArchivedEntries, for a deep recount: tags whose entries never met
	// in Tier 2 still become patterns.
	ArchivedEntries []Entry
}

// Removal is an item taken out of the file, and why; the caller archives
// it: nothing leaves the file otherwise.
type Removal struct {
	Tier    int
	Entry   *Entry
	Pattern *Pattern
	Note    *Note // an unread line forgotten on request; passes never archive notes
	Reason  string
}

// Item is the ID and the text of what r took out of the file.
func (r Removal) Item() (id, text string) {
	switch {
	case r.Entry != nil:
		return r.Entry.ID, r.Entry.Text
	case r.Pattern != nil:
		return r.Pattern.ID, r.Pattern.Text
	case r.Note != nil:
		return NoteID(r.Note), strings.Join(r.Note.Lines, " / ")
	}
	return "", ""
}

// PatternChange is a pattern the pass created or moved to another level.
type PatternChange struct {
	ID           string
	Tags         []string
	From         Level // "" when the pattern is new
	To           Level
	Observations int
}

// Report says what a pass did.
type Report struct {
	Removed  []Removal
	Patterns []PatternChange
	Tokens   Tokens
	Budgets  [3]int
	Warnings []string
	// Converted says what the pass did to a model-written file beyond the rules.
	Converted []string
	DeepDue   bool        // Sessions is a multiple of the cadence, or the file is over its total
	Deep      *DeepReport // set when Options.Deep
}

// DeepReport is what deep maintenance did and leaves to the agent.
type DeepReport struct {
	Merged         []Merge
	DroppedTags    []DroppedTag
	ReviewTier1    []string   // Tier 1 entry IDs, oldest first: are they still true?
	NearDuplicates [][]string // groups of entry IDs that say nearly the same thing
}

// Merge records exact duplicates folded into one entry.
type Merge struct {
	Kept    string
	Removed []string
}

// DroppedTag is a tag removed from an entry by the clean-up.
type DroppedTag struct {
	ID  string
	Tag string
}

// Maintain is the pass: set aside the oversized, date the undated, (deep:
// merge duplicates, clean tags), reweigh, patterns, prune, reorder,
// budgets, header. It never changes f.
func Maintain(f *File, today time.Time, cfg Config, opt Options) (*File, Report) {
	out := f.Clone()
	return out, MaintainInPlace(out, today, cfg, opt)
}

// MaintainInPlace is Maintain on out itself, for a caller that keeps
// nothing of it from before.
func MaintainInPlace(out *File, today time.Time, cfg Config, opt Options) Report {
	today = civil(today)
	rep := Report{Budgets: cfg.Budgets}
	applyConfig(out, cfg)
	setAsideOversized(out, &rep)
	fixDates(out, today, &rep)
	if opt.Deep {
		rep.Deep = &DeepReport{}
		mergeDuplicates(out, &rep)
		dropOrphanTags(out, today, rep.Deep)
	}
	// After the merge: a merged entry is weighed as what it now is.
	reweight(out, today, cfg)
	mergeSameTagPatterns(out, &rep)
	updatePatterns(out, opt, cfg, &rep)
	prune(out, cfg, &rep)
	sortTiers(out)
	tokens := enforceBudgets(out, today, cfg, &rep)

	if opt.CountSession && out.Header.Sessions < math.MaxInt {
		out.Header.Sessions++ // a count at the limit stays there, never wraps
	}
	out.Header.Version = cmp.Or(out.Header.Version, currentVersion)
	out.Header.LastMaintained = today
	// The budget's count is the file's estimate, net of what it archives.
	settle(out, tokens, cfg, &rep)
	out.Header.TokenEst = rep.Tokens.Total
	if opt.Deep {
		judgmentBrief(out, rep.Deep)
	}
	return rep
}

// settle fills in the report's tokens, deep-due flag and the warnings of
// tiers over budget once nothing is left to archive.
func settle(out *File, tokens Tokens, cfg Config, rep *Report) {
	rep.Tokens = tokens
	rep.DeepDue = (out.Header.Sessions > 0 && out.Header.Sessions%cfg.DeepEvery == 0) || tokens.Total > cfg.TotalBudget
	warn := func(over bool, format string, args ...any) {
		if over {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf(format, args...))
		}
	}
	warn(tokens.Tiers[1] > cfg.Budgets[1], "Tier 2 notes alone use ~%d tokens, over its budget of %d", tokens.Tiers[1], cfg.Budgets[1])
	warn(tokens.Tiers[2] > cfg.Budgets[2], "Tier 3 uses ~%d tokens, over its budget of %d, with no EMERGING pattern left to archive", tokens.Tiers[2], cfg.Budgets[2])
	warn(tokens.Tiers[0] > cfg.Budgets[0], "Tier 1 uses ~%d tokens, over its budget of %d; Tier 1 is never pruned automatically: review it in deep maintenance", tokens.Tiers[0], cfg.Budgets[0])
	warn(tokens.Total > cfg.TotalBudget, "the file uses ~%d tokens, over its total budget of %d", tokens.Total, cfg.TotalBudget)
}

// oversizedRunes is the text past which an item is archived whole before
// weighing: one pasted text would otherwise cost more than a tier's
// budget and push out every other entry of the tier first.
const oversizedRunes = 10 * MaxTextRunes

// setAsideOversized archives every item whose text is over oversizedRunes.
func setAsideOversized(f *File, rep *Report) {
	for t := 1; t <= 3; t++ {
		removeBlocks(f, t, func(b Block) bool {
			text := "" // a note's is never set aside
			if b.Entry != nil {
				text = b.Entry.Text
			} else if b.Pattern != nil {
				text = b.Pattern.Text
			}
			n := utf8.RuneCountInString(text)
			if n <= oversizedRunes {
				return false
			}
			reason := fmt.Sprintf("set aside: its text of %d characters is over the %d a kept entry may hold", n, oversizedRunes)
			rep.Removed = append(rep.Removed, Removal{Tier: t, Entry: b.Entry, Pattern: b.Pattern, Reason: reason})
			return true
		})
	}
}

// futureGrace is how far ahead a date may be and be kept (clocks a little
// apart); a later one is dated today, or it would stay the latest work
// until that day.
const futureGrace = 7 * 24 * time.Hour

// fixDates dates today an undated entry (of a file whose header has no
// Last Maintained either: the day it was first kept is the best known)
// and one dated past futureGrace, and brings patterns' dates back too.
func fixDates(f *File, today time.Time, rep *Report) {
	limit := today.Add(futureGrace)
	for _, e := range f.TierEntries() {
		switch {
		case e.Date.IsZero():
			rep.Converted = append(rep.Converted, fmt.Sprintf("entry %s had no date; it is dated %s, the day of this pass", e.ID, today.Format(dateLayout)))
		case e.Date.After(limit):
			rep.Converted = append(rep.Converted, fmt.Sprintf("entry %s was dated %s, after the day of this pass (a clock set ahead?); it is dated %s", e.ID, e.Date.Format(dateLayout), today.Format(dateLayout)))
		default:
			continue
		}
		e.Date = today
	}
	for _, p := range f.Patterns() {
		if p.Last.After(limit) {
			p.Last = today
		}
		if p.First.After(p.Last) {
			p.First = p.Last
		}
	}
}

// reweight recomputes every entry's weight for today.
func reweight(f *File, today time.Time, cfg Config) {
	for t, e := range f.TierEntries() {
		e.Weigh(t, today, cfg)
	}
}

// prune archives Tier 2 entries below the threshold (exactly it stays).
func prune(f *File, cfg Config, rep *Report) {
	removeBlocks(f, 2, func(b Block) bool {
		if b.Entry == nil || b.Entry.Weight >= cfg.Threshold {
			return false
		}
		rep.Removed = append(rep.Removed, Removal{Tier: 2, Entry: b.Entry,
			Reason: fmt.Sprintf("weight %s below threshold %s", b.Entry.Weight, cfg.Threshold)})
		return true
	})
}

// removeBlocks drops the blocks of a tier for which drop is true.
func removeBlocks(f *File, tier int, drop func(Block) bool) {
	s := &f.Tiers[tier-1]
	s.Blocks = slices.DeleteFunc(s.Blocks, drop)
}

// rankedEntry is a Tier 2 entry as the budget weighs it. Not by its
// weight: the floor lifts importance 4 and 5 to 4.0, so a months-old
// routine entry would outlast today's work and the decisions.
type rankedEntry struct {
	e *Entry
	// class: all of a lower class go first. 2 is importance 5; 1
	// importance 4 within lastingShare of the budget; 0 the rest.
	class int
	raw   Weight // importance x freshness, the floor not applied
	pos   int    // where it stood in the file
}

// rankEntry ranks e, recorded days before today, found at pos.
func rankEntry(e *Entry, days, pos int) rankedEntry {
	return rankedEntry{e, min(max(e.Importance-3, 0), 2), Weight(e.Importance * freshness(max(days, 0))), pos}
}

// lastingShare is the share of Tier 2's budget, in percent, importance 4
// and 5 entries keep however much routine work comes in, so a busy day
// does not push out months of decisions, nor old importance 4 work
// crowd out yesterday's.
const lastingShare = 75

// evictionOrder is the order the budget archives Tier 2 in: by class,
// then lower unfloored score, then older, then ID. Freshness never rises
// with age, so an older entry of no higher importance always goes first.
func evictionOrder(a, b rankedEntry) int {
	return cmp.Or(cmp.Compare(a.class, b.class), cmp.Compare(a.raw, b.raw), a.e.Date.Compare(b.e.Date), cmp.Compare(a.e.ID, b.e.ID))
}

// trueLast orders false before true.
func trueLast(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// keptOrder is the reverse, ties in file order: the view shows Tier 2 so,
// leaving out for room what the budget would take first.
func keptOrder(a, b rankedEntry) int {
	return cmp.Or(evictionOrder(b, a), cmp.Compare(a.pos, b.pos))
}

// budgetVictims lists Tier 2's entries in eviction order for a budget of
// budget tokens; successors as likelySuccessors gives them, or nil.
func budgetVictims(f *File, today time.Time, budget int, successors map[string]string) []*Entry {
	victims := f.Entries(2)
	ranked := make([]rankedEntry, len(victims))
	for i, e := range victims {
		ranked[i] = rankEntry(e, DaysBetween(e.Date, today), i)
	}
	keepLasting(ranked, budget, successors)
	slices.SortFunc(ranked, evictionOrder)
	for i, r := range ranked {
		victims[i] = r.e
	}
	return victims
}

// keepLasting moves the importance 4 entries past lastingShare of budget
// into the routine class: possibly superseded first, then lowest scores.
func keepLasting(ranked []rankedEntry, budget int, successors map[string]string) {
	used := 0
	var fours []int
	for i, r := range ranked {
		if r.class > 0 {
			used += blockTokens(Block{Entry: r.e})
		}
		if r.class == 1 {
			fours = append(fours, i)
		}
	}
	slices.SortFunc(fours, func(i, j int) int {
		_, si := successors[ranked[i].e.ID]
		_, sj := successors[ranked[j].e.ID]
		return cmp.Or(trueLast(!si, !sj), evictionOrder(ranked[i], ranked[j]))
	})
	for _, i := range fours {
		if used*100 <= budget*lastingShare {
			return
		}
		ranked[i].class = 0
		used -= blockTokens(Block{Entry: ranked[i].e})
	}
}

// sortTiers orders Tier 2's entries as the protocol does (weight, highest
// first, then newer, then ID, so never as the input happened to be) and
// Tier 3's patterns, strongest first, notes keeping their slots.
func sortTiers(f *File) {
	sortInSlots(f.Tiers[1].Blocks, func(a, b Block) int {
		return cmp.Or(cmp.Compare(b.Entry.Weight, a.Entry.Weight), b.Entry.Date.Compare(a.Entry.Date), cmp.Compare(a.Entry.ID, b.Entry.ID))
	})
	sortInSlots(f.Tiers[2].Blocks, func(a, b Block) int { return patternOrder(a.Pattern, b.Pattern) })
}

// sortInSlots orders a tier's items (one kind: Parse moves the other
// kind out), only between the slots they held, so notes stay put.
func sortInSlots(blocks []Block, order func(a, b Block) int) {
	items := slices.DeleteFunc(slices.Clone(blocks), func(b Block) bool { return b.Note != nil })
	slices.SortFunc(items, order)
	for i := range blocks {
		if blocks[i].Note == nil {
			blocks[i], items = items[0], items[1:]
		}
	}
}

func patternOrder(a, b *Pattern) int {
	return cmp.Or(cmp.Compare(levelRank(a.Level), levelRank(b.Level)), cmp.Compare(b.Observations, a.Observations), b.Last.Compare(a.Last), cmp.Compare(a.ID, b.ID))
}

// enforceBudgets archives Tier 2 entries and weak Tier 3 patterns until
// each tier, then the file, fits its budget, and returns the estimate.
// Tier 1 is only reported; notes are never archived: a person wrote them.
func enforceBudgets(f *File, today time.Time, cfg Config, rep *Report) Tokens {
	ev := &eviction{rep: rep, tokens: Estimate(f), gone: map[Block]bool{}}
	// Entries are ranked only when one may go: the successors cost most.
	if ev.tokens.Tiers[1] > cfg.Budgets[1] || ev.tokens.Total > cfg.TotalBudget {
		ev.successors = likelySuccessors(f)
		for _, e := range budgetVictims(f, today, cfg.Budgets[1], ev.successors) {
			ev.next[0] = append(ev.next[0], Block{Entry: e})
		}
	}
	ev.next[1] = weakPatterns(f)
	for ev.tokens.Tiers[1] > cfg.Budgets[1] && ev.take(2, fmt.Sprintf("Tier 2 over its budget of %d tokens", cfg.Budgets[1])) {
	}
	for ev.tokens.Tiers[2] > cfg.Budgets[2] && ev.take(3, fmt.Sprintf("Tier 3 over its budget of %d tokens", cfg.Budgets[2])) {
	}
	totalReason := fmt.Sprintf("file over its total budget of %d tokens", cfg.TotalBudget)
	for ev.tokens.Total > cfg.TotalBudget && (ev.take(2, totalReason) || ev.take(3, totalReason)) {
	}
	for t := 2; t <= 3 && len(ev.gone) > 0; t++ {
		removeBlocks(f, t, func(b Block) bool { return ev.gone[b] })
	}
	return ev.tokens
}

// eviction is one pass's taking out of entries and patterns for budgets.
type eviction struct {
	rep    *Report
	tokens Tokens
	// next are what Tiers 2 and 3 give up, first to go first.
	next       [2][]Block
	successors map[string]string // likelySuccessors: those make room first, keeping their mark
	gone       map[Block]bool
}

// weakPatterns are f's emerging patterns in the budget's order: tag counts
// before written sentences, then fewest observations, oldest, smaller ID.
func weakPatterns(f *File) []Block {
	var weak []Block
	for _, p := range f.Patterns() {
		if p.Level == Emerging {
			weak = append(weak, Block{Pattern: p})
		}
	}
	slices.SortFunc(weak, func(x, y Block) int {
		a, b := x.Pattern, y.Pattern
		return cmp.Or(trueLast(a.hasSentence(), b.hasSentence()), cmp.Compare(a.Observations, b.Observations), a.Last.Compare(b.Last), cmp.Compare(a.ID, b.ID))
	})
	return weak
}

// take takes out the next item of a tier (2 or 3) for reason, false when
// none is left.
func (ev *eviction) take(tier int, reason string) bool {
	next := &ev.next[tier-2]
	if len(*next) == 0 {
		return false
	}
	b := (*next)[0]
	*next = (*next)[1:]
	cost := blockTokens(b)
	ev.tokens.Tiers[tier-1] -= cost
	ev.tokens.Total -= cost
	ev.gone[b] = true
	if b.Entry != nil {
		if n, ok := ev.successors[b.Entry.ID]; ok {
			// The view's mark goes with it, so recall says so too.
			reason += "; " + strings.TrimPrefix(PossiblySupersededMark, "(") + n
		}
	} else if i := slices.IndexFunc(ev.rep.Patterns, func(c PatternChange) bool { return c.ID == b.Pattern.ID && c.From == "" }); i >= 0 {
		// A pattern this pass created and the budget takes back never
		// existed: archiving it would add the same record at every pass.
		ev.rep.Patterns = slices.Delete(ev.rep.Patterns, i, i+1)
		return true
	}
	ev.rep.Removed = append(ev.rep.Removed, Removal{Tier: tier, Entry: b.Entry, Pattern: b.Pattern, Reason: reason})
	return true
}

// mergeDuplicates folds entries with the same normalised text into one:
// Tier 1's, then the most important, newest, smaller ID absorbs the rest,
// which go to the archive; patterns and answers name the survivor.
func mergeDuplicates(f *File, rep *Report) {
	groups := map[string][]item{}
	var texts []string // in first-seen order
	for t, e := range f.TierEntries() {
		k := normalText(e.Text)
		if groups[k] == nil {
			texts = append(texts, k)
		}
		groups[k] = append(groups[k], item{Block{Entry: e}, t})
	}
	removed := map[*Entry]bool{}
	renamed := map[string]string{}
	for _, k := range texts {
		g := groups[k]
		if len(g) < 2 {
			continue
		}
		slices.SortFunc(g, func(a, b item) int {
			return cmp.Or(cmp.Compare(a.tier, b.tier), cmp.Compare(b.Entry.Importance, a.Entry.Importance),
				b.Entry.Date.Compare(a.Entry.Date), cmp.Compare(a.Entry.ID, b.Entry.ID))
		})
		keep := g[0].Entry
		m := Merge{Kept: keep.ID}
		for _, other := range g[1:] {
			keep.absorb(other.Entry)
			m.Removed = append(m.Removed, other.Entry.ID)
			rep.Removed = append(rep.Removed, Removal{Tier: other.tier, Entry: other.Entry, Reason: reasonMerged + keep.ID})
			removed[other.Entry] = true
			renamed[other.Entry.ID] = keep.ID
		}
		rep.Deep.Merged = append(rep.Deep.Merged, m)
	}
	for t := 1; t <= 2 && len(removed) > 0; t++ {
		removeBlocks(f, t, func(b Block) bool { return b.Entry != nil && removed[b.Entry] })
	}
	renameEntries(f, renamed)
}

// orphanAge is how old an entry must be before it loses an unshared tag:
// the table's last band, time enough for the tag to recur.
const orphanAge = 21

// dropOrphanTags removes tags no other entry or pattern carries from
// entries three weeks old. Lasting entries keep theirs: they name the
// subject a later decision will share (likelySuccessors), and recall
// weighs them double.
func dropOrphanTags(f *File, today time.Time, deep *DeepReport) {
	uses := map[string]int{}
	for _, e := range f.TierEntries() {
		for _, tag := range e.Tags {
			uses[tag]++
		}
	}
	for _, p := range f.Patterns() {
		for _, tag := range p.Tags {
			uses[tag] += 2
		}
	}
	for _, e := range f.TierEntries() {
		if DaysBetween(e.Date, today) < orphanAge || e.Importance >= supersedeMinImportance {
			continue
		}
		e.Tags = slices.DeleteFunc(e.Tags, func(tag string) bool {
			if uses[tag] == 1 {
				deep.DroppedTags = append(deep.DroppedTags, DroppedTag{ID: e.ID, Tag: tag})
				return true
			}
			return false
		})
	}
}

// nearDuplicateLimit bounds the pairwise comparison to the heaviest entries.
const nearDuplicateLimit = 400

// judgmentBrief lists what deep maintenance leaves to the agent: Tier 1
// entries to check, and groups of near-duplicates.
func judgmentBrief(f *File, deep *DeepReport) {
	t1 := f.Entries(1)
	slices.SortFunc(t1, byDateID)
	for _, e := range t1 {
		deep.ReviewTier1 = append(deep.ReviewTier1, e.ID)
	}
	all := append(f.Entries(1), f.Entries(2)...)
	deep.NearDuplicates = nearDuplicates(all[:min(len(all), nearDuplicateLimit)])
}

// nearDuplicates groups the IDs of entries with similar words, in the
// entries' order.
func nearDuplicates(all []*Entry) [][]string {
	words := make([]map[string]bool, len(all))
	for i, e := range all {
		words[i] = wordSet(e.Text)
	}
	group := make([]int, len(all)) // the first entry of each one's group
	for i := range group {
		group[i] = i
	}
	for i := range all {
		for j := i + 1; j < len(all); j++ {
			if gi, gj := group[i], group[j]; gi != gj && similar(words[i], words[j]) {
				for k := range group {
					if group[k] == max(gi, gj) {
						group[k] = min(gi, gj)
					}
				}
			}
		}
	}
	ids := make([][]string, len(all))
	for i, e := range all {
		ids[group[i]] = append(ids[group[i]], e.ID)
	}
	return slices.DeleteFunc(ids, func(g []string) bool { return len(g) < 2 })
}

func wordSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127)
	}) {
		if len(w) >= 3 {
			out[w] = true
		}
	}
	return out
}

// similar says whether two word sets have a Jaccard index of 0.6 or more.
func similar(a, b map[string]bool) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	inter := 0
	for w := range a {
		if b[w] {
			inter++
		}
	}
	return float64(inter)/float64(len(a)+len(b)-inter) >= 0.6
}

// Summary is one line for the user about a pass, added to "BIMRI updated".
func (r Report) Summary() string {
	var parts []string
	if n := len(r.Removed); n > 0 {
		parts = append(parts, fmt.Sprintf("%d archived", n))
	}
	for _, c := range r.Patterns {
		tags := strings.Join(c.Tags, "+")
		// Plain words: the levels' names, lower-case.
		if c.From == "" {
			parts = append(parts, fmt.Sprintf("a new pattern about %s", tags))
		} else {
			parts = append(parts, fmt.Sprintf("the pattern about %s is now %s", tags, strings.ToLower(string(c.To))))
		}
	}
	if len(parts) > 4 {
		parts = append(parts[:4], fmt.Sprintf("%d more changes", len(parts)-4))
	}
	return strings.Join(parts, "; ")
}
