// Package privacy keeps secrets and private text out of memory files,
// which may be committed, shared or fed back to a model: [Clean] drops
// <private>...</private> spans and replaces each credential with
// [redacted], keeping the name before it. The rules are data: gitleaks'
// default rules (gitleaks_rules.tsv, generated) and our own for secrets
// only their context shows (own_rules.tsv). They lean towards redacting too
// much but leave prose, hashes, UUIDs and paths alone. Every function is
// safe on any input, invalid UTF-8 included, and idempotent.
package privacy

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

const redacted = "[redacted]"

// Clean returns s with private spans removed, then secrets redacted, so
// that text joined by a span's removal is still checked.
func Clean(s string) string {
	return redact(StripPrivate(DropInvisible(s)))
}

// privateTag is an opening or closing <private> tag in any letter case,
// with spaces inside the brackets and attributes, which people write too.
var privateTag = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)<\s*(/?)\s*private(?:\s[^<>]*)?>`) })

// invisible are characters that show as nothing; one inside a token
// ("ghp_\u200b...") hides it from every rule.
const invisible = "\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e"

// invisibleLeads are the first bytes of the invisible characters' UTF-8.
const invisibleLeads = "\xc2\xe1\xe2\xef"

// hasInvisibleLead says whether s holds a byte an invisible character
// begins with: IndexByte skips text without decoding it, and recall cleans
// every item it may bring back, on every prompt.
func hasInvisibleLead(s string) bool {
	for i := 0; i < len(invisibleLeads); i++ {
		if strings.IndexByte(s, invisibleLeads[i]) >= 0 {
			return true
		}
	}
	return false
}

// DropInvisible removes each run of invisible characters that touches an
// ASCII character, where it can only hide something. A run between other
// characters is kept: emoji sequences are joined with U+200D.
func DropInvisible(s string) string {
	if !hasInvisibleLead(s) || !strings.ContainsAny(s, invisible) {
		return s
	}
	var b strings.Builder
	done := 0
	for _, run := range invisibleRun().FindAllStringIndex(s, -1) {
		before, _ := utf8.DecodeLastRuneInString(s[:run[0]]) // RuneError at the start: not ASCII
		after, _ := utf8.DecodeRuneInString(s[run[1]:])
		if before < utf8.RuneSelf || after < utf8.RuneSelf {
			b.WriteString(s[done:run[0]])
			done = run[1]
		}
	}
	return b.String() + s[done:]
}

var invisibleRun = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("[" + invisible + "]+") })

// StripPrivate removes every <private>...</private> span, tags included,
// in any letter case, across lines and nested. An opening tag never closed
// hides everything after it; a closing tag without one is dropped.
func StripPrivate(s string) string {
	// Removing a tag can join its neighbours into a new one
	// ("<priv<private></private>ate>"): repeat until none is left.
	for {
		// Text without a '<' (most) never compiles the regexp.
		if strings.IndexByte(s, '<') < 0 {
			return s
		}
		locs := privateTag().FindAllStringSubmatchIndex(s, -1)
		if locs == nil {
			return s
		}
		s = stripTags(s, locs)
	}
}

func stripTags(s string, locs [][]int) string {
	var b strings.Builder
	b.Grow(len(s))
	depth, prev := 0, 0
	for _, loc := range locs {
		closing := loc[3] > loc[2]
		if depth == 0 {
			b.WriteString(s[prev:loc[0]])
		}
		switch {
		case !closing:
			depth++
		case depth > 0:
			depth--
		}
		prev = loc[1]
	}
	if depth == 0 {
		b.WriteString(s[prev:])
	}
	return b.String()
}

func redact(s string) string {
	// Redacting one secret can let another rule see the text around it
	// anew: run until nothing changes, within a bound.
	for range 8 {
		hits := keywordHits(s)
		if len(hits) == 0 {
			break // most text: no rule's keyword, nothing compiled
		}
		next := replaceSpans(s, secrets(s, hits))
		if next == s {
			break
		}
		s = next
	}
	return s
}

// replaceSpans puts redacted in place of each span of s, overlapping
// spans and a redacted already there taken in as one, so redacting twice
// gives what redacting once did.
func replaceSpans(s string, spans []span) string {
	if len(spans) == 0 {
		return s
	}
	slices.SortFunc(spans, func(a, b span) int { return a.start - b.start })
	var b strings.Builder
	b.Grow(len(s))
	done := 0
	for i := 0; i < len(spans); {
		cur := spans[i]
		for i++; i < len(spans) && spans[i].start <= cur.end; i++ {
			cur.end = max(cur.end, spans[i].end)
		}
		cur = widenToMarkers(s, cur)
		if cur.start < done { // taken in by the previous span's marker
			cur.start = done
		}
		if cur.end <= cur.start || s[cur.start:cur.end] == redacted {
			continue
		}
		b.WriteString(s[done:cur.start])
		b.WriteString(redacted)
		done = cur.end
	}
	if done == 0 && b.Len() == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// widenToMarkers grows sp to take in every redacted it overlaps.
func widenToMarkers(s string, sp span) span {
	from := max(0, sp.start-len(redacted)+1)
	to := min(len(s), sp.end+len(redacted)-1)
	for i := from; i < to; {
		j := strings.Index(s[i:to], redacted)
		if j < 0 {
			break
		}
		m := span{i + j, i + j + len(redacted)}
		if m.start < sp.end && m.end > sp.start {
			sp.start, sp.end = min(sp.start, m.start), max(sp.end, m.end)
		}
		i = m.end
	}
	return sp
}
