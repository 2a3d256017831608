//go:build bench

package main

import (
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/bench/bm25"
	"github.com/bimri/bimri-hook/hooks"
	"github.com/bimri/bimri-hook/internal/event"
	"github.com/bimri/bimri-hook/internal/record"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
)

// The Clinicflow scenario: nine months of a project lived through the
// real code (every entry recorded through internal/record, as the CLI and
// MCP do; every session opened by SessionStart and closed by the real
// session-end pass, the clock passed in), then each question asked in a
// fresh session through the hooks package.

var (
	storyStart = time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)   // a Monday
	storyToday = time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC) // the Monday the questions are asked
	busyDay    = time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
)

// lived is a workspace after the nine months.
type lived struct {
	dir     string
	ids     map[string]string // story key -> entry ID
	texts   map[string]string // story key -> the text recorded
	asked   int               // reversals remember asked about, with the old entry among those it named
	reverse int               // reversals recorded (S-new and DL moves)
	alarms  int               // other lasting entries remember asked about
	entries int               // entries recorded
	days    int               // working days lived
}

// live records the story in a new workspace under parent, as agent b
// does. b.answers says the agent answers remember's supersession
// question: it records each reversal with Supersedes naming the entry it
// overrides. Without it the agent only records, and never answers.
// b.keywords says it gives each story entry the keywords the hint asks
// for.
func live(parent string, seed uint64, b behaviour) (*lived, error) {
	items, err := storyItems()
	if err != nil {
		return nil, err
	}
	// A name of one length for every agent (lived-0, lived-1, ...): the
	// view names the workspace, and the length of its path moves its room.
	dir := filepath.Join(parent, fmt.Sprintf("lived-%d", slices.IndexFunc(behaviours, func(o behaviour) bool { return o.key == b.key })))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, err
	}
	l := &lived{dir: dir, ids: map[string]string{}, texts: map[string]string{}}
	rng := rand.New(rand.NewPCG(seed, 25))
	cfg := memfile.DefaultConfig()
	byDay := map[time.Time][]storyItem{}
	for _, it := range items {
		byDay[it.date] = append(byDay[it.date], it)
	}
	for day := storyStart; day.Before(storyToday); day = day.AddDate(0, 0, 1) {
		if wd := day.Weekday(); wd == time.Saturday || wd == time.Sunday {
			continue
		}
		l.days++
		store, err := store.OpenStore(dir, cfg, store.StoreOptions{LockTimeout: 2 * time.Second, Today: day, NoSync: true})
		if err != nil {
			return nil, err
		}
		env := hooks.Env{Store: store, Config: cfg, Settings: hooks.DefaultSettings(), Today: day, Binary: "bimri-hook"}
		// Two sessions a day: the story's items in the first, the routine
		// work spread over both; the busy day's long entries in the second.
		var routine [2][]record.Request
		for i := range 3 + rng.IntN(2) {
			text, tags, imp := routineEntry(rng)
			routine[i%2] = append(routine[i%2], record.Request{Text: text, Tags: tags, Importance: imp})
		}
		if day.Equal(busyDay) {
			for i := range 40 {
				text, tags, imp := busyEntry(rng, i)
				routine[1] = append(routine[1], record.Request{Text: text, Tags: tags, Importance: imp})
			}
		}
		for s := range 2 {
			in := hooks.Input{SessionID: fmt.Sprintf("%s-%d", day.Format(time.DateOnly), s), Cwd: dir}
			if err := hook(env, in, event.SessionStart); err != nil {
				return nil, err
			}
			if s == 0 {
				for _, it := range byDay[day] {
					if err := l.recordItem(store, day, cfg, it, b); err != nil {
						return nil, fmt.Errorf("%s: %w", it.key, err)
					}
				}
			}
			for _, r := range routine[s] {
				if _, err := record.Remember(store, day, cfg, r, record.CLINames); err != nil {
					return nil, err
				}
				l.entries++
			}
			if err := hook(env, in, event.SessionEnd); err != nil {
				return nil, err
			}
		}
	}
	return l, nil
}

// textOf is the text of the story entry id.
func (l *lived) textOf(id string) string {
	for k, v := range l.ids {
		if v == id {
			return l.texts[k]
		}
	}
	return ""
}

// recordItem records one story item as the agent does.
func (l *lived) recordItem(store *store.Store, day time.Time, cfg memfile.Config, it storyItem, b behaviour) error {
	r := record.Request{Text: it.text, Importance: it.imp, Tier: it.tier, Tags: it.tags}
	if b.keywords {
		withKeywords(&r, it.keywords)
	}
	old := l.ids[it.supersedes]
	if b.answers && old != "" {
		read, err := store.Read()
		if err != nil {
			return err
		}
		if e, _ := read.File.Find(old); e != nil {
			// The agent knows the entry it overrides: it is in the file.
			r.Supersedes = []string{old}
		}
	}
	d, err := record.Remember(store, day, cfg, r, record.CLINames)
	if err != nil {
		return err
	}
	l.entries++
	l.ids[it.key] = d.Entry.ID
	l.texts[it.key] = d.Entry.Text
	if it.supersedes != "" {
		l.reverse++
	}
	for _, p := range d.Predecessors {
		if p.ID == old {
			l.asked++
		} else {
			l.alarms++
		}
	}
	return nil
}

func hook(env hooks.Env, in hooks.Input, ev event.Name) error {
	in.Event = ev
	if ev == event.SessionStart {
		in.Source = "startup"
	}
	_, err := hooks.Handle(env, in)
	return err
}

// question is one prompt of the evaluation and the entries that answer it.
type question struct {
	id, kind, text string
	answers        []string // entry IDs; none for a prompt with no answer
}

// questions are the same-words questions and the blind ones, with the
// entries that answer each: an F, D or S question the entry (for S, the
// new one), DL the launch date as it stands, a W question its item, and
// WEEK every item of last week.
func (l *lived) questions() ([]question, error) {
	var qs []question
	same, err := parseTSV(sameWordsTSV, 2)
	if err != nil {
		return nil, fmt.Errorf("same-words.tsv: %w", err)
	}
	for _, r := range same {
		qs = append(qs, question{id: r[0], kind: "same", text: r[1]})
	}
	blind, err := parseTSV(otherWordsTSV, 3)
	if err != nil {
		return nil, fmt.Errorf("other-words.tsv: %w", err)
	}
	for _, r := range blind[1:] { // a header line
		qs = append(qs, question{id: r[0], kind: r[1], text: r[2]})
	}
	for i := range qs {
		q := &qs[i]
		switch id := q.id; {
		case id == "NONE":
		case id == "WEEK":
			for _, w := range weekKeys {
				q.answers = append(q.answers, l.ids[w])
			}
		default:
			key := map[bool]string{true: id + "-new", false: id}[strings.HasPrefix(id, "S")]
			if id == "DL" {
				key = "DL5"
			}
			if l.ids[key] == "" {
				return nil, fmt.Errorf("question %s %q: no entry %s", id, q.text, key)
			}
			q.answers = []string{l.ids[key]}
		}
	}
	return qs, nil
}

var weekKeys = []string{"W1", "W2", "W3", "W4", "W5"}

// weekAnswered is the rule for a question about all of last week: the
// context holds at least 3 of its 5 items.
const weekAnswered = 3

// lastingKeys are the entries that must be in the view at the end: the
// lasting facts and decisions, the reversed decisions as they stand, and
// the launch date as it stands.
func lastingKeys() []string {
	var keys []string
	for i := 1; i <= 11; i++ {
		keys = append(keys, fmt.Sprintf("F%d", i))
	}
	for i := 1; i <= 22; i++ {
		keys = append(keys, fmt.Sprintf("D%d", i))
	}
	for i := 1; i <= 11; i++ {
		keys = append(keys, fmt.Sprintf("S%d-new", i))
	}
	return append(keys, "DL5")
}

// staleKeys are the entries a later one overrides.
func staleKeys() []string {
	var keys []string
	for i := 1; i <= 11; i++ {
		keys = append(keys, fmt.Sprintf("S%d-old", i))
	}
	return append(keys, "DL1", "DL2", "DL3", "DL4")
}

// copyTree copies the workspace src to a new folder under parent, so
// that each way of asking starts from the same memory and recall state.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
}

// viewLines maps each entry ID the text shows with "(id X)" to its line.
func viewLines(text string) map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(text, "\n") {
		for _, m := range idPattern.FindAllStringSubmatch(line, -1) {
			out[m[1]] = line
		}
	}
	return out
}

// asked is what one way of asking found.
type asked struct {
	lexicon       bool
	view          string            // the SessionStart context
	viewChars     int               // its length as the client counts it
	inView        map[string]string // ID -> its line in the view
	recalled      [][]string        // per question, the IDs recall added
	recallText    []string          // per question, what recall added
	bm25          [][]string        // per question, BM25's best entries, as many as recall added
	times         []time.Duration   // UserPromptSubmit, in process
	recalls       int               // prompts that got a recall
	worthReviving int               // of them, those with a "worth reviving" line
}

// ask opens a copy of the lived workspace on storyToday, takes a fresh
// SessionStart's view and asks every question in a fresh session.
func ask(l *lived, parent string, qs []question, lexicon bool) (*asked, error) {
	// A name of the same length for each way of asking: the view's room
	// depends on the length of the workspace's path, which it names.
	dir := l.dir + map[bool]string{false: "-ask-0", true: "-ask-1"}[lexicon]
	if err := copyTree(l.dir, dir); err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	cfg := memfile.DefaultConfig()
	store, err := store.OpenStore(dir, cfg, store.StoreOptions{LockTimeout: 2 * time.Second, Today: storyToday, NoSync: true})
	if err != nil {
		return nil, err
	}
	env := hooks.Env{Store: store, Config: cfg, Settings: hooks.DefaultSettings(), Today: storyToday, Binary: "bimri-hook"}
	if !setLexicon(&env.Settings, lexicon) && lexicon {
		return nil, fmt.Errorf("this tree's recall has no lexicon")
	}
	a := &asked{lexicon: lexicon}
	out, err := hooks.Handle(env, hooks.Input{Event: event.SessionStart, SessionID: "start", Source: "startup", Cwd: dir})
	if err != nil {
		return nil, err
	}
	a.view = strings.ReplaceAll(contextOf(out), dir, workspaceStandIn)
	a.viewChars = memfile.Length(a.view)
	a.inView = viewLines(a.view)
	docs, err := allEntries(store)
	if err != nil {
		return nil, err
	}
	ix := bm25.New(docs.texts)
	for i, q := range qs {
		start := time.Now()
		out, err := hooks.Handle(env, hooks.Input{Event: event.UserPromptSubmit, SessionID: fmt.Sprintf("q%d", i), Prompt: q.text, Cwd: dir})
		a.times = append(a.times, time.Since(start))
		if err != nil {
			return nil, err
		}
		added := strings.ReplaceAll(contextOf(out), dir, workspaceStandIn)
		var rec []string
		for id := range idsIn(added) {
			rec = append(rec, id)
		}
		slices.Sort(rec)
		a.recalled = append(a.recalled, rec)
		var baseline []string
		for _, d := range ix.Top(q.text, len(rec)) {
			baseline = append(baseline, docs.ids[d])
		}
		a.bm25 = append(a.bm25, baseline)
		a.recallText = append(a.recallText, added)
		if added != "" {
			a.recalls++
			if strings.Contains(added, "worth reviving") {
				a.worthReviving++
			}
		}
	}
	return a, nil
}

// behaviour is how an agent records.
type behaviour struct {
	key               string // its name in the test
	answers, keywords bool
	name              string
}

// behaviours are the agents the scenario is lived with. The third is the
// second without keywords: an agent that ignores remember's hint to add
// the words a later question would use, as the agents of evaluations
// we did not write do.
var behaviours = []behaviour{
	{"records", false, true, "only records (never answers the supersession question)"},
	{"answers", true, true, "answers the supersession question (remember --supersedes for each reversal)"},
	{"nokeywd", true, false, "answers the supersession question but writes no keywords (ignores the hint)"},
}

// result is one behaviour's workspace and what each way of asking found.
type result struct {
	l             *lived
	without, with *figures // with is nil where the tree has no lexicon
}

// clinicflow lives the scenario once per agent behaviour and asks the
// questions without and (where the tree has one) with the lexicon.
func clinicflow(parent string, seed uint64) ([]result, []question, error) {
	var out []result
	var qs []question
	for _, b := range behaviours {
		l, err := live(parent, seed, b)
		if err != nil {
			return nil, nil, err
		}
		if qs, err = l.questions(); err != nil {
			return nil, nil, err
		}
		r := result{l: l}
		a, err := ask(l, parent, qs, false)
		if err != nil {
			return nil, nil, err
		}
		f := measure(l, qs, a)
		r.without = &f
		if setLexicon(&hooks.Settings{}, true) {
			a, err := ask(l, parent, qs, true)
			if err != nil {
				return nil, nil, err
			}
			f := measure(l, qs, a)
			r.with = &f
		}
		out = append(out, r)
	}
	return out, qs, nil
}

// evalDir makes the folder the workspaces live in: under the system's
// temporary folder, with a name of fixed length (MkdirTemp's is not),
// since the view names the workspace's path and its length moves the
// view's room. make eval and its test get the same figures.
func evalDir() (string, error) {
	parent := filepath.Join(os.TempDir(), fmt.Sprintf("bimri-eval-%08x", rand.Uint32()))
	return parent, os.Mkdir(parent, 0o755)
}

func runClinicflow(w io.Writer, seed uint64, showView bool) error {
	parent, err := evalDir()
	if err != nil {
		return err
	}
	defer os.RemoveAll(parent)
	start := time.Now()
	results, qs, err := clinicflow(parent, seed)
	if err != nil {
		return err
	}
	l := results[0].l
	count := map[string]int{}
	for _, q := range qs {
		count[q.kind]++
	}
	fmt.Fprintf(w, "## Clinicflow: nine months of a project (seed %d)\n\n", seed)
	fmt.Fprintf(w, "%d working days from %s to %s, two sessions a day, %d entries recorded through internal/record (a busy day of 40 long entries on %s); asked on %s, each question in a fresh session: %d in the entries' own words, %d in other words (%d lasting, %d as things stand now, %d about last week), %d with no answer in memory; recall@%d; lived and asked in %.1f s\n\n",
		l.days, storyStart.Format(time.DateOnly), busyDay.Format(time.DateOnly), l.entries, busyDay.Format(time.DateOnly), storyToday.Format(time.DateOnly),
		count["same"], count["other"]+count["current"]+count["week"], count["other"], count["current"], count["week"], count["none"],
		hooks.DefaultSettings().Recall.Items, time.Since(start).Seconds())
	for i, r := range results {
		report(w, r.l, behaviours[i].name, r.without, r.with)
	}
	if showView {
		fmt.Fprintf(w, "### The view at the end (agent that answers)\n\n%s\n", results[1].without.view)
	}
	return nil
}

// entries are a workspace's entries, file and archive, for the BM25
// baseline: each ID once, with its last text.
type entries struct{ ids, texts []string }

func allEntries(store *store.Store) (entries, error) {
	read, err := store.Read()
	if err != nil {
		return entries{}, err
	}
	recs, err := store.ReadArchive()
	if err != nil {
		return entries{}, err
	}
	var all entries
	at := map[string]int{}
	add := func(id, text string) {
		if i, ok := at[id]; ok {
			all.texts[i] = text
			return
		}
		at[id] = len(all.ids)
		all.ids, all.texts = append(all.ids, id), append(all.texts, text)
	}
	for _, r := range recs {
		if r.Entry != nil {
			add(r.Entry.ID, r.Entry.Text)
		}
	}
	for t := 1; t <= 2; t++ {
		for _, e := range read.File.Entries(t) {
			add(e.ID, e.Text)
		}
	}
	return all, nil
}
