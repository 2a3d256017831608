//go:build bench

package main

// Over 500 lines: the entry mix, the session loop and the measure of how
// the memory serves the next session are one simulation whose figures
// docs/reliability.md quotes; the printing is in report.go.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/bimri/bimri-hook/hooks"
	"github.com/bimri/bimri-hook/internal/event"
	"github.com/bimri/bimri-hook/internal/simulate"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
)

// Start is the first simulated day when -today is not given, so that the
// same seed gives the same output on any day it is run.
const Start = "2026-01-01"

// Simulation says what a run lives through.
type Simulation struct {
	Sessions int
	PerDay   int    // sessions per day; the date moves on after each PerDay sessions
	Seed     uint64 // the same seed gives the same mix, so the same output
	Start    time.Time
	Config   memfile.Config
	Settings hooks.Settings
	Binary   string // the command the context tells the agent to run
}

// SessionStats is what one simulated session left behind.
type SessionStats struct {
	Number int
	Date   time.Time
	// Tokens is the file's estimate after SessionEnd.
	Tokens memfile.Tokens
	// PeakTotal is the largest total estimate after any pass in the session
	// (SessionStart, Stop, SessionEnd). remember never prunes, so between a
	// remember and the next pass the file may briefly hold that turn's new
	// entries beyond the budget; what the budget governs is the file each
	// pass leaves.
	PeakTotal int
	// Context is the length of SessionStart's additionalContext, counted
	// as Claude Code counts its 10,000-character cap (memfile.Length).
	Context  int
	Archived int // entries and patterns moved to the archive in the session
}

// The mix of entries a simulated session records: documented here because
// the long-run figures mean something only against it.
var (
	// importanceMix is the chance, in percent, of each importance 1-5:
	// mostly routine work (2-3), some key decisions (4), few foundational
	// facts (5).
	importanceMix = [5]int{15, 30, 30, 18, 7}
	// simulatedTopics are the tags entries draw from. A tag is the smaller
	// of two uniform draws from the list, so the first topics recur most,
	// as a project's main areas do, and become patterns.
	simulatedTopics = []string{"api", "database", "testing", "auth", "ui", "deploy", "docs", "performance", "config", "security", "cli", "billing"}
)

const (
	// intakeAnswers is how many Tier 1 entries the first session records:
	// the answers to the intake's 3-5 orientation questions.
	intakeAnswers = 4
	// tier1Percent is the chance that an importance-5 entry goes to Tier 1
	// rather than Tier 2. Real users' Tier 1 grows slowly: after the intake
	// a foundational fact that changes every future session is rare.
	tier1Percent = 3
	// tier1Cap bounds Tier 1 in the simulation. Tier 1 never decays and is
	// never pruned automatically (deep maintenance asks the agent to review
	// it), so without a bound a long run would measure only how fast Tier 1
	// outgrows the file, which no maintenance rule can fix.
	tier1Cap = 12
	// simulationStream is the PCG stream, fixed so only the seed varies.
	simulationStream = 0x62696d7269 // "bimri"
)

var (
	simulatedVerbs    = []string{"Fixed", "Added", "Refactored", "Decided on", "Documented", "Investigated", "Tuned", "Removed", "Reviewed", "Migrated"}
	simulatedThings   = []string{"request handling", "error messages", "the schema", "retry limits", "the login flow", "page layout", "the release pipeline", "caching", "input validation", "logging"}
	simulatedOutcomes = []string{"tests pass", "the user approved it", "a follow-up is open", "shipped to staging", "it needs a benchmark", "no regressions seen", "the old path is gone"}
)

// simulatedEntry draws one remember call from the mix.
type simulatedEntry struct {
	Tier, Importance int
	Tags             []string
	Text             string
}

// mixer draws the entries of a simulation from a seeded generator.
type mixer struct {
	rng *rand.Rand
}

func newMixer(seed uint64) mixer {
	return mixer{rng: rand.New(rand.NewPCG(seed, simulationStream))}
}

func (m mixer) importance() int {
	n := m.rng.IntN(100)
	for i, p := range importanceMix {
		if n < p {
			return i + 1
		}
		n -= p
	}
	return 3
}

func (m mixer) topic() string {
	n := len(simulatedTopics)
	return simulatedTopics[min(m.rng.IntN(n), m.rng.IntN(n))]
}

func (m mixer) pick(list []string) string { return list[m.rng.IntN(len(list))] }

// entry draws one entry for session n; tier1 is how many Tier 1 entries
// the file holds.
func (m mixer) entry(n, tier1 int) simulatedEntry {
	e := simulatedEntry{Tier: 2, Importance: m.importance()}
	if e.Importance == 5 && tier1 < tier1Cap && m.rng.IntN(100) < tier1Percent {
		e.Tier = 1
	}
	topic := m.topic()
	e.Tags = []string{topic}
	if m.rng.IntN(100) < 40 {
		if other := m.topic(); other != topic {
			e.Tags = append(e.Tags, other)
		}
	}
	e.Text = fmt.Sprintf("%s %s in %s; %s (session %d).", m.pick(simulatedVerbs), m.pick(simulatedThings), topic, m.pick(simulatedOutcomes), n)
	return e
}

// intake is the first session's Tier 1 entries.
func intakeEntries() []simulatedEntry {
	answers := []string{
		"This project is a web service for booking shared meeting rooms.",
		"The user's primary focus this quarter is the billing integration.",
		"The user prefers small reviewed changes and tests before refactors.",
		"Constraint: everything must run on the company's PostgreSQL 15 cluster.",
	}
	var out []simulatedEntry
	for _, a := range answers[:intakeAnswers] {
		out = append(out, simulatedEntry{Tier: 1, Importance: 5, Tags: []string{"intake"}, Text: a})
	}
	return out
}

// Serving is how well the memory serves the session after the run's last:
// what it was told at SessionStart the next morning, against everything
// the run recorded.
type Serving struct {
	Recorded int // entries recorded
	// Lost are recorded entries neither in bimri.md nor in the archive.
	Lost []string
	// Decisions (importance 5) and Recent entries (recorded on the last two
	// days, importance 2 or more: importance 1 is under the threshold on
	// its day): how many were recorded, how many are in bimri.md - as
	// themselves, or in the line that took their place, followed through
	// the archive's "consolidated into ID" and "merged into ID" (a
	// promoted entry keeps its ID) - and how many of those lines are in
	// the SessionStart view. DecisionsWorded counts the decisions whose
	// line still says them: their own text, or a summary that keeps them
	// in a few words (item).
	Decisions, DecisionsKept, DecisionsShown, DecisionsWorded int
	Recent, RecentKept, RecentShown                           int
	// Consolidated and Promoted count what the simulated agent did when
	// SessionStart asked (FoldedDecisions: the consolidations of
	// decisions); Named the patterns it gave a sentence.
	Consolidated, FoldedDecisions, Promoted, Named int
	Tokens                                         memfile.Tokens // the file at the end
	// Context is the last SessionStart's context, in UTF-16 units, and
	// View that context; Lasting is what Tier 1 and the decisions take in
	// the view and Room the room they have (memfile.LastingRoom).
	Context       int
	View          string
	Lasting, Room int
}

// Serve lives the simulation's sessions in a temporary workspace, each
// as Claude Code would run it: SessionStart, one to three remember calls,
// Stop, SessionEnd, and then measures how the memory serves the next
// session. Events go through hooks.Decode and hooks.Handle and entries
// through the store as the remember command writes them, so the figures
// are the real code's. each, when set, sees every session as it ends. The
// workspace is removed afterwards, also when ctx ends the run early
// (Ctrl-C).
func Serve(ctx context.Context, sim Simulation, each func(SessionStats)) ([]SessionStats, Serving, error) {
	stats, s, err := lifetime(ctx, sim, each)
	if err != nil {
		return stats, Serving{}, err
	}
	defer os.RemoveAll(filepath.Dir(s.store.Root()))
	sv, err := s.serving(len(stats))
	return stats, sv, err
}

// lifetime lives the sessions and hands back the simulator, whose
// workspace Serve then measures and removes.
func lifetime(ctx context.Context, sim Simulation, each func(SessionStats)) (stats []SessionStats, s *simulator, err error) {
	if sim.Sessions < 1 || sim.PerDay < 1 {
		return nil, nil, fmt.Errorf("simulation needs at least one session and one per day, got %d and %d", sim.Sessions, sim.PerDay)
	}
	tmp, err := os.MkdirTemp("", "bimri-simulate-")
	if err != nil {
		return nil, nil, fmt.Errorf("temporary workspace: %w", err)
	}
	// Serve removes the workspace after measuring it; on an error, here.
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()
	// The context's remember command names the workspace, so the room left
	// for memory depends on the length of its path. MkdirTemp's random part
	// varies in length; padding the folder name keeps the path's length,
	// and so the output, the same from run to run.
	root := filepath.Join(tmp, "workspace"+strings.Repeat("_", max(0, 30-len(filepath.Base(tmp)))))
	if err := os.Mkdir(root, 0o755); err != nil {
		return nil, nil, fmt.Errorf("temporary workspace: %w", err)
	}
	store, err := openStore(root, sim, time.Time{})
	if err != nil {
		return nil, nil, err
	}
	s = &simulator{
		sim:   sim,
		store: store,
		home:  filepath.Join(tmp, "home"),
		mix:   newMixer(sim.Seed),
		aged:  map[string]bool{},
	}
	stats = make([]SessionStats, 0, sim.Sessions)
	for n := 1; n <= sim.Sessions; n++ {
		if err := ctx.Err(); err != nil {
			return stats, nil, fmt.Errorf("simulation stopped after %d sessions: %w", n-1, err)
		}
		st, err := s.session(n)
		if err != nil {
			return stats, nil, fmt.Errorf("simulated session %d: %w", n, err)
		}
		stats = append(stats, st)
		if each != nil {
			each(st)
		}
	}
	return stats, s, nil
}

// openStore opens the simulated workspace's store on day, whose clock
// stands still at day (it dates the archive records); a zero day keeps
// the real clock. A folder removed at the end needs no durability.
func openStore(root string, sim Simulation, day time.Time) (*store.Store, error) {
	opt := store.StoreOptions{LockTimeout: sim.Settings.LockTimeout, NoSync: true}
	if !day.IsZero() {
		opt.Clock = func() time.Time { return day }
	}
	return store.OpenStore(root, sim.Config, opt)
}

// simulator carries one simulation's workspace between its sessions.
type simulator struct {
	sim       Simulation
	store     *store.Store
	home      string
	mix       mixer
	tier1     int             // Tier 1 entries in the file after the last pass
	archived  int64           // bytes of the archive already counted
	aged      map[string]bool // state files already given their simulated date
	lastTotal int             // the header's total after the last event
	// recorded is every entry the run recorded.
	recorded []recordedEntry
	// What the simulated agent did when asked.
	consolidated, foldedDecisions, promoted, named int
}

type recordedEntry struct {
	id         string
	importance int
	date       time.Time
	text       string
}

func (s *simulator) session(n int) (SessionStats, error) {
	day := s.sim.Start.AddDate(0, 0, (n-1)/s.sim.PerDay)
	store, err := openStore(s.store.Root(), s.sim, day)
	if err != nil {
		return SessionStats{}, err
	}
	s.store = store
	env := hooks.Env{
		Store: s.store, Config: s.sim.Config, Settings: s.sim.Settings,
		Today: day, Binary: s.sim.Binary, ClaudeDir: filepath.Join(s.home, ".claude"),
	}
	id := fmt.Sprintf("00000000-0000-4000-8000-%012d", n)
	base := hooks.Input{SessionID: id, Cwd: s.store.Root(),
		TranscriptPath: filepath.Join(s.home, ".claude", "projects", "simulated", id+".jsonl")}
	st := SessionStats{Number: n, Date: day}

	start := base
	start.Event, start.Source = event.SessionStart, "startup"
	out, err := s.event(env, start, &st)
	if err != nil {
		return st, err
	}
	text, _ := simulate.ContextText(out)
	st.Context = memfile.Length(text)
	if err := s.followAdvice(text, day); err != nil {
		return st, err
	}

	var entries []simulatedEntry
	if n == 1 {
		entries = intakeEntries()
	}
	for range 1 + s.mix.rng.IntN(3) {
		entries = append(entries, s.mix.entry(n, s.tier1))
	}
	for _, e := range entries {
		if err := s.remember(e, day); err != nil {
			return st, err
		}
		if e.Tier == 1 {
			s.tier1++
		}
	}

	stop := base
	stop.Event = event.Stop
	if _, err := s.event(env, stop, &st); err != nil {
		return st, err
	}
	end := base
	end.Event, end.Reason = event.SessionEnd, "other"
	if _, err := s.event(env, end, &st); err != nil {
		return st, err
	}
	read, err := s.store.Read()
	if err != nil {
		return st, err
	}
	f := read.File
	st.Tokens = memfile.Estimate(f)
	if s.lastTotal != st.Tokens.Total {
		// The peak is read from the header; if the two ever disagreed, the
		// figures this simulation prints would be wrong.
		return st, fmt.Errorf("the header says ~%d tokens, the estimate %d", s.lastTotal, st.Tokens.Total)
	}
	s.tier1 = len(f.Entries(1))
	s.ageState(day)
	st.Archived, err = s.newlyArchived()
	return st, err
}

// event runs one payload through the decoder and the handlers, then
// notes the total the pass left.
func (s *simulator) event(env hooks.Env, p hooks.Input, st *SessionStats) (hooks.Output, error) {
	in, err := hooks.Decode(simulate.Payload(p))
	if err != nil {
		return hooks.Output{}, err
	}
	out, err := hooks.Handle(env, in)
	if err != nil {
		return out, fmt.Errorf("%s: %w", in.Event, err)
	}
	total, err := s.tokenEstimate()
	if err != nil {
		return out, err
	}
	st.PeakTotal = max(st.PeakTotal, total)
	s.lastTotal = total
	return out, nil
}

// tokenEstimate is the total the file's header records, which Render
// writes as memfile.Estimate(f).Total every time it writes the file:
// reading one line instead of parsing the file keeps a long simulation
// fast; session checks it against memfile.Estimate after every SessionEnd.
func (s *simulator) tokenEstimate() (int, error) {
	f, err := os.Open(s.store.Path(s.store.Names().Memory))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadString('\n')
	if err != nil {
		return 0, fmt.Errorf("read %s: %w", s.store.Names().Memory, err)
	}
	m := tokenEst.FindStringSubmatch(strings.TrimSpace(line))
	if m == nil {
		return 0, fmt.Errorf("%s has no token estimate in its header: %q", s.store.Names().Memory, line)
	}
	return strconv.Atoi(m[1])
}

// tokenEst is the token estimate in the header line Render writes.
var tokenEst = regexp.MustCompile(`^<!-- BIMRI v\S* \| .*\| Token Est: ~(\d+) -->$`)

// ageState gives the state files written in this session the simulated
// date. The handlers prune state by its age against Store.Now, which here
// is the simulated day; with the wall clock's date the files of a long,
// compressed run would pile up (or all look ancient) instead of ageing as
// they do over real days.
func (s *simulator) ageState(day time.Time) {
	dir := s.store.StatePath()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if name := e.Name(); strings.HasSuffix(name, ".json") && !s.aged[name] {
			_ = os.Chtimes(filepath.Join(dir, name), day, day)
			s.aged[name] = true
		}
	}
}

// remember records an entry as the remember command does.
func (s *simulator) remember(e simulatedEntry, day time.Time) error {
	_, err := s.store.Update(func(tx *store.Tx) error {
		got, isNew, err := tx.File.Remember(memfile.NewEntry{Tier: e.Tier, Importance: e.Importance, Date: day, Tags: e.Tags, Text: e.Text}, s.sim.Config)
		if err == nil && isNew {
			s.recorded = append(s.recorded, recordedEntry{got.ID, got.Importance, day, got.Text})
		}
		return err
	})
	return err
}

// The commands SessionStart gives the agent, as the simulated agent reads
// them from its context.
var (
	askedToReplace = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^  \S+ remember --dir \S+ --replaces ([0-9a-z,]+) -- `)
	})
	askedToPromote = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^  \S+ remember --dir \S+ --promote ([0-9a-z]+)$`)
	})
	askedToName = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^  \S+ remember --dir \S+ --tier 3 --tags (\S+) -- `)
	})
	// simulatedText reads back what entry draws: the verb and the thing
	// are what was done; the topic is the tag, the outcome the story.
	simulatedText = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(` + strings.Join(simulatedVerbs, "|") + `) (?:the )?(.+?) in \S+; .+ \(session \d+\)\.$`)
	})
)

// followAdvice plays a cooperative agent: it runs what the SessionStart
// context asked of it (consolidate the entries it names, promote the
// decision, write the pattern's sentence) as those commands would.
func (s *simulator) followAdvice(context string, day time.Time) error {
	replace := askedToReplace().FindAllStringSubmatch(context, -1)
	promote := askedToPromote().FindStringSubmatch(context)
	name := askedToName().FindStringSubmatch(context)
	if replace == nil && promote == nil && name == nil {
		return nil
	}
	_, err := s.store.Update(func(tx *store.Tx) error {
		for _, r := range replace {
			ids := strings.Split(r[1], ",")
			e, gone, err := tx.File.Consolidate(ids, summaryOf(tx.File, ids))
			if err != nil {
				return fmt.Errorf("consolidating as asked: %w", err)
			}
			tier := 2
			if _, t := tx.File.Find(e.ID); t == 1 {
				tier = 1
			}
			e.Weigh(tier, day, s.sim.Config)
			tx.Archive = append(tx.Archive, gone...)
			s.consolidated++
			if e.Importance >= 5 {
				s.foldedDecisions++
			}
		}
		if promote != nil {
			if _, err := tx.File.Promote(promote[1]); err != nil {
				return fmt.Errorf("promoting as asked: %w", err)
			}
			s.promoted++
		}
		if name != nil {
			tags := memfile.SplitTags(name[1])
			if _, _, err := tx.File.WritePattern(tags, fmt.Sprintf("Work on %s comes back every few sessions; plan for it.", strings.Join(tags, " and ")), day); err != nil {
				return fmt.Errorf("naming a pattern as asked: %w", err)
			}
			s.named++
		}
		return nil
	})
	return err
}

// summaryOf is the summary the simulated agent writes for the entries it
// was asked to replace: their common tag, then what each says in a few
// words ("decided on caching"), without the story around it (the topic,
// which the tags keep, and the outcome), each said once. A summary it
// wrote before is taken apart into its items again. It is what a model
// asked for "one compact summary that keeps each decision" would write,
// and it stays within the limit for a text: were it longer, the oldest
// items give way to a count that points to the archive.
func summaryOf(f *memfile.File, ids []string) string {
	var entries []*memfile.Entry
	for _, id := range ids {
		if e, _ := f.Find(id); e != nil {
			entries = append(entries, e)
		}
	}
	tag := entries[0].Tags[0]
	for _, t := range entries[0].Tags {
		shared := true
		for _, e := range entries[1:] {
			shared = shared && slices.Contains(e.Tags, t)
		}
		if shared {
			tag = t
			break
		}
	}
	kind := "work"
	if entries[0].Importance >= 5 {
		kind = "decisions"
	}
	var items []string
	for _, e := range entries {
		for _, it := range itemsOf(e.Text) {
			if !slices.Contains(items, it) {
				items = append(items, it)
			}
		}
	}
	head := tag + " " + kind + ": "
	text := head + strings.Join(items, "; ") + "."
	for dropped := 1; utf8.RuneCountInString(text) > memfile.MaxTextRunes && dropped < len(items); dropped++ {
		text = head + strings.Join(items[dropped:], "; ") + fmt.Sprintf("; and %d earlier (in the archive).", dropped)
	}
	return text
}

// itemsOf says an entry's text in a few words: one item for an entry as
// recorded, the items of a summary the agent wrote.
func itemsOf(text string) []string {
	if m := simulatedText().FindStringSubmatch(text); m != nil {
		return []string{item(text)}
	}
	if head, rest, ok := strings.Cut(text, ": "); ok && (strings.HasSuffix(head, " decisions") || strings.HasSuffix(head, " work")) {
		rest = strings.TrimSuffix(rest, ".")
		if i := strings.Index(rest, "; and "); i >= 0 && strings.HasSuffix(rest, " earlier (in the archive)") {
			rest = rest[:i]
		}
		return strings.Split(rest, "; ")
	}
	return []string{strings.TrimSuffix(text, ".")}
}

// item is what the simulated agent keeps of an entry as recorded when it
// summarises it: "Decided on the schema in api; ..." becomes "decided on
// schema". Texts it did not draw are kept whole.
func item(text string) string {
	m := simulatedText().FindStringSubmatch(text)
	if m == nil {
		return strings.TrimSuffix(text, ".")
	}
	return strings.ToLower(m[1]) + " " + m[2]
}

// serving opens the session after the run's last, on its last day, and
// measures what it is told against what was recorded.
func (s *simulator) serving(sessions int) (Serving, error) {
	sv := Serving{Recorded: len(s.recorded), Consolidated: s.consolidated, FoldedDecisions: s.foldedDecisions, Promoted: s.promoted, Named: s.named}
	day := s.sim.Start.AddDate(0, 0, (sessions-1)/s.sim.PerDay)
	env := hooks.Env{Store: s.store, Config: s.sim.Config, Settings: s.sim.Settings, Today: day, Binary: s.sim.Binary, ClaudeDir: filepath.Join(s.home, ".claude")}
	p := hooks.Input{Event: event.SessionStart, Source: "startup", SessionID: "00000000-0000-4000-8000-999999999999", Cwd: s.store.Root()}
	in, err := hooks.Decode(simulate.Payload(p))
	if err != nil {
		return sv, err
	}
	out, err := hooks.Handle(env, in)
	if err != nil {
		return sv, err
	}
	view, _ := simulate.ContextText(out)
	sv.Context = memfile.Length(view)
	sv.View = view
	read, err := s.store.Read()
	if err != nil {
		return sv, err
	}
	f := read.File
	sv.Tokens = memfile.Estimate(f)
	tier1, decisions := memfile.Lasting(f)
	sv.Lasting = tier1 + decisions
	sv.Room, _ = memfile.LastingRoom(s.sim.Config)
	recs, err := s.store.ReadArchive()
	if err != nil {
		return sv, err
	}
	// Where each entry that left the file went: the archive's reason
	// names the entry that took its place when it was consolidated or
	// merged.
	archived := map[string]string{}
	for _, r := range recs {
		if r.Entry != nil {
			archived[r.Entry.ID] = r.Reason
		}
	}
	// The memory view is what precedes the instructions; only an entry's
	// own line there, "(id ...)", counts as shown.
	memory, _, _ := strings.Cut(view, "\n\n## How to use this memory")
	for _, e := range s.recorded {
		id, holder := e.id, (*memfile.Entry)(nil)
		for range len(archived) + 1 { // each step follows one record; no cycle can be longer
			if holder, _ = f.Find(id); holder != nil {
				break
			}
			into, ok := replacedBy(archived[id])
			if !ok {
				break
			}
			id = into
		}
		if _, ok := archived[e.id]; !ok && id == e.id && holder == nil {
			sv.Lost = append(sv.Lost, e.id)
		}
		recent := memfile.DaysBetween(e.date, day) <= 1 && e.importance >= 2
		if e.importance < 5 && !recent {
			continue
		}
		shown := holder != nil && strings.Contains(memory, "(id "+holder.ID+")")
		if e.importance == 5 {
			sv.Decisions++
			sv.DecisionsKept += b2i(holder != nil)
			sv.DecisionsShown += b2i(shown)
			// The line that holds it says it: its own text, or a summary
			// that keeps it in a few words.
			sv.DecisionsWorded += b2i(holder != nil && (holder.ID == e.id || strings.Contains(holder.Text, item(e.text))))
		}
		if recent {
			sv.Recent++
			sv.RecentKept += b2i(holder != nil)
			sv.RecentShown += b2i(shown)
		}
	}
	return sv, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// newlyArchived counts the archive records written since the last call,
// reading only the part of the archive that is new.
func (s *simulator) newlyArchived() (int, error) {
	f, err := os.Open(s.store.Path(s.store.Names().Archive))
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	defer f.Close()
	if _, err := f.Seek(s.archived, 0); err != nil {
		return 0, err
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return 0, err
	}
	s.archived += int64(len(data))
	recs, _ := memfile.ParseArchive(data)
	return len(recs), nil
}

// replacedBy is the ID of the entry that took an archived one's place
// (Consolidate, a deep merge), from its archive reason.
func replacedBy(reason string) (string, bool) {
	for _, prefix := range []string{"consolidated into ", "merged into "} {
		if id, ok := strings.CutPrefix(reason, prefix); ok {
			return id, true
		}
	}
	return "", false
}
