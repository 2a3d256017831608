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
	// Deep runs deep maintenance: duplicate merging, tag clean-up, a full
	// recount of patterns and the judgment brief.
	Deep bool
	// ArchivedEntries are the archive's entries, for a deep pass's recount:
	// a tag whose entries never met in Tier 2 still becomes a pattern.
	ArchivedEntries []Entry
}

// Removal is one entry, pattern or note taken out of the file, and why.
// The caller appends it to the archive: nothing leaves the file otherwise.
type Removal struct {
	Tier    int
	Entry   *Entry
	Pattern *Pattern
	Note    *Note // an unread line forgotten on request; passes never archive notes
	Reason  string
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
	// Converted says what the pass did to a model-written file besides the
	// rules: entries it dated, patterns for one tag it made one.
	Converted []string
	DeepDue   bool        // Sessions is a multiple of the cadence, or the file is over its total
	Deep      *DeepReport // set when Options.Deep
}

// DeepReport is what deep maintenance did and what it leaves to the
// agent's judgment.
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

// Maintain is the pass: set aside what is oversized, date the undated,
// (deep: merge duplicates, clean tags), reweigh, update and detect
// patterns, prune below the threshold, reorder, enforce the budgets and
// update the header. It never changes f.
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
	dateUndated(out, today, &rep)
	clampFuture(out, today, &rep)
	if opt.Deep {
		rep.Deep = &DeepReport{}
		mergeDuplicates(out, &rep)
		dropOrphanTags(out, today, rep.Deep)
	}
	// After the merge: a merged entry takes the higher importance and the
	// newer date, and must be weighed as what it now is.
	reweight(out, today, cfg)
	mergeSameTagPatterns(out, &rep)
	updatePatterns(out, opt, cfg, &rep)
	prune(out, cfg, &rep)
	sortTier2(out)
	sortTier3(out)
	tokens := enforceBudgets(out, today, cfg, &rep)

	if opt.CountSession && out.Header.Sessions < math.MaxInt {
		out.Header.Sessions++ // a count at the limit stays there, never wraps
	}
	if out.Header.Version == "" {
		out.Header.Version = currentVersion
	}
	out.Header.LastMaintained = today
	// The budget check's count is the file's estimate: it subtracts what
	// it archives, and the header line it changes after is not counted.
	settle(out, tokens, cfg, &rep)
	out.Header.TokenEst = rep.Tokens.Total
	if opt.Deep {
		judgmentBrief(out, rep.Deep)
	}
	return rep
}

// settle fills in what a report says about the file a pass leaves: its
// tokens, whether deep maintenance is due, and the budget warnings.
func settle(out *File, tokens Tokens, cfg Config, rep *Report) {
	rep.Tokens = tokens
	rep.DeepDue = (out.Header.Sessions > 0 && out.Header.Sessions%cfg.DeepEvery == 0) || rep.Tokens.Total > cfg.TotalBudget
	if rep.Tokens.Tiers[0] > cfg.Budgets[0] {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("Tier 1 uses ~%d tokens, over its budget of %d; Tier 1 is never pruned automatically: review it in deep maintenance", rep.Tokens.Tiers[0], cfg.Budgets[0]))
	}
	if rep.Tokens.Total > cfg.TotalBudget {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("the file uses ~%d tokens, over its total budget of %d", rep.Tokens.Total, cfg.TotalBudget))
	}
}

// overBudgetWarnings are what the budget check could not fix: a tier
// still over its budget once nothing it may archive is left.
func overBudgetWarnings(tokens Tokens, cfg Config, rep *Report) {
	if tokens.Tiers[1] > cfg.Budgets[1] {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("Tier 2 notes alone use ~%d tokens, over its budget of %d", tokens.Tiers[1], cfg.Budgets[1]))
	}
	if tokens.Tiers[2] > cfg.Budgets[2] {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("Tier 3 uses ~%d tokens, over its budget of %d, with no EMERGING pattern left to archive", tokens.Tiers[2], cfg.Budgets[2]))
	}
}

// oversizedRunes is the text past which an entry or a pattern the file
// holds is set aside, whole, in the archive before the pass weighs
// anything: one such text, pasted by hand, would otherwise cost more than
// a tier's budget, and the budget would archive every other entry of the
// tier to make room before reaching it.
const oversizedRunes = 10 * MaxTextRunes

// setAsideOversized archives every entry and pattern whose text is over
// oversizedRunes, with a reason that says so.
func setAsideOversized(f *File, rep *Report) {
	for t := 1; t <= 3; t++ {
		removeBlocks(f, t, func(b Block) bool {
			text := ""
			switch {
			case b.Entry != nil:
				text = b.Entry.Text
			case b.Pattern != nil:
				text = b.Pattern.Text
			default:
				return false
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

// dateUndated gives an entry read without a date, in a file whose header
// had no Last Maintained date either, the day of the pass: the day it was
// first kept is the best the file knows.
func dateUndated(f *File, today time.Time, rep *Report) {
	for _, e := range f.tierEntries() {
		if e.Date.IsZero() {
			e.Date = today
			rep.Converted = append(rep.Converted, fmt.Sprintf("entry %s had no date; it is dated %s, the day of this pass", e.ID, today.Format(dateLayout)))
		}
	}
}

// futureGrace is how far ahead of the pass a date may be and be kept:
// clocks a little apart (time zones, two machines sharing bimri.md
// through git, sessions ending around midnight) date entries a day or
// two ahead, and re-dating those would change honest dates. An entry
// within it counts as recorded today (its age is never negative).
const futureGrace = 7 * 24 * time.Hour

// clampFuture dates today every entry dated more than futureGrace after
// today, and says so: a clock set ahead (a VM, a laptop's battery) dated
// it, and left so it would stay in the view's latest work, fresh, until
// that day came.
func clampFuture(f *File, today time.Time, rep *Report) {
	limit := today.Add(futureGrace)
	for t := 1; t <= 2; t++ {
		for _, b := range f.Tiers[t-1].Blocks {
			if e := b.Entry; e != nil && e.Date.After(limit) {
				rep.Converted = append(rep.Converted, fmt.Sprintf("entry %s was dated %s, after the day of this pass (a clock set ahead?); it is dated %s", e.ID, e.Date.Format(dateLayout), today.Format(dateLayout)))
				e.Date = today
			}
		}
	}
	for _, b := range f.Tiers[2].Blocks {
		if p := b.Pattern; p != nil {
			if p.Last.After(limit) {
				p.Last = today
			}
			if p.First.After(p.Last) {
				p.First = p.Last
			}
		}
	}
}

// reweight recomputes every entry's weight for today.
func reweight(f *File, today time.Time, cfg Config) {
	for t, e := range f.tierEntries() {
		e.Weigh(t, today, cfg)
	}
}

// prune archives Tier 2 entries below the threshold; exactly the threshold
// stays.
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

// tier2Order is the protocol's order: weight, highest first; ties newer
// first, then by ID so the order never depends on the input's.
func tier2Order(a, b *Entry) int {
	return cmp.Or(cmp.Compare(b.Weight, a.Weight), b.Date.Compare(a.Date), cmp.Compare(a.ID, b.ID))
}

// budgetRank is what the budget weighs when it must take entries out of
// Tier 2. It is not the weight: the floor lifts every importance 4 and 5
// entry to the same 4.0, so by weight a months-old routine entry would
// outlast both today's work and the most important decisions.
type budgetRank struct {
	// class: the budget takes every entry of a lower class before one of
	// a higher. 2 is importance 5; 1 importance 4 within lastingShare of
	// the budget (budgetVictims); 0 the rest.
	class int
	raw   Weight // importance x freshness, the floor not applied
}

func rankForBudget(e *Entry, today time.Time) budgetRank {
	return rankForDays(e, DaysBetween(e.Date, today))
}

// rankForDays is rankForBudget for an entry recorded days before today.
func rankForDays(e *Entry, days int) budgetRank {
	class := 0
	switch {
	case e.Importance >= 5:
		class = 2
	case e.Importance == 4:
		class = 1
	}
	return budgetRank{class: class, raw: Weight(e.Importance * freshness(max(days, 0)))}
}

// lastingShare is the share of Tier 2's budget, in percent, that
// importance 4 and 5 entries keep however much newer work of importance
// 1-3 comes in: a busy day of forty long entries does not push out months
// of lasting decisions. Past that share, the importance 4 entries that
// score least go with the routine work, in its order, so old importance-4
// work cannot crowd out yesterday's either.
const lastingShare = 75

// evictionOrder is the order the budget archives Tier 2 entries in: by
// class (importance 5 last, then the importance 4 entries within
// lastingShare); then the lower unfloored score (importance x freshness)
// first; ties the older first, then by ID. Since freshness is 1.0 on the
// day an entry is recorded and never rises with age, an older entry of
// the same or lower importance always scores at most as much and goes
// first.
func evictionOrder(ra, rb budgetRank, a, b *Entry) int {
	return cmp.Or(cmp.Compare(ra.class, rb.class), cmp.Compare(ra.raw, rb.raw), a.Date.Compare(b.Date), cmp.Compare(a.ID, b.ID))
}

// keptOrder orders ranked entries the reverse way: what the budget would
// keep longest comes first, ties in file order. The context view shows
// Tier 2 in this order, so what it leaves out for room is what the
// budget would take first.
func keptOrder(a, b rankedEntry) int {
	return cmp.Or(evictionOrder(b.rank, a.rank, b.e, a.e), cmp.Compare(a.pos, b.pos))
}

// budgetVictims lists Tier 2's entries in eviction order, for a Tier 2
// budget of budget tokens; successors are the entries a newer one looks
// like it supersedes (likelySuccessors), nil for none.
func budgetVictims(f *File, today time.Time, budget int, successors map[string]string) []*Entry {
	victims := f.Entries(2)
	ranked := rankAll(victims, today)
	keepLasting(ranked, budget, successors)
	slices.SortFunc(ranked, func(a, b rankedEntry) int { return evictionOrder(a.rank, b.rank, a.e, b.e) })
	for i, r := range ranked {
		victims[i] = r.e
	}
	return victims
}

// keepLasting moves the importance 4 entries past lastingShare of budget
// (by tokens, importance 5 counted first) into the routine work's class:
// first those a newer entry looks like it supersedes (successors), then
// those that score least.
func keepLasting(ranked []rankedEntry, budget int, successors map[string]string) {
	used := 0
	var fours []int
	for i, r := range ranked {
		if r.rank.class > 0 {
			used += blockTokens(Block{Entry: r.e})
		}
		if r.rank.class == 1 {
			fours = append(fours, i)
		}
	}
	slices.SortFunc(fours, func(i, j int) int {
		_, si := successors[ranked[i].e.ID]
		_, sj := successors[ranked[j].e.ID]
		if si != sj {
			if si {
				return -1
			}
			return 1
		}
		return evictionOrder(ranked[i].rank, ranked[j].rank, ranked[i].e, ranked[j].e)
	})
	for _, i := range fours {
		if used*100 <= budget*lastingShare {
			return
		}
		ranked[i].rank.class = 0
		used -= blockTokens(Block{Entry: ranked[i].e})
	}
}

// rankedEntry is an entry with its rank and where it stood.
type rankedEntry struct {
	rank budgetRank
	e    *Entry
	pos  int // where it stood before the sort
}

func rankAll(entries []*Entry, today time.Time) []rankedEntry {
	out := make([]rankedEntry, len(entries))
	for i, e := range entries {
		out[i] = rankedEntry{rankForBudget(e, today), e, i}
	}
	return out
}

// sortTier2 orders the entries of Tier 2. Notes keep their slots: only the
// entries move between the places entries held.
func sortTier2(f *File) {
	sortInSlots(f.Tiers[1].Blocks, func(b *Block) **Entry { return &b.Entry }, tier2Order)
}

// sortInSlots orders the items that field picks out of blocks, moving them
// only between the slots such items held, so every other block stays
// where it stood.
func sortInSlots[T any](blocks []Block, field func(*Block) **T, order func(a, b *T) int) {
	var items []*T
	for i := range blocks {
		if p := field(&blocks[i]); *p != nil {
			items = append(items, *p)
		}
	}
	slices.SortFunc(items, order)
	for i := range blocks {
		if p := field(&blocks[i]); *p != nil {
			*p, items = items[0], items[1:]
		}
	}
}

func patternOrder(a, b *Pattern) int {
	return cmp.Or(cmp.Compare(levelRank(a.Level), levelRank(b.Level)), cmp.Compare(b.Observations, a.Observations), b.Last.Compare(a.Last), cmp.Compare(a.ID, b.ID))
}

// sortTier3 orders patterns strongest first, notes keeping their slots.
func sortTier3(f *File) {
	sortInSlots(f.Tiers[2].Blocks, func(b *Block) **Pattern { return &b.Pattern }, patternOrder)
}

// enforceBudgets archives Tier 2 entries and weak Tier 3 patterns until
// each tier, and then the whole file, fits its budget, and returns the
// file's estimate after. Tier 1 is only reported. Notes are never
// archived: a person wrote them.
func enforceBudgets(f *File, today time.Time, cfg Config, rep *Report) Tokens {
	ev := &eviction{f: f, today: today, budget: cfg.Budgets[1], rep: rep, tokens: Estimate(f), weak: weakPatterns(f),
		gone: map[*Entry]bool{}, gonePat: map[*Pattern]bool{}}
	for ev.tokens.Tiers[1] > cfg.Budgets[1] && ev.entry(fmt.Sprintf("Tier 2 over its budget of %d tokens", cfg.Budgets[1])) {
	}
	for ev.tokens.Tiers[2] > cfg.Budgets[2] && ev.pattern(fmt.Sprintf("Tier 3 over its budget of %d tokens", cfg.Budgets[2])) {
	}
	totalReason := fmt.Sprintf("file over its total budget of %d tokens", cfg.TotalBudget)
	for ev.tokens.Total > cfg.TotalBudget && (ev.entry(totalReason) || ev.pattern(totalReason)) {
	}
	overBudgetWarnings(ev.tokens, cfg, rep)
	if len(ev.gone) > 0 {
		removeBlocks(f, 2, func(b Block) bool { return b.Entry != nil && ev.gone[b.Entry] })
	}
	if len(ev.gonePat) > 0 {
		removeBlocks(f, 3, func(b Block) bool { return b.Pattern != nil && ev.gonePat[b.Pattern] })
	}
	return ev.tokens
}

// eviction is one pass's taking out of entries and patterns for the
// budgets: what is left of each tier's tokens, what is next to go, and
// what went.
type eviction struct {
	f      *File
	today  time.Time
	budget int // Tier 2's, in tokens
	rep    *Report
	tokens Tokens
	// victims are Tier 2's entries, first to go first, ranked only when
	// one is needed.
	victims []*Entry
	ranked  bool
	// successors are the entries a newer one looks like it supersedes,
	// worked out with the victims: they make room first, and the
	// archive's reason keeps the view's mark.
	successors map[string]string
	weak       []*Pattern // emerging patterns, first to go first
	gone       map[*Entry]bool
	gonePat    map[*Pattern]bool
}

// weakPatterns are f's emerging patterns in the order the budget takes
// them: a tag count before a sentence someone wrote, then the fewest
// observations, the oldest, the smaller ID.
func weakPatterns(f *File) []*Pattern {
	var weak []*Pattern
	for _, p := range f.Patterns() {
		if p.Level == Emerging {
			weak = append(weak, p)
		}
	}
	slices.SortFunc(weak, func(a, b *Pattern) int {
		if a.hasSentence() != b.hasSentence() {
			if a.hasSentence() {
				return 1
			}
			return -1
		}
		return cmp.Or(cmp.Compare(a.Observations, b.Observations), a.Last.Compare(b.Last), cmp.Compare(a.ID, b.ID))
	})
	return weak
}

// entry takes out the next Tier 2 entry for reason; false when none is
// left.
func (ev *eviction) entry(reason string) bool {
	if !ev.ranked {
		ev.successors = likelySuccessors(ev.f)
		ev.victims, ev.ranked = budgetVictims(ev.f, ev.today, ev.budget, ev.successors), true
	}
	if len(ev.victims) == 0 {
		return false
	}
	e := ev.victims[0]
	ev.victims = ev.victims[1:]
	cost := blockTokens(Block{Entry: e})
	ev.tokens.Tiers[1] -= cost
	ev.tokens.Total -= cost
	ev.gone[e] = true
	if n, ok := ev.successors[e.ID]; ok {
		// The view's mark goes with it, so recall says so too.
		reason += "; " + strings.TrimPrefix(PossiblySupersededMark, "(") + n
	}
	ev.rep.Removed = append(ev.rep.Removed, Removal{Tier: 2, Entry: e, Reason: reason})
	return true
}

// pattern takes out the next weak pattern for reason; false when none is
// left.
func (ev *eviction) pattern(reason string) bool {
	if len(ev.weak) == 0 {
		return false
	}
	p := ev.weak[0]
	ev.weak = ev.weak[1:]
	cost := blockTokens(Block{Pattern: p})
	ev.tokens.Tiers[2] -= cost
	ev.tokens.Total -= cost
	ev.gonePat[p] = true
	// A pattern this pass created and the budget takes back never existed
	// in the file: archiving it would add the same record at every pass,
	// since the next pass would create it again.
	if i := slices.IndexFunc(ev.rep.Patterns, func(c PatternChange) bool { return c.ID == p.ID && c.From == "" }); i >= 0 {
		ev.rep.Patterns = slices.Delete(ev.rep.Patterns, i, i+1)
		return true
	}
	ev.rep.Removed = append(ev.rep.Removed, Removal{Tier: 3, Pattern: p, Reason: reason})
	return true
}
