package memfile

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
)

// mergeDuplicates folds entries with the same normalised text into one:
// the higher importance, the newer date, the union of tags. A Tier 1 copy
// wins over a Tier 2 one. The others go to the archive, and patterns that
// named them name the survivor instead.
func mergeDuplicates(f *File, rep *Report) {
	removed := map[*Entry]bool{}
	renamed := map[string]string{}
	for _, g := range duplicateGroups(f) {
		m := mergeGroup(g, rep)
		for _, other := range g[1:] {
			removed[other.e] = true
			renamed[other.e.ID] = m.Kept
		}
		rep.Deep.Merged = append(rep.Deep.Merged, m)
	}
	if len(removed) == 0 {
		return
	}
	for t := 1; t <= 2; t++ {
		removeBlocks(f, t, func(b Block) bool { return b.Entry != nil && removed[b.Entry] })
	}
	renameHolds(f, renamed)
	for _, p := range f.Patterns() {
		for i, id := range p.Evidence {
			if to, ok := renamed[id]; ok {
				p.Evidence[i] = to
			}
		}
		p.Evidence = slices.Compact(p.Evidence) // adjacent repeats only; mergeEvidence below removes the rest
		p.Evidence = mergeEvidence(nil, p.Evidence)
	}
}

// located is an entry and its tier.
type located struct {
	e    *Entry
	tier int
}

// duplicateGroups are the entries of Tiers 1 and 2 that share a normal
// text, two or more to a group, each group with the one to keep first:
// Tier 1's, then the most important, the newest, the smaller ID.
func duplicateGroups(f *File) [][]located {
	// Each entry's text is numbered by its normal form, in first-seen
	// order, and only the numbers met twice get a list: at 10,000
	// entries, nearly all of them unique, a list for each was 10,000
	// allocations, and the map grew by rehashing.
	var all []located
	for t := 1; t <= 2; t++ {
		for _, e := range f.Entries(t) {
			all = append(all, located{e, t})
		}
	}
	number := make(map[string]int, len(all))
	of := make([]int, len(all)) // each entry's number
	var count []int             // how many entries have each number
	for i, l := range all {
		k := normalText(l.e.Text)
		n, ok := number[k]
		if !ok {
			n = len(count)
			number[k] = n
			count = append(count, 0)
		}
		of[i] = n
		count[n]++
	}
	groups := map[int][]located{}
	for i, l := range all {
		if count[of[i]] > 1 {
			groups[of[i]] = append(groups[of[i]], l)
		}
	}
	var out [][]located
	for n := range count {
		g := groups[n]
		if len(g) < 2 {
			continue
		}
		slices.SortFunc(g, func(a, b located) int {
			if c := cmp.Compare(a.tier, b.tier); c != 0 {
				return c
			}
			if c := cmp.Compare(b.e.Importance, a.e.Importance); c != 0 {
				return c
			}
			if c := b.e.Date.Compare(a.e.Date); c != 0 {
				return c
			}
			return cmp.Compare(a.e.ID, b.e.ID)
		})
		out = append(out, g)
	}
	return out
}

// mergeGroup folds the rest of g into its first: the higher importance,
// the newer date, the union of tags, keywords and both-hold answers; the
// rest are reported as removed, merged into the first.
func mergeGroup(g []located, rep *Report) Merge {
	keep := g[0].e
	m := Merge{Kept: keep.ID}
	for _, other := range g[1:] {
		keep.Importance = max(keep.Importance, other.e.Importance)
		if other.e.Date.After(keep.Date) {
			keep.Date = other.e.Date
		}
		keep.Tags = NormalizeTags(append(keep.Tags, other.e.Tags...))
		keep.Keywords = NormalizeTags(append(keep.Keywords, other.e.Keywords...))
		keep.HoldsWith = normalIDs(append(keep.HoldsWith, other.e.HoldsWith...))
		keep.Agent = cmp.Or(keep.Agent, other.e.Agent)
		m.Removed = append(m.Removed, other.e.ID)
		rep.Removed = append(rep.Removed, Removal{Tier: other.tier, Entry: other.e, Reason: reasonMerged + keep.ID})
	}
	return m
}

// orphanAge is how old an entry must be before the clean-up may take a
// tag that nothing else shares: three weeks is the table's last band, time
// enough for the tag to have recurred.
const orphanAge = 21

// dropOrphanTags removes tags that link an entry to nothing: no other entry
// and no pattern carries them, and the entry has had three weeks to find a
// match. A lasting entry (importance 4 or 5) keeps its tags: they name
// its subject, which the decision that one day overrides it will share
// (likelySuccessors needs a shared tag), and recall weighs them double;
// a decision can wait months for that.
func dropOrphanTags(f *File, today time.Time, deep *DeepReport) {
	uses := map[string]int{}
	for t := 1; t <= 2; t++ {
		for _, e := range f.Entries(t) {
			for _, tag := range e.Tags {
				uses[tag]++
			}
		}
	}
	for _, p := range f.Patterns() {
		for _, tag := range p.Tags {
			uses[tag] += 2
		}
	}
	for t := 1; t <= 2; t++ {
		for _, e := range f.Entries(t) {
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
}

// nearDuplicateLimit bounds the pairwise comparison: the heaviest entries
// are the ones worth a person's attention, and the cost stays small.
const nearDuplicateLimit = 400

// judgmentBrief lists what deep maintenance leaves to the agent: Tier 1
// entries to check, and groups of entries that say nearly the same thing.
func judgmentBrief(f *File, deep *DeepReport) {
	t1 := f.Entries(1)
	slices.SortFunc(t1, func(a, b *Entry) int {
		if c := a.Date.Compare(b.Date); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	for _, e := range t1 {
		deep.ReviewTier1 = append(deep.ReviewTier1, e.ID)
	}

	all := append(f.Entries(1), f.Entries(2)...)
	if len(all) > nearDuplicateLimit {
		all = all[:nearDuplicateLimit]
	}
	// Each entry's words as sorted numbers: the pairs below (80,000 of
	// them at the limit) then compare by merging two short lists instead
	// of looking every word of one up in the other's map.
	ids := map[string]uint32{}
	words := make([][]uint32, len(all))
	for i, e := range all {
		set := wordSet(e.Text)
		w := make([]uint32, 0, len(set))
		for word := range set {
			id, ok := ids[word]
			if !ok {
				id = uint32(len(ids))
				ids[word] = id
			}
			w = append(w, id)
		}
		slices.Sort(w)
		words[i] = w
	}
	parent := make([]int, len(all))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for i := range all {
		for j := i + 1; j < len(all); j++ {
			// The overlap is at most the smaller set and the union at least
			// the larger, so sizes further apart than 0.6 cannot reach it
			// (float division is monotonic: the skip is exact).
			small, large := min(len(words[i]), len(words[j])), max(len(words[i]), len(words[j]))
			if small == 0 || float64(small)/float64(large) < 0.6 {
				continue
			}
			if similar(words[i], words[j]) {
				parent[find(j)] = find(i)
			}
		}
	}
	groups := map[int][]string{}
	var roots []int
	for i, e := range all {
		r := find(i)
		if len(groups[r]) == 0 {
			roots = append(roots, r)
		}
		groups[r] = append(groups[r], e.ID)
	}
	for _, r := range roots {
		if len(groups[r]) > 1 {
			deep.NearDuplicates = append(deep.NearDuplicates, groups[r])
		}
	}
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

// similar is jaccard(a, b) >= 0.6 (the Jaccard index of two sorted sets
// without repeats, |a ∩ b| / |a ∪ b|, as a float64 division), which it stops merging as soon as
// the overlap can no longer reach the least that makes it true: most of
// the 80,000 pairs share a word or two, and the merge was most of the
// judgment brief (TestSimilarIsJaccard).
func similar(a, b []uint32) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	need := leastOverlap(len(a) + len(b))
	inter := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		if inter+min(len(a)-i, len(b)-j) < need {
			return false
		}
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			inter++
			i++
			j++
		}
	}
	return inter >= need
}

// leastOverlap is the least overlap k of two sets of total sizes for
// which jaccard's k / (total - k) is at least 0.6, computed as jaccard
// computes it: the quotient grows with k, so it is true from there on.
func leastOverlap(total int) int {
	k := int(0.375 * float64(total)) // 0.6 of the union is 0.375 of the total
	for k > 0 && float64(k-1)/float64(total-k+1) >= 0.6 {
		k--
	}
	for k < total && float64(k)/float64(total-k) < 0.6 {
		k++
	}
	return k
}

// Summary is one line for the user about a pass: what was archived and
// which patterns changed. The hook adds it to "BIMRI updated".
func (r Report) Summary() string {
	var parts []string
	if n := len(r.Removed); n > 0 {
		parts = append(parts, fmt.Sprintf("%d archived", n))
	}
	for _, c := range r.Patterns {
		tags := strings.Join(c.Tags, "+")
		// Plain words for the user: the levels' names, lower-case, and
		// what they mean live in the file's own legend.
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
