package memfile

import "time"

// slowEntryLines turns the canonicalReader off, for the tests that
// compare a parse with and without it.
var slowEntryLines = false

// canonicalReader reads tag lines written exactly as Render writes one
// (appendEntryLine), with a date: nearly every line of a file a pass
// wrote. Parse reads such a line here in one pass over its bytes, not
// through readItemStart and entryFromFields, which split it into fields,
// look each one up and check every rule a line written by hand or by a
// model may break: at 10,000 entries that was most of a parse. It takes
// only what the slow path reads the same way without a word of
// conversion (TestCanonicalEntryLineIsTheSlowPath); anything else, it
// refuses, and the slow path reads the line.
type canonicalReader struct {
	// The last date read and its value: a pass orders Tier 2 by weight,
	// which follows the date, so entries of one day come together.
	date string
	day  time.Time
	// tags is where tag lists are cut from, a block for many entries
	// instead of an allocation each.
	tags []string
}

// entryLine reads a canonical tag line: the entry, with everything but
// its text, and whether the line was one.
func (r *canonicalReader) entryLine(t string) (Entry, bool) {
	// Each fixed part is compared with a literal where it stands, not
	// through strings.CutPrefix: the compiler turns a comparison with a
	// literal into a word or two, and calls memequal for CutPrefix's.
	var e Entry
	const importance, timestamp, tagsKey, keywordsKey, weight, id = "[IMPORTANCE:", "] [TIMESTAMP:", "] [TAGS:", " [KEYWORDS:", " [WEIGHT:", " [ID:"
	if len(t) < len(importance)+2 || t[:len(importance)] != "[IMPORTANCE:" {
		return e, false
	}
	rest := t[len(importance):]
	if rest[0] < '1' || rest[0] > '5' {
		return e, false
	}
	e.Importance = int(rest[0] - '0')
	rest = rest[1:]
	if len(rest) < len(timestamp)+len(dateLayout) || rest[:len(timestamp)] != "] [TIMESTAMP:" {
		return e, false
	}
	rest = rest[len(timestamp):]
	var ok bool
	if e.Date, ok = r.readDate(rest[:len(dateLayout)]); !ok {
		return e, false
	}
	rest = rest[len(dateLayout):]
	if len(rest) < len(tagsKey) || rest[:len(tagsKey)] != "] [TAGS:" {
		return e, false
	}
	rest = rest[len(tagsKey):]
	// Tags of the characters a normal tag has, and commas: no '#', space
	// or bracket, which the slow path reads in other ways.
	n := 0
	for n < len(rest) && tagListByte(rest[n]) {
		n++
	}
	if n == len(rest) || rest[n] != ']' {
		return e, false
	}
	tags := rest[:n]
	rest = rest[n+1:]
	var keywords string
	if len(rest) >= len(keywordsKey) && rest[:len(keywordsKey)] == " [KEYWORDS:" {
		r := rest[len(keywordsKey):]
		n := 0
		for n < len(r) && tagListByte(r[n]) {
			n++
		}
		if n == 0 || n == len(r) || r[n] != ']' {
			return e, false
		}
		keywords = r[:n]
		rest = r[n+1:]
	}
	if len(rest) >= len(weight) && rest[:len(weight)] == " [WEIGHT:" {
		r := rest[len(weight):]
		w, n, ok := canonicalWeight(r)
		if !ok || n == len(r) || r[n] != ']' {
			return e, false
		}
		e.Weight, e.HasWeight = w, true
		rest = r[n+1:]
	}
	if len(rest) < len(id)+2 || rest[:len(id)] != " [ID:" {
		return e, false
	}
	rest = rest[len(id):]
	if rest[len(rest)-1] != ']' || !validID(rest[:len(rest)-1]) {
		return e, false
	}
	e.ID = rest[:len(rest)-1]
	e.Tags = r.tagList(tags)
	if keywords != "" {
		e.Keywords = r.tagList(keywords)
	}
	return e, true
}

// readDate is ParseDate for a date as Render writes it, the last one
// remembered.
func (r *canonicalReader) readDate(s string) (time.Time, bool) {
	if s == r.date && s != "" {
		return r.day, true
	}
	if !isCanonicalDate(s) {
		return time.Time{}, false
	}
	d, ok := ParseDate(s)
	if ok {
		r.date, r.day = s, d
	}
	return d, ok
}

// tagList is SplitTags(s). A list as a pass writes it, normal tags in
// order, is cut from r.tags, capped so that an append to one entry's
// tags never reaches the next one's.
//
// s holds only tagListByte bytes (entryLine checked them), so a tag cut
// from it is normal (NormalizeTags keeps it) when it is 1 to 40 bytes
// long and starts and ends with none of edgeByte's.
func (r *canonicalReader) tagList(s string) []string {
	// Commas found by hand, not by strings.Count and strings.Cut: a list
	// is a few short tags, shorter than those calls' setup. Room is made
	// for as many tags as s could hold, each at least a byte and a comma,
	// rather than counting them first: only what is cut is taken.
	n := len(s)/2 + 1
	if cap(r.tags)-len(r.tags) < n {
		// Each block twice the last, up to 1,024 tags: a small file
		// gets a small one.
		r.tags = make([]string, 0, max(n, min(2*cap(r.tags), 1024), 32))
	}
	start := len(r.tags)
	for from := 0; from <= len(s); {
		end := from
		for end < len(s) && s[end] != ',' {
			end++
		}
		t := s[from:end]
		if len(t) == 0 || len(t) > 40 || edgeByte(t[0]) || edgeByte(t[len(t)-1]) || // not normal
			(len(r.tags) > start && r.tags[len(r.tags)-1] >= t) {
			r.tags = r.tags[:start]
			return SplitTags(s)
		}
		r.tags = append(r.tags, t)
		from = end + 1
	}
	return r.tags[start:len(r.tags):len(r.tags)]
}

func tagListByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == ','
}

// canonicalWeight reads a weight as Weight.appendTo writes one from 0 to
// 100 ("0.5", "12.0": no leading zero, one decimal) at the start of s,
// and how many bytes it took.
func canonicalWeight(s string) (Weight, int, bool) {
	n, whole := 0, 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		whole = whole*10 + int(s[n]-'0')
		n++
		if n > 3 {
			return 0, 0, false
		}
	}
	if n == 0 || (n > 1 && s[0] == '0') || n+2 > len(s) || s[n] != '.' || s[n+1] < '0' || s[n+1] > '9' {
		return 0, 0, false
	}
	w := Weight(whole*100 + int(s[n+1]-'0')*10)
	if w > 10000 {
		return 0, 0, false
	}
	return w, n + 2, true
}
