package hooks

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bimri/bimri-hook/internal/event"
	"github.com/bimri/bimri-hook/internal/recall"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/privacy"
)

// minRecallPrompt is the shortest prompt recall looks at: "ok", "yes",
// "go on" carry no topic, and matching them can only be wrong.
const minRecallPrompt = 12

// wantsRecall says whether a prompt may get recall at all: not a short
// one, a slash command, or a shell (!) or memory (#) line for the client.
func wantsRecall(prompt string) bool {
	p := strings.TrimSpace(prompt)
	if utf8.RuneCountInString(p) < minRecallPrompt {
		return false
	}
	return !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "!") && !strings.HasPrefix(p, "#")
}

// recallPrompt answers an ordinary prompt with the memory it needs that
// the session cannot see: Tier 2 entries and patterns the SessionStart
// view left out, and the archive. Each item comes back at most once a
// session. Recall is extra: when anything fails (the lock is busy, the
// archive cannot be read) the prompt goes on with nothing added.
func recallPrompt(env Env, in Input) Output {
	if !env.Settings.Recall.On || !wantsRecall(in.Prompt) {
		return Output{}
	}
	read, err := env.Store.Read()
	if err != nil {
		return Output{}
	}
	f := read.File
	archive, err := recall.Load(env.Store.Path(env.Store.Names().Archive), filepath.Join(env.Store.StatePath(), recall.IndexName))
	if err != nil {
		return Output{}
	}
	// Not closed: the hook exits in a moment, which frees the mapping
	// for less than a munmap; in a longer process (simulate, the eval)
	// it is released when collected.
	hits := findHits(env, in, f, archive)
	if len(hits) == 0 {
		return Output{}
	}
	describeHits(f, hits)
	foreign := recordedElsewhere(env)
	picked, named, err := pickAndNote(env, in, hits, foreign)
	if err != nil || len(picked) == 0 {
		return Output{}
	}
	return additionalContext(event.UserPromptSubmit, recallContext(env, picked, named, foreign))
}

// findHits ranks what the session cannot see against the prompt
// (recall.Find): the items of f the view left out and the archive, none
// this session was shown or recalled already.
func findHits(env Env, in Input, f *memfile.File, archive *recall.Index) []recall.Hit {
	shown := seenAtStart(env, in, f)
	left, inFile := leftOutOfView(f, shown)
	// Ranked against the session state as it was read without the lock;
	// the lock is taken only when there is something to recall, so a
	// prompt that recalls nothing writes nothing, not even the lock file.
	before := decodeState(env.Store.ReadState(stateKey(in))).Recalled
	return recall.Find(recall.Query{
		Text:     in.Prompt,
		Today:    env.Today,
		Lexicon:  env.Settings.Recall.Lexicon,
		MinShare: env.Settings.Recall.MinShare,
		// An archived item that is back in the file (revived, or recorded
		// again) is the file's copy, shown or left out; the archive's is
		// stale.
		Skip: func(it recall.Item) bool {
			return shown[it.ID] || slices.Contains(before, it.ID) || (!it.ArchivedOn.IsZero() && inFile[it.ID])
		},
		Limit: 4 * env.Settings.Recall.Items,
	}, recall.NewMemory(left), archive).Hits
}

// leftOutOfView is what the view did not show whole, Tier 1 included (a
// large Tier 1 is shown in compact lines, or in part), and the IDs of
// every entry and pattern in f.
func leftOutOfView(f *memfile.File, shown map[string]bool) (left []recall.Item, inFile map[string]bool) {
	t1, t2, pats := f.Entries(1), f.Entries(2), f.Patterns()
	// Sized once: a big file would otherwise grow them many times.
	inFile = make(map[string]bool, len(t1)+len(t2)+len(pats))
	left = make([]recall.Item, 0, max(0, len(t1)+len(t2)+len(pats)-len(shown)))
	for _, e := range t1 {
		inFile[e.ID] = true
		if !shown[e.ID] {
			left = append(left, recall.FromEntry(e))
		}
	}
	for _, e := range t2 {
		inFile[e.ID] = true
		if !shown[e.ID] {
			left = append(left, recall.FromEntry(e))
		}
	}
	for _, p := range pats {
		inFile[p.ID] = true
		if !shown[p.ID] {
			left = append(left, recall.FromPattern(p))
		}
	}
	return left, inFile
}

// describeHits makes the hits what recall shows: the file's items
// cleaned of private spans and secrets (the index's items are clean
// already), a superseded item given what holds now, and an entry that a
// newer one of the file looks like it supersedes (the view's "possibly
// superseded" mark; an archived one too) given that entry.
func describeHits(f *memfile.File, hits []recall.Hit) {
	successors := f.Successors()
	for i := range hits {
		it := &hits[i].Item
		if it.ArchivedOn.IsZero() {
			*it = it.Cleaned()
		} else if it.Current = currentOf(f, *it); it.Current != "" {
			continue // superseded, and said so
		}
		if it.Pattern {
			continue
		}
		e := memfile.Entry{ID: it.ID, Importance: it.Importance, Date: it.Date, Tags: it.Tags, Text: it.Text}
		if newer := successors.Of(&e); newer != nil {
			// Shortened: the mark only asks the model to check, and the
			// newer entry's ID finds the rest.
			short := *newer
			if r := []rune(short.Text); len(r) > possiblyChars {
				short.Text = string(r[:possiblyChars]) + "…"
			}
			it.Current, it.Possibly = entryAsRecalled(&short), true
		}
	}
}

// recordedElsewhere says which items of bimri.md this workspace's
// sessions did not record (an archived item never is one).
func recordedElsewhere(env Env) func(recall.Item) bool {
	elsewhere := env.Store.Foreign()
	return func(it recall.Item) bool {
		return it.ArchivedOn.IsZero() && elsewhere != nil && elsewhere(it.ID)
	}
}

// pickAndNote, under the lock, picks the hits this session has not had
// yet that fit the answer, adds them to the session's recalled list and
// counts the archived ones in the workspace's recalls. It returns the
// picked hits and the few of them the answer calls worth reviving, with
// their strength. Nothing picked, nothing is written.
func pickAndNote(env Env, in Input, hits []recall.Hit, foreign func(recall.Item) bool) ([]recall.Hit, map[string]recall.Strength, error) {
	key := stateKey(in)
	var picked []recall.Hit
	var named map[string]recall.Strength
	err := env.Store.UpdateState([]string{key, recall.StateKey}, func(state map[string][]byte) error {
		st := decodeState(state[key]) // damaged state is a fresh start
		fresh := slices.DeleteFunc(slices.Clone(hits), func(h recall.Hit) bool { return slices.Contains(st.Recalled, h.Item.ID) })
		picked = recall.Select(fresh, env.Settings.Recall.Items, env.Settings.Recall.Chars, func(it recall.Item) int {
			return memfile.Length(recalledLine(it, widestStrength, foreign(it))) + 1
		})
		if len(picked) == 0 {
			return nil
		}
		for _, h := range picked {
			st.Recalled = append(st.Recalled, h.Item.ID)
		}
		state[key] = encodeState(st)
		recalls, ok := loadRecalls(env, state[recall.StateKey])
		named = noteRecalls(recalls, picked, in)
		if ok {
			state[recall.StateKey] = recalls.Marshal()
		}
		return nil
	})
	return picked, named, err
}

// widestStrength is what Select measures a recalled line with: it is at
// least as long as the line shown (recall.MaxKept is one digit).
var widestStrength = recall.Strength{Sessions: recall.MaxKept, Prompts: recall.MaxKept}

// loadRecalls reads the workspace's recalls. A record that does not read
// is set aside (recalls.json.broken-TIME in the state folder) and recall
// starts afresh; when it cannot even be set aside, ok is false and it is
// left as it is. Never an error: it is bookkeeping, and the prompt goes on.
func loadRecalls(env Env, data []byte) (r *recall.Recalls, ok bool) {
	r, err := recall.ParseRecalls(data)
	if err == nil {
		return r, true
	}
	_, err = env.Store.SetAsideState(recall.StateKey, data)
	return r, err == nil
}

// noteRecalls counts the picked archived items as recalled in this
// session for its prompt, and returns those the answer names as worth
// reviving: recalled for the first time this session, not superseded,
// the strongest recall.NameAtMost of them.
func noteRecalls(recalls *recall.Recalls, picked []recall.Hit, in Input) map[string]recall.Strength {
	type worth struct {
		id string
		s  recall.Strength
	}
	var found []worth
	for _, h := range picked {
		if h.Item.ArchivedOn.IsZero() {
			continue
		}
		s, counted := recalls.Note(h.Item.ID, in.SessionID, in.Prompt)
		if counted && s.Worth() && !superseded(h.Item) {
			found = append(found, worth{h.Item.ID, s})
		}
	}
	slices.SortStableFunc(found, func(a, b worth) int { return b.s.Compare(a.s) })
	named := map[string]recall.Strength{}
	for _, w := range found[:min(len(found), recall.NameAtMost)] {
		named[w.id] = w.s
	}
	return named
}

// possiblyChars bounds the newer entry's text a "possibly superseded"
// mark quotes.
const possiblyChars = 160

// currentOf is, for an item archived as superseded by an entry still in
// f, that entry as recall words it; "" for any other item, or when the
// newer entry left the file too (its ID is in the reason, and search
// finds it).
func currentOf(f *memfile.File, it recall.Item) string {
	id, ok := strings.CutPrefix(it.Reason, memfile.SupersededPrefix)
	if !ok || it.ArchivedOn.IsZero() {
		return ""
	}
	e, _ := f.Find(strings.TrimSpace(id))
	if e == nil {
		return ""
	}
	return entryAsRecalled(e)
}

// entryAsRecalled is e of bimri.md as recall names what holds now: date,
// importance, text, ID.
func entryAsRecalled(e *memfile.Entry) string {
	return e.Date.Format(time.DateOnly) + " imp " + strconv.Itoa(e.Importance) + ": " + privacy.Clean(e.Text) + " (id " + e.ID + ", in bimri.md)"
}
