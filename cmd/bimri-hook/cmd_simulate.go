package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/hooks"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/urfave/cli/v2"
)

// simulatedSession is the session ID simulate puts in a payload unless
// --session says otherwise. It is fixed so that runs are reproducible and
// so that repeated events belong to one session, as in Claude Code:
// SessionEnd counts a session ID once, however often it is simulated.
const simulatedSession = "00000000-0000-4000-8000-000000000000"

// simulatedEvents are the events simulate builds payloads for, spelled as
// Claude Code spells hook_event_name.
var simulatedEvents = []string{"SessionStart", "UserPromptSubmit", "Stop", "PreCompact", "SessionEnd", "SubagentStop"}

// The values Claude Code 2.1.328 sends in each event's own field.
var (
	sessionSources = []string{"startup", "resume", "clear", "compact"}
	endReasons     = []string{"other", "clear", "resume", "logout", "prompt_input_exit"}
	compactTrigger = []string{"manual", "auto"}
)

// eventFlags says which events each event-only flag applies to, so a flag
// that would be ignored is refused instead.
var eventFlags = []struct {
	flag   string
	events []string
}{
	{"prompt", []string{"UserPromptSubmit"}},
	{"source", []string{"SessionStart"}},
	{"reason", []string{"SessionEnd"}},
	{"trigger", []string{"PreCompact"}},
	{"stop-hook-active", []string{"Stop", "SubagentStop"}},
	{"context-only", []string{"SessionStart", "UserPromptSubmit"}},
}

// sessionsFlags belong to the --sessions mode only.
var sessionsFlags = []string{"per-day", "seed", "profile"}

func (a *app) simulateCommand() *cli.Command {
	return &cli.Command{
		Name:  "simulate",
		Usage: "run one hook event as Claude Code would, or live many sessions in a throwaway workspace",
		UsageText: `bimri-hook simulate EVENT [--prompt TEXT] [--source S] [--reason R] [--trigger T] [--session ID] [--stop-hook-active] [--transcript PATH] [--context-only] [--verbose]
bimri-hook simulate --sessions N [--per-day K] [--seed S] [--profile claude-code|cowork]

EVENT is SessionStart, UserPromptSubmit, Stop, PreCompact, SessionEnd or SubagentStop (any case).
simulate EVENT builds the payload Claude Code would send for this workspace, runs it through the
same code as 'bimri-hook hook', and prints exactly what Claude Code would receive on stdout.
The session ID is ` + simulatedSession + ` unless --session says otherwise.

simulate --sessions never touches this workspace: it lives N sessions in a temporary folder it
removes afterwards, through the same handlers as the hook. Each session is SessionStart, 1-3
remember calls, Stop, SessionEnd; K sessions a day (--per-day), the first on --today
(BIMRI_TODAY), else ` + simulationStart + `. The mix: importance 1-5 at 15/30/30/18/7 percent; the
first session records 4 intake answers in Tier 1; later an importance-5 entry goes to Tier 1 3%
of the time, while Tier 1 holds fewer than 12 (real Tier 1s grow slowly); 1-2 tags from 12
topics, the first topics most often. The same seed gives the same output, byte for byte.
Each line: the file's estimated tokens per tier after SessionEnd, what the session archived,
and a bar of the total against the total budget. The summary gives the largest total after any
pass, the largest SessionStart context against its cap, and everything archived.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "prompt", Usage: "UserPromptSubmit: the user's `TEXT`"},
			&cli.StringFlag{Name: "source", Value: "startup", Usage: "SessionStart: " + strings.Join(sessionSources, ", ")},
			&cli.StringFlag{Name: "reason", Value: "other", Usage: "SessionEnd: " + strings.Join(endReasons, ", ")},
			&cli.StringFlag{Name: "trigger", Value: "manual", Usage: "PreCompact: " + strings.Join(compactTrigger, ", ")},
			&cli.StringFlag{Name: "session", Value: simulatedSession, Usage: "the session `ID`"},
			&cli.BoolFlag{Name: "stop-hook-active", Usage: "Stop, SubagentStop: the turn follows a Stop that blocked"},
			&cli.StringFlag{Name: "transcript", Usage: "transcript `PATH` (default: where Claude Code keeps this session's)"},
			&cli.BoolFlag{Name: "context-only", Usage: "print only the additionalContext text, decoded"},
			&cli.BoolFlag{Name: "verbose", Usage: "describe the payload and the answer on stderr"},
			&cli.IntFlag{Name: "sessions", Usage: "live `N` sessions in a temporary workspace"},
			&cli.IntFlag{Name: "per-day", Value: 2, Usage: "sessions per simulated day"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of the entry mix"},
			&cli.StringFlag{Name: "profile", Usage: "config profile: " + strings.Join(memfile.ProfileNames, ", ") + " (default: --config, else claude-code)"},
		},
		Action: func(c *cli.Context) error {
			if err := readTrailingFlags(c); err != nil {
				return err
			}
			if c.Bool("help") {
				return cli.ShowCommandHelp(c.Lineage()[1], "simulate")
			}
			if c.IsSet("sessions") {
				if c.Args().Present() {
					return fmt.Errorf("simulate: give an EVENT or --sessions, not both")
				}
				return a.simulateSessions(c)
			}
			if !c.Args().Present() {
				return fmt.Errorf("simulate: %w: an EVENT (%s) or --sessions N", errNoArgs, strings.Join(simulatedEvents, ", "))
			}
			return a.simulateEvent(c, c.Args().First())
		},
	}
}

// readTrailingFlags reads flags written after EVENT. urfave/cli stops
// reading flags at the first argument, but `simulate Stop
// --stop-hook-active` is the natural order, so the rest of the arguments
// are read into the command's own flag set.
func readTrailingFlags(c *cli.Context) error {
	args := c.Args().Slice()
	if len(args) < 2 {
		return nil
	}
	isBool := map[string]bool{"help": true, "h": true} // every flag's name: is it a bool?
	for _, f := range c.Command.Flags {
		_, ok := f.(*cli.BoolFlag)
		for _, n := range f.Names() {
			isBool[n] = ok
		}
	}
	rest := args[1:]
	for i := 0; i < len(rest); i++ {
		arg := rest[i]
		if arg == "--" || !strings.HasPrefix(arg, "-") {
			return fmt.Errorf("usage: simulate takes one EVENT, got also %q (see --help)", arg)
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		boolean, known := isBool[name]
		if !known {
			// The words urfave/cli uses for a flag before EVENT.
			return fmt.Errorf("usage: flag provided but not defined: -%s (see --help)", name)
		}
		if !hasValue {
			if boolean {
				value = "true"
			} else {
				if i+1 == len(rest) {
					return fmt.Errorf("usage: flag needs an argument: %s (see --help)", arg)
				}
				i++
				value = rest[i]
			}
		}
		if err := c.Set(name, value); err != nil {
			return fmt.Errorf("usage: %s: %w (see --help)", arg, err)
		}
	}
	return nil
}

// canonicalEvent spells an event as Claude Code does, whatever its case.
func canonicalEvent(name string) (string, bool) {
	for _, e := range simulatedEvents {
		if strings.EqualFold(e, name) {
			return e, true
		}
	}
	return "", false
}

// oneOf checks a flag's value against the values Claude Code sends.
func oneOf(flag, value string, allowed []string) error {
	if slices.Contains(allowed, value) {
		return nil
	}
	return fmt.Errorf("--%s %q is not one of %s", flag, value, strings.Join(allowed, ", "))
}

// eventPayload is what simulate puts in one hook input.
type eventPayload struct {
	Event          string
	SessionID      string
	TranscriptPath string
	Cwd            string
	Source         string
	Reason         string
	Trigger        string
	Prompt         string
	StopHookActive bool
}

// jsonField is one key of a JSON object, kept in order.
type jsonField struct {
	key   string
	value any
}

// JSON builds the hook input with the keys, in the order, that Claude Code
// 2.1.328 sends for the event (testdata/hook-inputs). Fields whose value
// only the client can know (prompt IDs, model, effort) are left out: no
// handler reads them.
func (p eventPayload) JSON() []byte {
	fields := []jsonField{
		{"session_id", p.SessionID},
		{"transcript_path", p.TranscriptPath},
		{"cwd", p.Cwd},
	}
	event := jsonField{"hook_event_name", p.Event}
	switch p.Event {
	case "SessionStart":
		fields = append(fields, event, jsonField{"source", p.Source})
	case "UserPromptSubmit":
		fields = append(fields, jsonField{"permission_mode", "default"}, event, jsonField{"prompt", p.Prompt})
	case "Stop":
		fields = append(fields, jsonField{"permission_mode", "default"}, event,
			jsonField{"stop_hook_active", p.StopHookActive}, jsonField{"last_assistant_message", ""})
	case "PreCompact":
		fields = append(fields, event, jsonField{"trigger", p.Trigger}, jsonField{"custom_instructions", nil})
	case "SessionEnd":
		fields = append(fields, event, jsonField{"reason", p.Reason})
	case "SubagentStop":
		agent := "0000000000000000"
		fields = append(fields, jsonField{"permission_mode", "default"}, jsonField{"agent_id", agent}, jsonField{"agent_type", ""}, event,
			jsonField{"stop_hook_active", p.StopHookActive},
			jsonField{"agent_transcript_path", strings.TrimSuffix(p.TranscriptPath, ".jsonl") + "/subagents/agent-" + agent + ".jsonl"},
			jsonField{"last_assistant_message", ""})
	default:
		fields = append(fields, event)
	}
	var b bytes.Buffer
	b.WriteString("{\n")
	for i, f := range fields {
		key, _ := json.Marshal(f.key)
		value := marshalPlain(f.value)
		fmt.Fprintf(&b, "  %s: %s", key, value)
		if i < len(fields)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// marshalPlain encodes a string, bool or nil as JSON without HTML
// escaping, as Claude Code writes its payloads.
func marshalPlain(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // strings, bools and nil always encode
	return bytes.TrimRight(b.Bytes(), "\n")
}

// transcriptFor is where Claude Code keeps a session's transcript: under
// its config folder, in a folder named after the project path with every
// character that is not a letter or digit turned into "-".
func transcriptFor(root, session string) string {
	base := os.Getenv("CLAUDE_CONFIG_DIR")
	if base == "" {
		base = filepath.Join(homeDir(), ".claude")
	}
	slug := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, root)
	return filepath.Join(base, "projects", slug, session+".jsonl")
}

// simulateEvent runs one event for this workspace through the same code as
// the hook command and prints what Claude Code would receive.
func (a *app) simulateEvent(c *cli.Context, name string) error {
	event, ok := canonicalEvent(name)
	if !ok {
		return fmt.Errorf("simulate: unknown event %q (one of %s)", name, strings.Join(simulatedEvents, ", "))
	}
	for _, flag := range sessionsFlags {
		if c.IsSet(flag) {
			return fmt.Errorf("simulate: --%s goes with --sessions, not with an EVENT", flag)
		}
	}
	for _, f := range eventFlags {
		if c.IsSet(f.flag) && !slices.Contains(f.events, event) {
			return fmt.Errorf("simulate: --%s does not apply to %s (only to %s)", f.flag, event, strings.Join(f.events, ", "))
		}
	}
	checks := []struct {
		flag    string
		allowed []string
	}{{"source", sessionSources}, {"reason", endReasons}, {"trigger", compactTrigger}}
	for _, ch := range checks {
		if err := oneOf(ch.flag, c.String(ch.flag), ch.allowed); err != nil {
			return err
		}
	}
	session := c.String("session")
	if strings.TrimSpace(session) == "" {
		return errors.New("simulate: --session must not be empty")
	}

	root, err := resolveRoot(c, "")
	if err != nil {
		return err
	}
	transcriptPath := transcriptFor(root, session)
	if p := c.String("transcript"); p != "" {
		if transcriptPath, err = filepath.Abs(p); err != nil {
			return fmt.Errorf("--transcript %q: %w", p, err)
		}
	}
	payload := eventPayload{
		Event: event, SessionID: session, TranscriptPath: transcriptPath, Cwd: root,
		Source: c.String("source"), Reason: c.String("reason"), Trigger: c.String("trigger"),
		Prompt: c.String("prompt"), StopHookActive: c.Bool("stop-hook-active"),
	}.JSON()
	verbose := c.Bool("verbose")
	if verbose {
		printSimulatedPayload(a.stderr, payload)
	}

	in, err := hooks.Decode(payload)
	if err != nil {
		return err
	}
	out, err := a.handle(c, in)
	if err != nil {
		return fmt.Errorf("%s: %w", in.Event, err)
	}
	var stdout bytes.Buffer
	if c.Bool("context-only") {
		if text, ok := contextText(out); ok {
			stdout.WriteString(text + "\n")
		}
	} else if err := writeOutput(&stdout, out); err != nil {
		return err
	}
	if verbose {
		printSimulatedAnswer(a.stderr, stdout.Len(), out)
	}
	_, err = a.stdout.Write(stdout.Bytes())
	return err
}

// contextText is the additionalContext of an answer, if it has one.
func contextText(out hooks.Output) (string, bool) {
	spec, ok := out.JSON["hookSpecificOutput"].(map[string]any)
	if !ok {
		return "", false
	}
	text, ok := spec["additionalContext"].(string)
	return text, ok
}

// simulationStart is the first simulated day when --today is not given,
// so that the same seed gives the same output on any day it is run.
const simulationStart = "2026-01-01"

// simulation says what `simulate --sessions` lives through.
type simulation struct {
	Sessions int
	PerDay   int    // sessions per day; the date moves on after each PerDay sessions
	Seed     uint64 // the same seed gives the same mix, so the same output
	Start    time.Time
	Config   memfile.Config
	Settings hooks.Settings
	Binary   string // the command the context tells the agent to run
}

// sessionStats is what one simulated session left behind.
type sessionStats struct {
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

// simulateSessions lives the simulation's sessions in a temporary
// workspace, each as Claude Code would run it: SessionStart, one to three
// remember calls, Stop, SessionEnd. Events go through hooks.Decode and
// hooks.Handle and entries through the store as the remember command
// writes them, so the figures are the real code's. each, when set, sees
// every session as it ends. The workspace is removed afterwards, also when
// ctx ends the run early (Ctrl-C).
func simulateSessions(ctx context.Context, sim simulation, each func(sessionStats)) ([]sessionStats, error) {
	if sim.Sessions < 1 || sim.PerDay < 1 {
		return nil, fmt.Errorf("simulation needs at least one session and one per day, got %d and %d", sim.Sessions, sim.PerDay)
	}
	tmp, err := os.MkdirTemp("", "bimri-simulate-")
	if err != nil {
		return nil, fmt.Errorf("temporary workspace: %w", err)
	}
	defer os.RemoveAll(tmp)
	// The context's remember command names the workspace, so the room left
	// for memory depends on the length of its path. MkdirTemp's random part
	// varies in length; padding the folder name keeps the path's length,
	// and so the output, the same from run to run.
	root := filepath.Join(tmp, "workspace"+strings.Repeat("_", max(0, 30-len(filepath.Base(tmp)))))
	if err := os.Mkdir(root, 0o755); err != nil {
		return nil, fmt.Errorf("temporary workspace: %w", err)
	}
	store, err := memfile.OpenStore(root, sim.Config, sim.Settings.LockTimeout)
	if err != nil {
		return nil, err
	}
	store.NoSync = true // a folder removed at the end needs no durability
	s := &simulator{
		sim:   sim,
		store: store,
		home:  filepath.Join(tmp, "home"),
		mix:   newMixer(sim.Seed),
		aged:  map[string]bool{},
	}
	stats := make([]sessionStats, 0, sim.Sessions)
	for n := 1; n <= sim.Sessions; n++ {
		if err := ctx.Err(); err != nil {
			return stats, fmt.Errorf("simulation stopped after %d sessions: %w", n-1, err)
		}
		st, err := s.session(n)
		if err != nil {
			return stats, fmt.Errorf("simulated session %d: %w", n, err)
		}
		stats = append(stats, st)
		if each != nil {
			each(st)
		}
	}
	return stats, nil
}

// simulator carries one simulation's workspace between its sessions.
type simulator struct {
	sim       simulation
	store     *memfile.Store
	home      string
	mix       mixer
	tier1     int             // Tier 1 entries in the file after the last pass
	archived  int64           // bytes of the archive already counted
	aged      map[string]bool // state files already given their simulated date
	lastTotal int             // the header's total after the last event
}

func (s *simulator) session(n int) (sessionStats, error) {
	day := s.sim.Start.AddDate(0, 0, (n-1)/s.sim.PerDay)
	s.store.Now = func() time.Time { return day } // dates the archive records
	env := hooks.Env{
		Store: s.store, Config: s.sim.Config, Settings: s.sim.Settings,
		Now: day, Binary: s.sim.Binary, Home: s.home,
	}
	id := fmt.Sprintf("00000000-0000-4000-8000-%012d", n)
	base := eventPayload{SessionID: id, Cwd: s.store.Root,
		TranscriptPath: filepath.Join(s.home, ".claude", "projects", "simulated", id+".jsonl")}
	st := sessionStats{Number: n, Date: day}

	start := base
	start.Event, start.Source = "SessionStart", "startup"
	out, err := s.event(env, start, &st)
	if err != nil {
		return st, err
	}
	text, _ := contextText(out)
	st.Context = memfile.Length(text)

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
	stop.Event = "Stop"
	if _, err := s.event(env, stop, &st); err != nil {
		return st, err
	}
	end := base
	end.Event, end.Reason = "SessionEnd", "other"
	if _, err := s.event(env, end, &st); err != nil {
		return st, err
	}
	f, _, _, err := s.store.Read()
	if err != nil {
		return st, err
	}
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
func (s *simulator) event(env hooks.Env, p eventPayload, st *sessionStats) (hooks.Output, error) {
	in, err := hooks.Decode(p.JSON())
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

// headerTokens reads the total from the header line, which Render writes
// as memfile.Estimate(f).Total every time it writes the file.
var headerTokens = regexp.MustCompile(`\| Token Est: ~(\d+) -->`)

// tokenEstimate is the total the file's header records: reading one line
// instead of parsing the file keeps a long simulation fast; session
// checks it against memfile.Estimate after every SessionEnd.
func (s *simulator) tokenEstimate() (int, error) {
	f, err := os.Open(s.store.Path(s.store.Names.Memory))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadString('\n')
	if err != nil {
		return 0, fmt.Errorf("read %s: %w", s.store.Names.Memory, err)
	}
	m := headerTokens.FindStringSubmatch(line)
	if m == nil {
		return 0, fmt.Errorf("%s has no token estimate in its header: %q", s.store.Names.Memory, line)
	}
	return strconv.Atoi(m[1])
}

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
	_, err := s.store.Update(func(tx *memfile.Tx) error {
		added, _, err := tx.File.Add(memfile.NewEntry{Tier: e.Tier, Importance: e.Importance, Date: day, Tags: e.Tags, Text: e.Text})
		if err != nil {
			return err
		}
		added.Weight = memfile.Score(*added, e.Tier, day, s.sim.Config).Weight
		added.HasWeight = true
		return nil
	})
	return err
}

// newlyArchived counts the archive records written since the last call,
// reading only the part of the archive that is new.
func (s *simulator) newlyArchived() (int, error) {
	f, err := os.Open(s.store.Path(s.store.Names.Archive))
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

// simulateSessions is the --sessions mode: read the flags, live the
// sessions, print a line for each and the summary.
func (a *app) simulateSessions(c *cli.Context) error {
	eventOnly := []string{"session", "transcript"}
	for _, f := range eventFlags {
		eventOnly = append(eventOnly, f.flag)
	}
	for _, flag := range eventOnly {
		if c.IsSet(flag) {
			return fmt.Errorf("simulate: --%s goes with an EVENT, not with --sessions", flag)
		}
	}
	sim := simulation{Sessions: c.Int("sessions"), PerDay: c.Int("per-day"), Seed: c.Uint64("seed"), Binary: binaryPath()}
	if sim.Sessions < 1 || sim.Sessions > 1_000_000 {
		return fmt.Errorf("--sessions %d is not from 1 to 1000000", sim.Sessions)
	}
	if sim.PerDay < 1 || sim.PerDay > 1000 {
		return fmt.Errorf("--per-day %d is not from 1 to 1000", sim.PerDay)
	}
	var err error
	switch {
	case c.IsSet("profile"):
		if sim.Config, err = memfile.Profile(c.String("profile")); err != nil {
			return err
		}
		sim.Settings = hooks.DefaultSettings()
	case commonFlag(c, "config", "BIMRI_CONFIG") != "":
		if sim.Config, sim.Settings, err = loadConfig(commonFlag(c, "config", "BIMRI_CONFIG"), ""); err != nil {
			return err
		}
	default:
		sim.Config, sim.Settings = memfile.DefaultConfig(), hooks.DefaultSettings()
	}
	start := simulationStart
	if s := commonFlag(c, "today", "BIMRI_TODAY"); s != "" {
		start = s
	}
	var ok bool
	if sim.Start, ok = memfile.ParseDate(start); !ok {
		return fmt.Errorf("--today %q is not a date (YYYY-MM-DD)", start)
	}

	// Ctrl-C stops the run between sessions, so the temporary workspace is
	// still removed.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	began := time.Now() // only for --verbose: the run's speed, never its results
	var werr error
	stats, err := simulateSessions(ctx, sim, func(st sessionStats) {
		if werr == nil {
			werr = printSimulatedSession(a.stdout, st, sim.Config)
		}
	})
	if err != nil {
		return err
	}
	if werr != nil {
		return werr
	}
	if c.Bool("verbose") {
		printSimulationTime(a.stderr, len(stats), time.Since(began))
	}
	return printSimulationSummary(a.stdout, stats, sim)
}
