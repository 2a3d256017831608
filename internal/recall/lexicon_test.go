package recall

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

// lexiconErrors are the errors of every line of text, each with its
// line, and the number of groups.
func lexiconErrors(text string) (errs []error, groups int) {
	for n, line := range strings.Split(text, "\n") {
		for _, err := range lineErrors(line) {
			errs = append(errs, fmt.Errorf("lexicon line %d: %w", n+1, err))
		}
		if terms, _ := lexiconLine(line, nil); len(terms) > 0 {
			groups++
		}
	}
	return errs, groups
}

// lineErrors says why lexiconLine leaves out a word of line or its group:
// the line would not say what it seems to.
func lineErrors(line string) (errs []error) {
	line = strings.TrimSpace(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return nil
	}
	var terms []string
	for w := range strings.FieldsSeq(strings.TrimPrefix(line, "~")) {
		ts := tokens(w)
		switch {
		case len(ts) == 0 && isStopWord(strings.ToLower(w)):
			errs = append(errs, fmt.Errorf("%q is a stop word", w))
		case len(ts) != 1:
			errs = append(errs, fmt.Errorf("%q is not one word to recall (its terms: %q)", w, ts))
		case isStopWord(ts[0]):
			errs = append(errs, fmt.Errorf("%q comes to the stop word %q", w, ts[0]))
		case slices.Contains(terms, ts[0]):
			errs = append(errs, fmt.Errorf("%q and another word of the group are one word to recall (%q)", w, ts[0]))
		default:
			terms = append(terms, ts[0])
		}
	}
	if len(terms) < 2 {
		errs = append(errs, fmt.Errorf("a group needs two words or more: %q", line))
	}
	return errs
}

// Every word of the lexicon survives recall's folding as one term that
// is not a stop word, no group collapses into fewer than two terms, and
// no two words of a group are one term: otherwise a group would not do
// what it reads as. And each word's term, but for its last two letters
// (searchKey), is the word's start, as written (lower case, an ending
// changed at most), which lets neighbours find a term by searching the
// text.
func TestLexiconFile(t *testing.T) {
	errs, groups := lexiconErrors(lexiconText)
	for _, err := range errs {
		t.Error(err)
	}
	if groups < 250 {
		t.Errorf("the lexicon has %d groups, want a few hundred", groups)
	}
	all := map[string]bool{}
	for n, line := range strings.Split(lexiconText, "\n") {
		terms, _ := lexiconLine(line, nil)
		for _, w := range strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "~")) {
			if ts := tokens(w); len(ts) == 1 && slices.Contains(terms, ts[0]) && !strings.HasPrefix(w, searchKey(ts[0])) {
				t.Errorf("lexicon line %d: %q comes to %q, which is not in it as written", n+1, w, ts[0])
			}
		}
		for _, term := range terms {
			all[term] = true
		}
	}
	for term := range all {
		ns := neighbours(term)
		var words []string
		for _, n := range ns {
			words = append(words, n.term)
		}
		if len(ns) == 0 || slices.Contains(words, term) || !slices.IsSorted(words) || len(slices.Compact(slices.Clone(words))) != len(words) {
			t.Errorf("neighbours of %q = %q: want some, sorted, distinct, without the term", term, words)
		}
	}
	t.Logf("%d groups, %d terms", groups, len(all))
}

// term is w as recall reads it.
func term(w string) string { return tokens(w)[0] }

// A group that does not say what it reads as is refused, line by line;
// the good groups around it are kept.
func TestLexiconRefuses(t *testing.T) {
	is := is.New(t)
	errs, groups := lexiconErrors(strings.Join([]string{
		"# a comment",
		"postgres postgresql",
		"tells work",           // "tells" folds to "tell", a stop word
		"the article",          // a stop word
		"login logins",         // one term twice: the group collapses
		"x y",                  // letters only: no term
		"rollout pull-request", // two words
		"",
		"faster latency",
		"~ mysql postgres",
	}, "\n"))
	// Each bad word, and each group that it leaves with fewer than two
	// terms: 2 (tells) + 2 (the) + 2 (logins) + 3 (x, y) + 2 (pull-request).
	is.Equal(len(errs), 11)
	for _, want := range []string{`line 3: "tells" comes to the stop word "tell"`, `line 4: "the" is a stop word`,
		`line 5: "logins" and another word of the group are one word`, `line 6: "x" is not one word`, `line 7: "pull-request" is not one word`} {
		if !slices.ContainsFunc(errs, func(err error) bool { return strings.Contains(err.Error(), want) }) {
			t.Errorf("no error says %q; got %q", want, errs)
		}
	}
	is.Equal(groups, 3)
	terms, family := lexiconLine("~ MySQL Postgres", nil)
	is.Equal(terms, []string{term("MySQL"), term("Postgres")}) // folded and stemmed as entries are
	is.True(family)
	terms, family = lexiconLine("doing work", nil)
	is.Equal(len(terms), 0) // its group lost "doing", and one word is no group
	is.True(!family)
}

// Neighbours come from every group that holds the term, each once, as
// near as its nearest group: one thing before family.
func TestNeighbours(t *testing.T) {
	is := is.New(t)
	ns := neighbours(term("Postgres"))
	at := func(w string) neighbour {
		for _, n := range ns {
			if n.term == term(w) {
				return n
			}
		}
		return neighbour{}
	}
	is.True(!at("PostgreSQL").family()) // postgres postgresql psql pg pgsql
	is.Equal(at("PostgreSQL").near, 5)
	is.True(at("MySQL").family())
	is.Equal(neighbours(term("mongodb")), []neighbour{{term("mongo"), 2}})
	is.Equal(neighbours("db")[0], neighbour{term("database"), 3}) // db database datastore; not the "db" in "mongodb"
	is.Equal(neighbours("haiku"), nil)
}

// richMemory is testdata/memory.txt, and a routine entry a day between
// them, as a busy workspace's archive holds: common words are common.
func richMemory(t *testing.T) []Item {
	t.Helper()
	data, err := os.ReadFile("testdata/memory.txt")
	if err != nil {
		t.Fatal(err)
	}
	var items []Item
	day := date("2025-12-01")
	for _, line := range strings.Split(string(data), "\n") {
		tags, text, ok := strings.Cut(line, " | ")
		if !ok || strings.HasPrefix(line, "#") {
			continue
		}
		day = day.AddDate(0, 0, 1)
		items = append(items, Item{ID: fmt.Sprintf("m%07d", len(items)), Date: day, Importance: 4, Tags: strings.Split(tags, ","), Text: text})
	}
	modules := []string{"billing", "calendar", "search", "auth", "invoices", "reports", "notifications", "admin"}
	chores := []string{"Ran the linter and the unit tests on the %s module, all green.", "Reviewed open pull requests for the %s module.",
		"Updated dependencies of the %s module; nothing broke.", "Wrote notes on the %s module for the team."}
	for i := range 300 {
		items = append(items, Item{ID: fmt.Sprintf("r%07d", i), Date: date("2025-12-01").AddDate(0, 0, i), Importance: 1, Tags: []string{"routine"},
			Text: fmt.Sprintf(chores[i%len(chores)], modules[i%len(modules)])})
	}
	return items
}

// rankBoth ranks prompt over items held in memory and in an index (half
// each) and checks they agree, then returns the hits' IDs.
func rankBoth(t *testing.T, items []Item, prompt string, lexicon bool) []string {
	t.Helper()
	opt := Query{MinShare: DefaultMinShare, Lexicon: lexicon, Limit: 5}
	mem := ids(Rank(prompt, opt, NewMemory(items)))
	split := ids(Rank(prompt, opt, NewMemory(items[:len(items)/2]), mustDecode(t, encode(items[len(items)/2:], indexKey{}))))
	if !slices.Equal(mem, split) {
		t.Errorf("%q: %v in memory, %v with an index", prompt, mem, split)
	}
	return mem
}

// textOf is the text of the entry with id.
func textOf(items []Item, id string) string {
	for _, it := range items {
		if it.ID == id {
			return it.Text
		}
	}
	return ""
}

// Other words find the entry: each prompt shares only one word with its
// entry (so finds nothing without the lexicon) and names the other in
// other words.
func TestLexiconFindsOtherWords(t *testing.T) {
	items := richMemory(t)
	for _, c := range []struct{ prompt, want string }{
		{"Which Postgres version does reporting use?", "PostgreSQL 16"},            // Postgres for PostgreSQL
		{"How does sign-in work for the admin?", "Login now goes through"},         // sign-in for login
		{"How much faster did search become?", "p95 latency dropped"},              // faster for latency
		{"Where do the Kubernetes rollouts pause?", "canary of 10%"},               // Kubernetes for the tag k8s
		{"Why was the calendar so sluggish?", "every cell re-rendered"},            // sluggish for slow
		{"Which stylesheet approach did the components get?", "Tailwind over CSS"}, // stylesheet for CSS
		{"Why is gql gone from the public interface?", "Dropped GraphQL"},          // gql for GraphQL
	} {
		if got := rankBoth(t, items, c.prompt, false); slices.ContainsFunc(got, func(id string) bool { return strings.Contains(textOf(items, id), c.want) }) {
			t.Errorf("%q finds %q without the lexicon: the case tests nothing", c.prompt, c.want)
		}
		got := rankBoth(t, items, c.prompt, true)
		if len(got) == 0 || !strings.Contains(textOf(items, got[0]), c.want) {
			var texts []string
			for _, id := range got {
				texts = append(texts, textOf(items, id))
			}
			t.Errorf("%q recalls %q, want first the entry with %q", c.prompt, texts, c.want)
		}
	}
}

// The prompt's own word outranks its neighbour: two entries alike but
// for that word, the one with the prompt's word first, whichever comes
// first in the corpus, in memory and in an index alike.
func TestLexiconExactOutranksNeighbour(t *testing.T) {
	is := is.New(t)
	filler := richMemory(t)
	for _, pair := range [][2]string{
		{"Postgres connection pool raised to 60.", "PostgreSQL connection pool raised to 60."},
		{"Login page redirects to the dashboard.", "Signin page redirects to the dashboard."},
		{"Latency alerts fire above 300ms.", "Performance alerts fire above 300ms."},
	} {
		exact := Item{ID: "exact", Date: date("2026-01-01"), Text: pair[0]}
		near := Item{ID: "near", Date: date("2026-01-02"), Text: pair[1]} // newer: wins a tie
		prompt := pair[0]
		for _, items := range [][]Item{append([]Item{exact, near}, filler...), append([]Item{near, exact}, filler...)} {
			got := rankBoth(t, items, prompt, true)
			is.True(len(got) >= 2)
			is.Equal(got[:2], []string{"exact", "near"}) // prompt's word first
		}
	}
}

// A neighbour counts as the prompt's word it stands for, once: an entry
// that holds one word the prompt names in two ways matches one word of
// the prompt, not the two a recall needs.
func TestLexiconCountsAWordOnce(t *testing.T) {
	is := is.New(t)
	items := append([]Item{{ID: "one", Date: date("2026-01-01"), Text: "Upgraded PostgreSQL."}}, richMemory(t)...)
	is.True(!slices.Contains(rankBoth(t, items, "postgres database", true), "one"))   // "PostgreSQL" is one word, near both
	is.True(!slices.Contains(rankBoth(t, items, "postgres postgresql", true), "one")) // the prompt's own word is not a neighbour too
	is.Equal(rankBoth(t, items, "postgres upgraded", true), []string{"one"})          // two words: found
}

// Prompts with no answer in memory still get nothing with the lexicon:
// make eval's eight, and more that share a word or a neighbour with the
// memory but are about something it does not hold.
func TestLexiconNoAnswer(t *testing.T) {
	items := richMemory(t)
	for _, p := range []string{
		// bench/recalleval's prompts with no answer.
		"Let's continue with the refactor we started", "Can you write a haiku about autumn leaves?",
		"Please explain what a monad is in simple terms", "Rename the variable x to count everywhere", "How many lines does this repository have?",
		"Summarise the last commit message for me", "Translate the README into French please", "What is the capital city of Australia?",
		// Off the subject.
		"What's a good recipe for sourdough bread?", "Write a limerick about a cat who loves cardboard boxes",
		"Who painted the ceiling of the Sistine Chapel?", "Explain the difference between TCP and UDP",
		"How do I center a div horizontally with flexbox?", "Convert this paragraph into the passive voice",
		"Give me ten names for a pet goldfish",
		// Of the field, sharing a word or a neighbour with the memory, with no answer there.
		"How should the Android app handle push notifications?", "Set up a Kafka consumer group for the analytics events",
		"Why is the GraphQL schema stitching slow on cold start?", "Can we translate the marketing site into Japanese?",
		"Which font should the invoice PDF use?", "How do I profile memory usage of a Rust program?",
		"Does the iOS app support a dark theme?", "What is our policy on code review turnaround?",
	} {
		for _, lexicon := range []bool{false, true} {
			if got := rankBoth(t, items, p, lexicon); got != nil {
				var texts []string
				for _, id := range got {
					texts = append(texts, textOf(items, id))
				}
				t.Errorf("%q (lexicon %v) recalls %q, want nothing", p, lexicon, texts)
			}
		}
	}
}

// More requests of the field with no answer in the memory: some share
// a word with an entry, and the words alone recall it (the two-word rule
// can be wrong), but the lexicon adds nothing to what the words recall.
func TestLexiconAddsNothingWithoutAnAnswer(t *testing.T) {
	items := richMemory(t)
	for _, p := range []string{
		"What is our policy on code review turnaround?", "Who signs off on the quarterly budget?",
		"How do we onboard a new developer to the team?", "Which office plants need watering on Fridays?",
		"Can you summarise the meeting notes from yesterday's standup?", "Should we use tabs or spaces in the Python scripts?",
		"What license does the open source charting library use?", "How do I register a new domain for the marketing site?",
		"Plan the company offsite agenda for next spring", "What is the user story for the loyalty points feature?",
		"Write a cover letter for a senior engineer position", "How do we handle GDPR data deletion requests from patients?",
		"Is there a dark mode for the staff app?", "Which keyboard shortcuts does the editor support?",
		"What happened with the fire drill at the Leeds office?", "How long does the coffee machine take to warm up?",
		"Draft a tweet announcing the new logo", "Who is the contact person at the insurance broker?",
		"How do I set up my laptop's VPN for home working?", "What's the wifi password for the guest network?",
		"Explain how the parking permits for staff work", "Which printer should the reception use for labels?",
		"Compare the pricing of AWS and Azure for GPU instances", "What is the release date of the next iPhone?",
		"Can you fix the login page's CSS on Safari?", "Add a new column for middle names to the patients table",
		"How do I speed up my home internet connection?", "Why does my laptop battery drain so fast?",
		"How should I structure a Rust workspace with several crates?", "What does a product manager do all day?",
		"Give me a SQL query that counts rows per month", "How do I write a unit test for a React hook?",
		"What's the best way to learn Kubernetes from scratch?", "Help me name the new chat bot",
		"Which holidays does the Spanish office observe?", "Create a slide deck about our hiring process",
		"Is the session timeout configurable per user?", "What's the deadline for the tax return?",
		"Can we ship stickers to the conference?", "How do I cancel my gym membership?",
	} {
		words := map[string]bool{}
		for _, h := range Rank(p, Query{MinShare: DefaultMinShare}, NewMemory(items)) {
			words[h.Item.ID] = true
		}
		for _, h := range Rank(p, Query{MinShare: DefaultMinShare, Lexicon: true}, NewMemory(items)) {
			if !words[h.Item.ID] {
				t.Errorf("%q: the lexicon recalls %q, which its words do not", p, h.Item.Text)
			}
		}
	}
}

// The same memory and prompt give the same hits in the same order,
// whatever the order of the items.
func TestLexiconDeterministic(t *testing.T) {
	is := is.New(t)
	items := richMemory(t)
	prompt := "Which postgres db settings did we change for reporting, search latency and login?"
	want := rankBoth(t, items, prompt, true)
	is.True(len(want) > 1)
	rng := rand.New(rand.NewPCG(25, 25))
	for range 5 {
		rng.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
		is.Equal(rankBoth(t, items, prompt, true), want)
	}
}

// BenchmarkNeighbours is the lexicon's work for a prompt's terms.
func BenchmarkNeighbours(b *testing.B) {
	terms := tokens("How did we fix the session cache latency in the billing webhook handler?")
	for b.Loop() {
		for _, t := range terms {
			neighbours(t)
		}
	}
}

// BenchmarkRankArchive is the ranking alone over the archive of the
// folder BIMRI_RECALL_BENCH names (a genfull output), with the lexicon
// and with the prompt's words only: what the lexicon adds to a prompt,
// besides parsing it once (BenchmarkParseLexicon).
func BenchmarkRankArchive(b *testing.B) {
	src := os.Getenv("BIMRI_RECALL_BENCH")
	if src == "" {
		b.Skip("BIMRI_RECALL_BENCH names no genfull folder")
	}
	x, err := Load(filepath.Join(src, memfile.ArchiveName), filepath.Join(b.TempDir(), IndexName))
	if err != nil {
		b.Fatal(err)
	}
	const prompt = "How did we fix the session cache latency in the billing webhook handler?"
	for _, lexicon := range []bool{true, false} {
		b.Run(map[bool]string{true: "lexicon", false: "words"}[lexicon], func(b *testing.B) {
			opt := Query{MinShare: DefaultMinShare, Limit: 20, Lexicon: lexicon}
			if len(Rank(prompt, opt, x)) == 0 {
				b.Fatal("nothing ranked")
			}
			for b.Loop() {
				Rank(prompt, opt, x)
			}
		})
	}
}

// BenchmarkNewMemory is the index of the entries and patterns of the
// bimri.md in the folder BIMRI_RECALL_BENCH names (a genfull output),
// which every recalling prompt builds: its allocation is the point.
func BenchmarkNewMemory(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(os.Getenv("BIMRI_RECALL_BENCH"), memfile.MemoryName))
	if err != nil {
		b.Skip("BIMRI_RECALL_BENCH names no genfull folder")
	}
	f, _, err := memfile.Parse(data)
	if err != nil {
		b.Fatal(err)
	}
	var items []Item
	for _, e := range slices.Concat(f.Entries(1), f.Entries(2)) {
		items = append(items, FromEntry(e))
	}
	for _, p := range f.Patterns() {
		items = append(items, FromPattern(p))
	}
	b.ReportAllocs()
	for b.Loop() {
		NewMemory(items)
	}
}
