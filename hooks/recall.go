package hooks

import (
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

// minRecallPrompt: "ok", "yes", "go on" carry no topic.
const minRecallPrompt = 12

// wantsRecall says a prompt may get recall: not a short one, a slash
// command, or a shell (!) or memory (#) line.
func wantsRecall(prompt string) bool {
	p := strings.TrimSpace(prompt)
	return utf8.RuneCountInString(p) >= minRecallPrompt && !strings.ContainsAny(p[:1], "/!#")
}

// recallPrompt answers a prompt with the memory the session cannot see:
// what the view left out, and the archive, each item once a session.
// Recall is extra: when anything fails the prompt goes on with nothing.
func recallPrompt(env Env, in Input) Output {
	if !env.Settings.Recall.On || !wantsRecall(in.Prompt) {
		return Output{}
	}
	read, err := env.Store.Read()
	if err != nil {
		return Output{}
	}
	f := read.File
	shown := seenAtStart(env, in, f)
	// Read without the lock: a prompt that recalls nothing writes nothing,
	// not even the lock file. A record that does not read gave nothing.
	record, _ := recall.ParseRecalls(env.Store.ReadState(recall.StateKey))
	before := record.Given(in.SessionID)
	hits, err := recall.Ask(env.Store, f, recall.Query{
		Text:     in.Prompt,
		Today:    env.Today,
		Lexicon:  env.Settings.Recall.Lexicon,
		MinShare: env.Settings.Recall.MinShare,
		Skip:     func(it recall.Item) bool { return slices.Contains(before, it.ID) },
		// Select takes at most Items, in rank order; as many again stand
		// in for those a concurrent prompt of the session was just given.
		Limit: 2 * env.Settings.Recall.Items,
	}, func(id string) bool { return shown[id] })
	if err != nil || len(hits) == 0 {
		return Output{}
	}
	// foreign: items of bimri.md this workspace's sessions did not record.
	elsewhere := env.Store.Foreign()
	foreign := func(it recall.Item) bool { return it.ArchivedOn.IsZero() && elsewhere != nil && elsewhere(it.ID) }
	picked, named, err := pickAndNote(env, in, f, hits, foreign)
	if err != nil || len(picked) == 0 {
		return Output{}
	}
	return additionalContext(event.UserPromptSubmit, recallContext(env, picked, named, foreign))
}

// describeHits makes the hits what recall shows: the file's items cleaned
// (the index's are), a superseded item given what holds now, and one a
// newer entry looks like it supersedes given that entry ("possibly").
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
		if newer := successors(&e); newer != nil {
			// Shortened: the mark asks to check; the ID finds the rest.
			short := *newer
			if r := []rune(short.Text); len(r) > possiblyChars {
				short.Text = string(r[:possiblyChars]) + "…"
			}
			it.Current, it.Possibly = entryAsRecalled(&short), true
		}
	}
}

// pickAndNote, under the lock, picks the hits this session has not had
// that fit, records them as given it and counts the archived ones in the
// recalls, in the one state file a recalling prompt writes; it returns
// them and the few called worth reviving.
func pickAndNote(env Env, in Input, f *memfile.File, hits []recall.Hit, foreign func(recall.Item) bool) ([]recall.Hit, map[string]recall.Strength, error) {
	var picked []recall.Hit
	var named map[string]recall.Strength
	err := env.Store.UpdateState([]string{recall.StateKey}, func(state map[string][]byte) error {
		// Recalls that do not read are set aside and recall starts afresh
		// (not ok: they could not be set aside, so they stay).
		recalls, err := recall.ParseRecalls(state[recall.StateKey])
		ok := err == nil || env.Store.SetAsideState(recall.StateKey, state[recall.StateKey]) == nil
		given := recalls.Given(in.SessionID)
		fresh := slices.DeleteFunc(slices.Clone(hits), func(h recall.Hit) bool { return slices.Contains(given, h.Item.ID) })
		// Select measures at most Items of them: only those are described.
		describeHits(f, fresh[:min(len(fresh), env.Settings.Recall.Items)])
		picked = recall.Select(fresh, env.Settings.Recall.Items, env.Settings.Recall.Chars, func(it recall.Item) int {
			return memfile.Length(recalledLine(it, widestStrength, foreign(it))) + 1
		})
		if len(picked) == 0 {
			return nil
		}
		named = noteRecalls(recalls, picked, in)
		if ok {
			state[recall.StateKey] = recalls.Marshal()
		}
		return nil
	})
	return picked, named, err
}

// widestStrength measures a recalled line at least as long as the one
// shown (recall.MaxKept is one digit).
var widestStrength = recall.Strength{Sessions: recall.MaxKept, Prompts: recall.MaxKept}

// noteRecalls records the picked items as given this session and counts
// the archived ones as recalled for its prompt, and returns the strongest recall.NameAtMost worth
// reviving, first counted now and not superseded.
func noteRecalls(recalls *recall.Recalls, picked []recall.Hit, in Input) map[string]recall.Strength {
	named := map[string]recall.Strength{}
	var ids []string
	for _, h := range picked {
		recalls.Give(in.SessionID, h.Item.ID)
		if h.Item.ArchivedOn.IsZero() {
			continue
		}
		if s, counted := recalls.Note(h.Item.ID, in.SessionID, in.Prompt); counted && s.Worth() && !superseded(h.Item) {
			named[h.Item.ID], ids = s, append(ids, h.Item.ID)
		}
	}
	slices.SortStableFunc(ids, func(a, b string) int { return named[b].Compare(named[a]) })
	for _, id := range ids[min(len(ids), recall.NameAtMost):] {
		delete(named, id)
	}
	return named
}

const possiblyChars = 160

// currentOf is the entry of f that an item archived as superseded names,
// as recall words it; "" when there is none.
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

func entryAsRecalled(e *memfile.Entry) string {
	return e.Date.Format(time.DateOnly) + " imp " + strconv.Itoa(e.Importance) + ": " + privacy.Clean(e.Text) + " (id " + e.ID + ", in bimri.md)"
}
