package memfile

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
)

// mergeDuplicates folds entries with the same normalised text into one:
// Tier 1's, then the most important, newest, smaller ID absorbs the rest,
// which go to the archive; patterns and answers name the survivor.
func mergeDuplicates(f *File, rep *Report) {
	groups := map[string][]placedEntry{}
	var texts []string // in first-seen order
	for t, e := range f.tierEntries() {
		k := normalText(e.Text)
		if groups[k] == nil {
			texts = append(texts, k)
		}
		groups[k] = append(groups[k], placedEntry{e, t})
	}
	removed := map[*Entry]bool{}
	renamed := map[string]string{}
	for _, k := range texts {
		g := groups[k]
		if len(g) < 2 {
			continue
		}
		slices.SortFunc(g, func(a, b placedEntry) int {
			return cmp.Or(cmp.Compare(a.tier, b.tier), cmp.Compare(b.e.Importance, a.e.Importance),
				b.e.Date.Compare(a.e.Date), cmp.Compare(a.e.ID, b.e.ID))
		})
		keep := g[0].e
		m := Merge{Kept: keep.ID}
		for _, other := range g[1:] {
			keep.absorb(other.e)
			m.Removed = append(m.Removed, other.e.ID)
			rep.Removed = append(rep.Removed, Removal{Tier: other.tier, Entry: other.e, Reason: reasonMerged + keep.ID})
			removed[other.e] = true
			renamed[other.e.ID] = keep.ID
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
	for _, e := range f.tierEntries() {
		for _, tag := range e.Tags {
			uses[tag]++
		}
	}
	for _, p := range f.Patterns() {
		for _, tag := range p.Tags {
			uses[tag] += 2
		}
	}
	for _, e := range f.tierEntries() {
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
	if len(all) > nearDuplicateLimit {
		all = all[:nearDuplicateLimit]
	}
	deep.NearDuplicates = nearDuplicates(all)
}

// nearDuplicates groups the IDs of entries with similar words, in the
// entries' order.
func nearDuplicates(all []*Entry) [][]string {
	words := make([]map[string]bool, len(all))
	for i, e := range all {
		words[i] = wordSet(e.Text)
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
	var out [][]string
	for _, r := range roots {
		if len(groups[r]) > 1 {
			out = append(out, groups[r])
		}
	}
	return out
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
