package browse

import (
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/bimri/bimri-hook/internal/config"
	"github.com/bimri/bimri-hook/internal/workspace"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
	"github.com/matryer/is"
)

var today = time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)

// seeded makes a store with entries in each tier and one archived.
func seeded(t *testing.T) Source {
	t.Helper()
	all := config.Default()
	cfg := all.Memory
	st, err := store.OpenStore(t.TempDir(), cfg, store.StoreOptions{LockTimeout: time.Second, Today: today, Clock: func() time.Time { return today }})
	if err != nil {
		t.Fatal(err)
	}
	s := &workspace.Opened{Store: st, Config: all, Today: today}
	_, err = st.Update(func(tx *store.Tx) error {
		for _, n := range []memfile.NewEntry{
			{Tier: 1, Importance: 5, Date: today.AddDate(0, 0, -20), Tags: []string{"purpose"}, Text: "This project is a CLI for invoice PDFs."},
			{Tier: 2, Importance: 5, Date: today.AddDate(0, 0, -3), Tags: []string{"db", "decision"}, Text: "Chose SQLite for storage."},
			{Tier: 2, Importance: 3, Date: today.AddDate(0, 0, -2), Tags: []string{"tests"}, Text: "Added tests for the parser."},
			{Tier: 2, Importance: 1, Date: today.AddDate(0, 0, -9), Tags: []string{"lint"}, Text: "Ran the linter."},
		} {
			if _, _, err := tx.File.Remember(n, cfg); err != nil {
				return err
			}
		}
		tx.Maintain(today, cfg, memfile.Options{}) // archives the importance-1 entry
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// press sends keys to m, one at a time, as the terminal would: names
// such as "down", "enter", "esc", "tab", or text typed a rune at a time.
func press(m *model, keys ...string) {
	for _, k := range keys {
		var msg tea.KeyPressMsg
		switch k {
		case "down":
			msg = tea.KeyPressMsg{Code: tea.KeyDown}
		case "up":
			msg = tea.KeyPressMsg{Code: tea.KeyUp}
		case "enter":
			msg = tea.KeyPressMsg{Code: tea.KeyEnter}
		case "esc":
			msg = tea.KeyPressMsg{Code: tea.KeyEscape}
		case "tab":
			msg = tea.KeyPressMsg{Code: tea.KeyTab}
		case "backspace":
			msg = tea.KeyPressMsg{Code: tea.KeyBackspace}
		default:
			for _, r := range k {
				m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
			}
			continue
		}
		m.Update(msg)
	}
}

var ansiCodes = regexp.MustCompile(`\x1b\[[0-9;?]*[a-zA-Z]`)

// screen is what the terminal shows, without colours and styles.
func screen(m *model) string { return ansiCodes.ReplaceAllString(m.View().Content, "") }

// selectedLine is the list row the cursor is on.
func selectedLine(m *model) string {
	for _, l := range strings.Split(screen(m), "\n") {
		if strings.HasPrefix(l, "> ") {
			return l
		}
	}
	return ""
}

func newModel(t *testing.T, s Source) *model {
	t.Helper()
	m, err := openModel(s)
	if err != nil {
		t.Fatal(err)
	}
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	return m
}

func TestPagesThroughTiersAndArchive(t *testing.T) {
	is := is.New(t)
	m := newModel(t, seeded(t))
	sc := screen(m)
	is.True(strings.Contains(sc, "1 Tier 1 (1)"))
	is.True(strings.Contains(sc, "2 Tier 2 (2)"))
	is.True(strings.Contains(sc, "4 Archive (1)"))
	// Tier 2, heaviest first: the decision (floor 4.0), then the tests.
	is.True(strings.Contains(selectedLine(m), "Chose SQLite for storage."))
	// The detail says why it weighs what it does and what will happen.
	is.True(strings.Contains(sc, "the floor keeps importance 4 and 5 at 4.0 or more, so the threshold never archives it"))
	press(m, "down")
	is.True(strings.Contains(selectedLine(m), "Added tests for the parser."))
	is.True(strings.Contains(screen(m), "the threshold archives it on 2026-12-03 (in 4 days, weight 1.1)"))

	press(m, "1")
	is.True(strings.Contains(selectedLine(m), "This project is a CLI"))
	is.True(strings.Contains(screen(m), "Tier 1 never decays"))
	press(m, "4")
	is.True(strings.Contains(selectedLine(m), "Ran the linter."))
	is.True(strings.Contains(screen(m), "left because: weight 0.4 below threshold 1.5"))
	press(m, "tab") // wraps to Tier 1
	is.True(strings.Contains(selectedLine(m), "This project is a CLI"))
}

func TestSearchFilters(t *testing.T) {
	is := is.New(t)
	m := newModel(t, seeded(t))
	press(m, "/", "parsers", "backspace")
	is.True(strings.Contains(screen(m), "search: parser"))
	is.True(strings.Contains(screen(m), "search (enter keeps it, esc leaves): parser█"))
	press(m, "enter")
	is.True(strings.Contains(screen(m), "2 Tier 2 (1)"))
	is.True(strings.Contains(selectedLine(m), "Added tests for the parser."))
	press(m, "4")
	is.True(strings.Contains(screen(m), `nothing here matches "parser"`))
	press(m, "esc") // clears the search
	is.True(strings.Contains(selectedLine(m), "Ran the linter."))
}

func TestForgetAsksFirst(t *testing.T) {
	is := is.New(t)
	s := seeded(t)
	m := newModel(t, s)
	id := strings.Fields(selectedLine(m))[1]
	press(m, "f")
	is.True(strings.Contains(screen(m), "Forget "+id+" (move it to bimri-archive.md)? y/n"))
	press(m, "n")
	is.True(strings.Contains(screen(m), "nothing changed"))
	read, err := s.Store.Read()
	is.NoErr(err)
	e, _ := read.File.Find(id)
	is.True(e != nil) // still there

	press(m, "f", "y")
	is.True(strings.Contains(screen(m), "moved "+id+" to bimri-archive.md"))
	read, err = s.Store.Read()
	is.NoErr(err)
	e, _ = read.File.Find(id)
	is.True(e == nil)
	recs, err := s.Store.ReadArchive()
	is.NoErr(err)
	is.Equal(recs[len(recs)-1].Reason, "forgotten in browse")
	is.True(strings.Contains(screen(m), "4 Archive (2)"))
}

func TestReviveFromTheArchive(t *testing.T) {
	is := is.New(t)
	s := seeded(t)
	m := newModel(t, s)
	press(m, "r") // on Tier 2: not applicable
	is.True(strings.Contains(screen(m), "revive brings back an archived entry"))
	press(m, "4", "r")
	is.True(strings.Contains(screen(m), "into Tier 2, dated today? y/n"))
	press(m, "y")
	is.True(strings.Contains(screen(m), "dated 2026-11-29"))
	is.True(strings.Contains(screen(m), "4 Archive (0)"))
	read, err := s.Store.Read()
	is.NoErr(err)
	is.Equal(len(read.File.Entries(2)), 3)
}

func TestPromote(t *testing.T) {
	is := is.New(t)
	s := seeded(t)
	m := newModel(t, s)
	press(m, "down", "p") // importance 3: refused with why
	is.True(strings.Contains(screen(m), "has importance 3; Tier 1 holds only 4 and 5"))
	press(m, "up", "p", "y")
	is.True(strings.Contains(screen(m), "to Tier 1 of bimri.md, where it never decays"))
	is.True(strings.Contains(screen(m), "1 Tier 1 (2)"))
	read, err := s.Store.Read()
	is.NoErr(err)
	is.Equal(len(read.File.Entries(1)), 2)
}

func TestSupersede(t *testing.T) {
	is := is.New(t)
	s := seeded(t)
	m := newModel(t, s)
	old := strings.Fields(selectedLine(m))[1]
	press(m, "s", "Chose PostgreSQL over SQLite.", "enter")
	is.True(strings.Contains(screen(m), `Record "Chose PostgreSQL over SQLite." and move `+old+" to the archive as superseded by it? y/n"))
	press(m, "y")
	is.True(strings.Contains(screen(m), "as superseded by"))
	read, err := s.Store.Read()
	is.NoErr(err)
	e, _ := read.File.Find(old)
	is.True(e == nil)
	var now *memfile.Entry
	for _, e := range read.File.Entries(2) {
		if e.Text == "Chose PostgreSQL over SQLite." {
			now = e
		}
	}
	is.True(now != nil)
	is.Equal(now.Importance, 5) // the old entry's importance and tags
	is.Equal(now.Tags, []string{"db", "decision"})
	recs, err := s.Store.ReadArchive()
	is.NoErr(err)
	is.Equal(recs[len(recs)-1].Reason, "superseded by "+now.ID)

	// esc while writing changes nothing.
	press(m, "s", "never mind", "esc")
	is.True(!strings.Contains(screen(m), "y/n"))
}

func TestQuit(t *testing.T) {
	is := is.New(t)
	m := newModel(t, seeded(t))
	_, cmd := m.Update(tea.KeyPressMsg{Code: 'q', Text: "q"})
	is.True(cmd != nil)
	_, isQuit := cmd().(tea.QuitMsg)
	is.True(isQuit)
}

// Search is recall's: words in other forms find the entry ("testing the
// parsers" for "Added tests for the parser."), as the prompt hook, the
// MCP recall tool and the search command find it.
func TestSearchIsRecalls(t *testing.T) {
	is := is.New(t)
	m := newModel(t, seeded(t))
	press(m, "/", "testing the parsers", "enter")
	is.True(strings.Contains(screen(m), "2 Tier 2 (1)"))
	is.True(strings.Contains(selectedLine(m), "Added tests for the parser."))
}

// A recorded right-to-left override is shown escaped, in the row and in
// the detail, so the text reads in the order it is stored (issue 34,
// item 4).
func TestBidiControlsShownEscaped(t *testing.T) {
	is := is.New(t)
	s := seeded(t)
	_, err := s.Store.Update(func(tx *store.Tx) error {
		_, _, err := tx.File.Remember(memfile.NewEntry{Tier: 2, Importance: 5, Date: today, Tags: []string{"deploy"},
			Text: "Deploy with \u202etxt.exe\u202c then \u2066check\u2069."}, s.Config.Memory)
		return err
	})
	is.NoErr(err)
	m := newModel(t, s)
	press(m, "deploy")
	got := screen(m)
	is.True(strings.Contains(got, "[U+202E]txt.exe[U+202C]")) // the row and the detail
	is.True(!strings.ContainsAny(got, "\u202e\u202c\u2066\u2069"))
}
