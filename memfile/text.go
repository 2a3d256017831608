package memfile

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
)

// MaxTextRunes bounds a new entry's text: a longer one would crowd the
// view, so Add refuses it. Text read from a file is never cut.
const MaxTextRunes = 600

var (
	// tagLookalike matches "[KEY:" and "[ KEY :" anywhere, every key the
	// parser would accept and some more: inside a summary it could read
	// back as a field.
	tagLookalike = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\[([\s\p{Z}]*[\p{L}_][\p{L}_ ]*[\s\p{Z}]*:)`)
	})
)

// isSpace is the \s of regular expressions: ASCII white space only.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// collapseSpaces replaces each run of ASCII white space with repl, as a
// \s+ regular expression would.
func collapseSpaces(s, repl string) string {
	if repl == " " && !strings.ContainsAny(s, "\t\n\f\r") && !strings.Contains(s, "  ") {
		return s // nearly every line: nothing to collapse
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if !isSpace(s[i]) {
			b.WriteByte(s[i])
			i++
			continue
		}
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		b.WriteString(repl)
	}
	return b.String()
}

// neutralize makes a summary safe to store: one line, valid UTF-8, nothing
// the parser would take for structure. neutralize is idempotent, which
// the round-trip fuzz test relies on.
func neutralize(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || r == '\uFEFF' {
			return ' '
		}
		return r
	}, s)
	s = strings.TrimSpace(collapseSpaces(s, " "))
	// Comments could end the file early ("<!-- END BIMRI -->") or hide text.
	s = strings.ReplaceAll(s, "<!--", "<!- -")
	s = strings.ReplaceAll(s, "-->", "- ->")
	if strings.IndexByte(s, '[') >= 0 {
		s = tagLookalike().ReplaceAllString(s, "($1")
	}
	// A leading '#' would make a heading.
	if strings.HasPrefix(s, "#") {
		s = `\` + s
	}
	return s
}

// neutralizeBody neutralises each line of a body, dropping empty ones:
// the body keeps its lines and none can become structure.
func neutralizeBody(lines []string) string {
	if len(lines) == 1 {
		return neutralize(lines[0])
	}
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		if n := neutralize(l); n != "" {
			out = append(out, n)
		}
	}
	return strings.Join(out, "\n")
}

// NormalizeTags lower-cases tags, dashes spaces, drops other characters
// than letters, digits, '-', '_' and '.', drops empty, long and repeated
// ones, and sorts them so one set always renders the same.
func NormalizeTags(tags []string) []string {
	var out []string
	for _, t := range tags {
		if t = normalTag(t); t != "" && len(t) <= maxTagBytes {
			if out == nil {
				out = make([]string, 0, len(tags))
			}
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// maxTagBytes is the longest a tag (or a keyword) is kept.
const maxTagBytes = 40

// normalTag is one tag as NormalizeTags writes it, whatever its length.
func normalTag(t string) string {
	t = strings.ToLower(strings.TrimSpace(t))
	t = collapseSpaces(t, "-")
	t = strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || r == '.' {
			return r
		}
		return -1
	}, t)
	return strings.Trim(t, "-_.")
}

// SplitTags splits a comma-separated tag list and normalises it.
func SplitTags(s string) []string {
	return NormalizeTags(strings.Split(s, ","))
}

// normalText is the form texts are compared in: case, spacing and
// trailing punctuation aside.
func normalText(s string) string {
	s = strings.ToLower(collapseSpaces(strings.TrimSpace(s), " "))
	return strings.TrimRight(s, ".!;: ")
}

// EntryID derives an entry's ID from its date and text, so two machines
// recording the same thing on one day agree.
func EntryID(date time.Time, text string) string {
	return hashID("", date.Format(dateLayout)+"\n"+normalText(text))
}

// patternID derives a pattern's ID from its tags.
func patternID(tags []string) string {
	return hashID("p", "pattern\n"+strings.Join(tags, ","))
}

// hashID is the first 8 hex digits of s's SHA-256, prefix in front.
func hashID(prefix, s string) string {
	sum := sha256.Sum256([]byte(s))
	return prefix + hex.EncodeToString(sum[:4])[:8-len(prefix)]
}

// uniqueID returns id, or when it is taken, a derived one that is not,
// deterministically.
func uniqueID(prefix, id string, taken map[string]bool) string {
	for n := 2; taken[id]; n++ {
		id = hashID(prefix, id+"#"+strconv.Itoa(n))
	}
	taken[id] = true
	return id
}

const dateLayout = "2006-01-02"

// dateLayouts are the other ways models write a date (Go matches month
// names in any case).
var dateLayouts = []string{
	"2006-1-2", "2006/1/2", "2006.1.2",
	"Jan 2, 2006", "Jan 2 2006", "January 2, 2006", "January 2 2006",
	"2 Jan 2006", "2 Jan, 2006", "2 January 2006", "2 January, 2006", "2-Jan-2006",
}

// ParseDate reads a calendar date: YYYY-MM-DD or one of dateLayouts,
// perhaps followed by a time of day, which is ignored.
func ParseDate(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if len(s) > 10 && (s[10] == 'T' || s[10] == ' ') {
		s = s[:10]
	}
	if t, err := time.Parse(dateLayout, s); err == nil {
		return t, true
	}
	if s == "" {
		return time.Time{}, false
	}
	// A numeric date with a time: cut at the 'T' or the first space.
	if s[0] >= '0' && s[0] <= '9' {
		if i := strings.IndexAny(s, "T "); i >= 8 && strings.IndexAny(s[:i], "-/.") > 0 {
			s = s[:i]
		}
	}
	s = collapseSpaces(strings.TrimSuffix(s, "."), " ")
	for _, layout := range dateLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

func itoa(n int) string { return strconv.Itoa(n) }
