package hooks

// The hook's answer as JSON without encoding/json's reflection: every
// answer is an object of strings and nested objects of strings, and the
// steady SessionStart pays for reflection, map sorting and buffer growth
// on every run. The bytes are encoding/json's with SetEscapeHTML(false)
// (keys sorted, the same escapes); TestAppendAnswerMatchesEncodingJSON
// holds the two together. Any other value falls back to encoding/json.

import (
	"slices"
	"unicode/utf8"
)

// appendAnswer appends m as Encoder.Encode would (with a final newline)
// and reports true, or reports false, leaving dst's contents alone, when m
// holds a value other than a string or such an object.
func appendAnswer(dst []byte, m map[string]any) ([]byte, bool) {
	if !plainObject(m) {
		return dst, false
	}
	return append(appendObject(dst, m), '\n'), true
}

// answerSize is an upper bound of the encoded size of a plain object, so
// the buffer is allocated once: a byte takes at most 6 bytes escaped.
func answerSize(m map[string]any) int {
	n := 2
	for k, v := range m {
		n += 6*len(k) + 4
		switch v := v.(type) {
		case string:
			n += 6*len(v) + 2
		case map[string]any:
			n += answerSize(v)
		}
	}
	return n + 1
}

func plainObject(m map[string]any) bool {
	for _, v := range m {
		switch v := v.(type) {
		case string:
		case map[string]any:
			if v == nil || !plainObject(v) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func appendObject(dst []byte, m map[string]any) []byte {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONString(dst, k)
		dst = append(dst, ':')
		switch v := m[k].(type) {
		case string:
			dst = appendJSONString(dst, v)
		case map[string]any:
			dst = appendObject(dst, v)
		}
	}
	return append(dst, '}')
}

const hexDigits = "0123456789abcdef"

// appendJSONString is encoding/json's appendString with escapeHTML false:
// quote and backslash escaped, control bytes as \b \f \n \r \t or \u00XX,
// invalid UTF-8 as \ufffd, U+2028 and U+2029 escaped.
func appendJSONString(dst []byte, s string) []byte {
	return appendJSONStringEscaping(dst, s, false)
}

// appendJSONStringEscaping is encoding/json's appendString: with
// escapeHTML, also < > & as \u003c \u003e \u0026, as json.Marshal writes.
func appendJSONStringEscaping(dst []byte, s string, escapeHTML bool) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		// Eight bytes at a time while none needs care: most of an answer
		// is ASCII prose, ten thousand characters of it at SessionStart.
		if i+8 <= len(s) && plainWord(s[i:i+8], escapeHTML) {
			i += 8
			continue
		}
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && !(escapeHTML && (b == '<' || b == '>' || b == '&')) {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// plainWord says whether none of w's eight bytes needs escaping or
// decoding: no control byte, quote, backslash or non-ASCII byte (and,
// with escapeHTML, no < > &). Each test is the exact "some byte is
// zero" (or "less than") trick on the eight bytes as one word.
func plainWord(w string, escapeHTML bool) bool {
	x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
		uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	hasZero := func(v uint64) bool { return (v-ones)&^v&highs != 0 }
	if x&highs != 0 || (x-0x20*ones)&^x&highs != 0 || hasZero(x^'"'*ones) || hasZero(x^'\\'*ones) {
		return false
	}
	return !escapeHTML || !hasZero(x^'<'*ones) && !hasZero(x^'>'*ones) && !hasZero(x^'&'*ones)
}
