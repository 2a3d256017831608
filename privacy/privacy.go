// Package privacy keeps secrets and private text out of memory files:
// what bimri-hook writes may be committed, shared or fed back to a model,
// so text from prompts, transcripts or the agent goes through [Clean].
// [StripPrivate] honours the user's <private>...</private> markers; redact
// replaces each credential with [redacted] and keeps the name before it.
//
// The rules are data (rules.go): gitleaks' default rules for token formats
// (gitleaks_rules.go, generated), and bimri-hook's own (named.go) for
// secrets only their context shows: the value of a name that says it is a
// secret, a password in a URL, an Authorization header, a key block cut
// short, a secret given in a sentence. They lean towards redacting too
// much, but leave prose, hashes, UUIDs and paths alone. Every function is
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

// Clean returns s with private spans removed and secrets redacted. Private
// spans go first so that text joined by their removal is still checked.
func Clean(s string) string {
	return redact(StripPrivate(DropInvisible(s)))
}

// privateTag is an opening or closing <private> tag in any letter case,
// with spaces inside the brackets and attributes, which people write too.
var privateTag = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)<\s*(/?)\s*private(?:\s[^<>]*)?>`) })

// invisible are characters that show as nothing: zero-width space,
// non-joiner and joiner, word joiner, byte-order mark, soft hyphen and the
// Mongolian vowel separator. One inside a token ("ghp_\u200b...") hides it
// from every rule.
const invisible = "\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e"

// invisibleLeads are the first bytes of the invisible characters' UTF-8.
const invisibleLeads = "\xc2\xe1\xe2\xef"

// hasInvisibleLead says whether s holds a byte an invisible character
// begins with: IndexByte skips most text without decoding its runes, and
// recall cleans every item it may bring back, on every prompt.
func hasInvisibleLead(s string) bool {
	for i := 0; i < len(invisibleLeads); i++ {
		if strings.IndexByte(s, invisibleLeads[i]) >= 0 {
			return true
		}
	}
	return false
}

// DropInvisible removes each run of invisible characters that touches an
// ASCII character, where it can only be hiding something: a token split
// by a zero-width space reads whole again. A run between other characters
// is kept, since emoji sequences (a family, a flag) are joined with U+200D.
// Runs are removed whole, so the result has none left to remove.
func DropInvisible(s string) string {
	if !hasInvisibleLead(s) || !strings.ContainsAny(s, invisible) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	prevASCII := false // the rune before the current run is ASCII
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !strings.ContainsRune(invisible, r) {
			b.WriteString(s[i : i+n])
			prevASCII = r < utf8.RuneSelf
			i += n
			continue
		}
		end := i + n
		for end < len(s) {
			r, n := utf8.DecodeRuneInString(s[end:])
			if !strings.ContainsRune(invisible, r) {
				break
			}
			end += n
		}
		nextASCII := end < len(s) && s[end] < utf8.RuneSelf
		if !prevASCII && !nextASCII {
			b.WriteString(s[i:end])
		}
		i = end
	}
	return b.String()
}

// StripPrivate removes every <private>...</private> span, tags included.
// Tags match in any letter case and spans may cross lines and nest. An
// opening tag that is never closed hides everything after it, because the
// end of the private text is unknown; a closing tag without an opening one
// is dropped.
func StripPrivate(s string) string {
	// Removing a tag can join its neighbours into a new tag
	// ("<priv<private></private>ate>"), so repeat until none is left. Every
	// round removes at least one tag, so this ends.
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
	// anew, so run until nothing changes; the bound guards against a
	// pathological input looping.
	for range 8 {
		next := redactOnce(s)
		if next == s {
			break
		}
		s = next
	}
	return s
}

func redactOnce(s string) string {
	hits := keywordHits(s)
	if len(hits) == 0 {
		return s // most text: no rule's keyword, nothing compiled
	}
	return replaceSpans(s, secrets(s, hits))
}

// replaceSpans puts redacted in place of each span of s. Spans that
// overlap become one, and one that touches a redacted already there takes
// it in, so redacting twice gives what redacting once did.
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
