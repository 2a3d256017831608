package recall

import (
	"fmt"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// The same prompt asked in session after session is one need: it never
// makes an item worth reviving. (On the rule before prompts counted,
// three sessions did.)
func TestSamePromptInManySessionsIsNotWorthReviving(t *testing.T) {
	is := is.New(t)
	r := &Recalls{}
	for n := range 20 {
		s, counted := r.Note("7c1e0a42", fmt.Sprint("session-", n), "Which cache backend did we settle on?")
		is.True(counted)
		is.Equal(s.Prompts, 1)
		is.True(!s.Worth())
	}
	// Capitals, spacing and punctuation do not make another prompt.
	s, _ := r.Note("7c1e0a42", "session-x", "  which CACHE backend, did we settle on")
	is.Equal(s.Prompts, 1)
	is.Equal(len(r.WorthReviving()), 0)
}

// Different prompts in different sessions are need: two prompts in three
// sessions make an item worth reviving, and not before.
func TestDifferentPromptsInDifferentSessionsAreWorthReviving(t *testing.T) {
	is := is.New(t)
	r := &Recalls{}
	s, _ := r.Note("a", "s1", "Which cache backend did we settle on?")
	is.Equal(s, Strength{Sessions: 1, Prompts: 1})
	s, _ = r.Note("a", "s2", "Why did we drop memcached?")
	is.Equal(s, Strength{Sessions: 2, Prompts: 2})
	is.True(!s.Worth()) // two sessions are not yet three
	// The same session again counts once, whatever it asks.
	s, counted := r.Note("a", "s2", "Where do user sessions live?")
	is.True(!counted)
	is.Equal(s, Strength{Sessions: 2, Prompts: 2})
	s, counted = r.Note("a", "s3", "Which cache backend did we settle on?")
	is.True(counted)
	is.Equal(s, Strength{Sessions: 3, Prompts: 2})
	is.True(s.Worth())
	is.Equal(r.WorthReviving(), []string{"a"})
}

// WorthReviving lists the strongest first: more different prompts, then
// more sessions, then by ID.
func TestWorthRevivingStrongestFirst(t *testing.T) {
	is := is.New(t)
	r := &Recalls{}
	note := func(id string, prompts ...string) {
		for i, p := range prompts {
			r.Note(id, fmt.Sprint(id, "-", i), p)
		}
	}
	note("b", "p1", "p2", "p1")
	note("a", "p1", "p2", "p1")
	note("c", "p1", "p2", "p3")
	note("d", "p1", "p2", "p1", "p1")
	note("e", "p1", "p1", "p1", "p1")
	is.Equal(r.WorthReviving(), []string{"c", "d", "a", "b"})
}

// What Marshal saves, ParseRecalls reads back, byte for byte, with what
// each session was given; anything else than the current version
// (version 1 kept sessions only) is damaged, with a fresh record to go on
// with.
func TestRecallsRoundTrip(t *testing.T) {
	is := is.New(t)
	r := &Recalls{}
	r.Note("0f3e2a11", "s1", "first prompt")
	r.Note("0f3e2a11", "s2", "second prompt")
	r.Note("7c1e0a42", "s<3>", "third")
	r.Give("s1", "0f3e2a11", "aa000001")
	back, err := ParseRecalls(r.Marshal())
	is.NoErr(err)
	is.Equal(string(back.Marshal()), string(r.Marshal()))
	is.Equal(back.Given("s1"), []string{"0f3e2a11", "aa000001"})
	is.Equal(back.Given("s2"), nil)
	is.True(!strings.Contains(string(r.Marshal()), "prompt")) // hashes, never the text
	is.True(!strings.Contains(string(r.Marshal()), "s<3>"))

	for _, data := range []string{""} {
		got, err := ParseRecalls([]byte(data))
		is.NoErr(err)
		is.Equal(len(got.WorthReviving()), 0)
	}
	for _, data := range []string{"{}", "null", "[]", `{"a":`, "not json", `{"version":3,"items":[]}`, `{"a":[1]}`, `{"0f3e2a11":["s1","s2","s3"]}`} {
		got, err := ParseRecalls([]byte(data))
		is.Equal(err, ErrDamaged)
		s, counted := got.Note("a", "s", "p") // a fresh start
		is.True(counted)
		is.Equal(s, Strength{Sessions: 1, Prompts: 1})
	}
}

// The record stays bounded: at most maxItems items (the least recently
// recalled leave first) and MaxKept recalls an item, and trimming keeps
// the different prompts over a repeated one.
func TestRecallsStayBounded(t *testing.T) {
	is := is.New(t)
	r := &Recalls{}
	r.Note("keep", "s0", "an early, different prompt")
	for i := range 50 {
		r.Note("keep", fmt.Sprint("s", i+1), "the prompt asked every time")
	}
	is.Equal(r.Strength("keep"), Strength{Sessions: MaxKept, Prompts: 2})
	for i := range 3 * maxItems {
		for s := range 2 * MaxKept {
			r.Note(fmt.Sprintf("%08x", i), fmt.Sprint("session-", s, strings.Repeat("x", 200)), fmt.Sprint("prompt ", s))
		}
	}
	is.Equal(r.Strength("keep"), Strength{}) // recalled least recently: gone
	is.Equal(r.Strength(fmt.Sprintf("%08x", 3*maxItems-1)), Strength{Sessions: MaxKept, Prompts: MaxKept})
	data := r.Marshal()
	back, err := ParseRecalls(data)
	is.NoErr(err)
	is.Equal(len(back.items), maxItems)
	// An item's record is its ID and MaxKept pairs of short hashes,
	// whatever the session IDs and prompts were.
	if limit := maxItems * (40 + MaxKept*18); len(data) > limit {
		t.Errorf("the record is %d bytes, want at most %d", len(data), limit)
	}
	// A saved record over the bounds (written by hand, or by a later
	// version) is trimmed as it is read.
	big := `{"version":2,"items":["a` + strings.Repeat(` 1:1`, 40) + ` 2:2","b 1","c 1:1 :2",""]}`
	got, err := ParseRecalls([]byte(big))
	is.NoErr(err)
	is.Equal(len(got.items), 1) // the lines that do not read are dropped
	is.Equal(len(got.items[0])-1, MaxKept)
	is.Equal(got.Strength("a"), Strength{Sessions: 2, Prompts: 2})

	// What sessions were given: the last maxSessions sessions, the last
	// maxGiven items each, well inside a state file's size.
	for s := range 2 * maxSessions {
		for i := range 2 * maxGiven {
			r.Give(fmt.Sprint("session-", s), fmt.Sprintf("%08x", i))
		}
	}
	back, err = ParseRecalls(r.Marshal())
	is.NoErr(err)
	is.Equal(len(back.sessions), maxSessions)
	is.Equal(back.Given("session-0"), nil) // the least recent: gone
	given := back.Given(fmt.Sprint("session-", 2*maxSessions-1))
	is.Equal(len(given), maxGiven)
	is.Equal(given[maxGiven-1], fmt.Sprintf("%08x", 2*maxGiven-1)) // the newest kept
	if limit := maxItems*(40+MaxKept*18) + maxSessions*(20+maxGiven*9); len(r.Marshal()) > limit {
		t.Errorf("the record is %d bytes, want at most %d", len(r.Marshal()), limit)
	}
}
