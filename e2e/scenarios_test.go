//go:build linux || darwin

package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/wiring"
	"github.com/matryer/is"
	"github.com/tidwall/gjson"
)

// The scenarios of issue 4: bimri-hook as a user meets it, in the real
// Claude Code client talking to the fake API. Each runs the real binary
// (buildBimriHook), wired the way a user wires it, in a trusted workspace
// of a throwaway HOME. The fake models keep no state of their own: like a
// real model, each decides from the request it receives, so the remember
// command they run is the one bimri-hook gave them, never one the test
// wrote.

// scenarioToday is the day every bimri-hook process of the scenarios takes
// as today (BIMRI_TODAY), so weights and dates never depend on the clock.
const scenarioToday = "2026-11-29"

// contextCap is the most characters of SessionStart additionalContext the
// client hands the model whole (e2e/testdata/claude-code.md); past
// it the model gets a ~2,000-character preview instead.
const contextCap = 10000

// Markers of the client's own wording (Claude Code 2.1.328, measured).
const (
	// sessionStartMarker begins the text in which the client hands the
	// model a SessionStart hook's additionalContext.
	sessionStartMarker = "SessionStart hook additional context: "
	// stopBlockMarker begins the text in which the client hands the model
	// a Stop hook's additionalContext, bimri-hook's nudge (measured,
	// TestMeasureStopContext).
	stopBlockMarker = "Stop hook additional context: "
	// persistedMarker replaces hook output that was too large.
	persistedMarker = "<persisted-output>"
)

// memoryHeading begins the memory view bimri-hook injects.
const memoryHeading = "# BIMRI memory (bimri.md)"

// bimriSandbox is a sandbox whose workspace has bimri-hook wired in.
type bimriSandbox struct {
	*Sandbox
	Bin string // the bimri-hook binary the hooks run
}

// modelScript is a fake model that needs to know its sandbox (for paths).
type modelScript func(s *Sandbox, r Recorded) Reply

// newBimriSandbox makes a sandbox whose fake model answers with script,
// and installs bimri-hook into its workspace as a user would.
func newBimriSandbox(t *testing.T, script modelScript) *bimriSandbox {
	t.Helper()
	bin := buildBimriHook(t)
	var s *Sandbox
	api := newFakeAPI(t, func(r Recorded) Reply { return script(s, r) })
	s = newSandbox(t, api)
	installProject(t, s, bin)
	return &bimriSandbox{Sandbox: s, Bin: bin}
}

// installProject runs `bimri-hook install --scope project` in the
// workspace, the documented set-up, and checks that it wrote the hooks and
// the permission rule for remember into .claude/settings.json.
func installProject(t *testing.T, s *Sandbox, bin string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "install", "--scope", "project")
	cmd.Dir = s.Workspace
	cmd.Env = []string{"HOME=" + s.Home, "PATH=" + minimalPath, "LANG=C.UTF-8"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bimri-hook install --scope project: %v\n%s", err, out)
	}
	settings, err := os.ReadFile(filepath.Join(s.Workspace, ".claude", "settings.json"))
	if err != nil {
		t.Fatalf("install wrote no project settings: %v\n%s", err, out)
	}
	for _, rule := range (wiring.Command{Binary: resolvedBinary(t, bin)}).Rules() {
		allowed := false
		for _, r := range gjson.GetBytes(settings, "permissions.allow").Array() {
			allowed = allowed || r.String() == rule
		}
		if !allowed {
			t.Fatalf("install did not allow %s:\n%s", rule, settings)
		}
	}
}

// resolvedBinary is the path bimri-hook knows itself by (symlinks
// resolved, as /var is on macOS), which is the one it puts in settings and
// in the remember command. It works for any existing path.
func resolvedBinary(t *testing.T, path string) string {
	t.Helper()
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		t.Fatalf("resolve %s: %v", path, err)
	}
	return real
}

// options are the run options every scenario uses: today fixed.
func (b *bimriSandbox) options(prompt string, args ...string) RunOptions {
	opts := b.Options(prompt, args...)
	opts.Env = append(opts.Env, "BIMRI_TODAY="+scenarioToday)
	return opts
}

// run runs one claude -p session and fails the test unless it exits 0.
func (b *bimriSandbox) run(t *testing.T, prompt string, args ...string) *RunResult {
	t.Helper()
	return runClaude(t, b.options(prompt, args...))
}

// today is scenarioToday as a time.
func today(t *testing.T) time.Time {
	t.Helper()
	d, err := time.Parse(time.DateOnly, scenarioToday)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// readMemory parses the workspace's bimri.md, failing the test when it is
// missing or does not parse.
func readMemory(t *testing.T, workspace string) (*memfile.File, string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(workspace, memfile.MemoryName))
	if err != nil {
		t.Fatalf("read bimri.md: %v", err)
	}
	f, _, err := memfile.Parse(data)
	if err != nil {
		t.Fatalf("parse bimri.md: %v\n%s", err, data)
	}
	return f, string(data)
}

// writeMemory renders f into the workspace's bimri.md.
func writeMemory(t *testing.T, workspace string, f *memfile.File) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(workspace, memfile.MemoryName), memfile.Render(f), 0o644); err != nil {
		t.Fatal(err)
	}
}

// entriesWith returns the entries of both tiers whose text contains s.
func entriesWith(f *memfile.File, s string) []*memfile.Entry {
	var out []*memfile.Entry
	for tier := 1; tier <= 2; tier++ {
		for _, e := range f.Entries(tier) {
			if strings.Contains(e.Text, s) {
				out = append(out, e)
			}
		}
	}
	return out
}

// taggedEntries returns the entries of both tiers that carry tag.
func taggedEntries(f *memfile.File, tag string) []*memfile.Entry {
	var out []*memfile.Entry
	for tier := 1; tier <= 2; tier++ {
		for _, e := range f.Entries(tier) {
			if slices.Contains(e.Tags, tag) {
				out = append(out, e)
			}
		}
	}
	return out
}

// clientSections start the texts the client puts after a hook's context in
// the same message (measured on 2.1.328); the context ends where the first
// of them begins.
var clientSections = []string{
	"\n\n" + sessionStartMarker,
	"\n\n# Environment\n",
	"\n\nThe following deferred tools",
	"\n\nToday's date is",
	"</system-reminder>",
}

// sessionStartContexts returns every SessionStart additionalContext the
// model received in r, in order: for each sessionStartMarker, the text after
// it up to the end of that reminder.
func sessionStartContexts(r Recorded) []string {
	var out []string
	for _, m := range r.Messages() {
		for _, b := range m.Blocks {
			text := b.Text
			for {
				i := strings.Index(text, sessionStartMarker)
				if i < 0 {
					break
				}
				text = text[i+len(sessionStartMarker):]
				end := len(text)
				for _, sec := range clientSections {
					if j := strings.Index(text, sec); j >= 0 && j < end {
						end = j
					}
				}
				out = append(out, text[:end])
				text = text[end:]
			}
		}
	}
	return out
}

// firstContext returns the one SessionStart context of a session's first
// request, failing the test when there is not exactly one.
func firstContext(t *testing.T, api *FakeAPI) string {
	t.Helper()
	reqs := api.MainRequests()
	if len(reqs) == 0 {
		t.Fatalf("the model received no request:\n%s", api.Summary())
	}
	ctxs := sessionStartContexts(reqs[0])
	if len(ctxs) != 1 {
		t.Fatalf("want one SessionStart context in the first request, got %d:\n%.4000s", len(ctxs), reqs[0].ConversationText())
	}
	return ctxs[0]
}

// checkContextWhole fails the test unless ctx reached the model whole:
// within the client's cap, so never replaced by a truncated preview.
func checkContextWhole(t *testing.T, ctx string) {
	t.Helper()
	if strings.Contains(ctx, persistedMarker) {
		t.Errorf("the model got a truncated preview instead of the memory:\n%.1000s", ctx)
	}
	if n := memfile.Length(ctx); n > contextCap {
		t.Errorf("SessionStart context is %d characters, over the client's cap of %d", n, contextCap)
	}
	if !strings.HasPrefix(ctx, memoryHeading) {
		t.Errorf("SessionStart context does not start with the memory view %q:\n%.500s", memoryHeading, ctx)
	}
}

// templateLines is the protocol's template for a new bimri.md
// (BIMRI-PROTOCOL-claude-code, "Template Structure for New bimri.md
// Files"), its first line as a pattern: the date and token estimate are
// filled in when the file is written.
var templateLines = []string{
	`^<!-- BIMRI v2\.0-cc \| Last Maintained: (YYYY-MM-DD|` + scenarioToday + `) \| Sessions: 0 \| Token Est: ~\d+ -->$`,
	"<!-- Maintenance Due: After 10 sessions or when token estimate exceeds 6,000 -->",
	"",
	"# BIMRI Memory",
	"",
	"## Tier 1: Core Intelligence",
	"<!-- Permanent foundational knowledge. Budget: ~1,500 tokens. No decay. -->",
	"<!-- Only IMPORTANCE:4 or IMPORTANCE:5 entries belong here. -->",
	"",
	"## Tier 2: Active Context",
	"<!-- Current work state. Budget: ~3,000 tokens. Freshness decays per lookup table. -->",
	"<!-- Ordered by composite weight (highest first). Archive threshold: 1.5 -->",
	"",
	"## Tier 3: Pattern Recognition",
	"<!-- Derived behavioral insights. Budget: ~1,500 tokens. Confidence-scored. -->",
	"<!-- EMERGING (1-2 obs) | DEVELOPING (3-5 obs) | ESTABLISHED (6+ obs) -->",
	"",
	"<!-- END BIMRI -->",
}

// checkTemplate fails the test unless content is the protocol's template.
func checkTemplate(t *testing.T, content string) {
	t.Helper()
	lines := strings.Split(strings.TrimRight(content, "\n"), "\n")
	if len(lines) != len(templateLines) {
		t.Errorf("bimri.md has %d lines, the template %d:\n%s", len(lines), len(templateLines), content)
		return
	}
	if !regexp.MustCompile(templateLines[0]).MatchString(lines[0]) {
		t.Errorf("bimri.md header %q does not match %s", lines[0], templateLines[0])
	}
	for i := 1; i < len(lines); i++ {
		if lines[i] != templateLines[i] {
			t.Errorf("bimri.md line %d is %q, the template's %q", i+1, lines[i], templateLines[i])
		}
	}
}

// TestScenario1NewWorkspace: in a workspace without bimri.md, the first
// session creates it from the template, and the model's first request
// holds the memory and the intake instructions, whole, within the cap.
func TestScenario1NewWorkspace(t *testing.T) {
	is := is.New(t)
	var (
		mu      sync.Mutex
		atStart []byte // bimri.md as the model's first request found it
	)
	b := newBimriSandbox(t, func(s *Sandbox, r Recorded) Reply {
		if r.IsMain() {
			mu.Lock()
			if atStart == nil {
				atStart, _ = os.ReadFile(filepath.Join(s.Workspace, memfile.MemoryName))
			}
			mu.Unlock()
		}
		return Reply{}
	})
	_, err := os.Stat(filepath.Join(b.Workspace, memfile.MemoryName))
	is.True(os.IsNotExist(err)) // the workspace starts without memory

	run := b.run(t, "hello")
	is.Equal(run.Result().Get("result").String(), "OK.")

	// SessionStart created bimri.md from the template before the model
	// was asked anything.
	mu.Lock()
	created := string(atStart)
	mu.Unlock()
	if created == "" {
		t.Fatalf("bimri.md did not exist when the model got its first request")
	}
	checkTemplate(t, created)

	// The model received the memory view and the intake instructions,
	// whole, with the remember command whose prefix install allowed.
	ctx := firstContext(t, b.API)
	t.Logf("SessionStart context: %d characters", memfile.Length(ctx))
	checkContextWhole(t, ctx)
	is.True(strings.Contains(ctx, "0 sessions"))                // the view of the new file
	is.True(strings.Contains(ctx, "## How to use this memory")) // the recording instructions
	is.True(strings.Contains(ctx, "## New workspace: intake"))  // the intake
	is.True(strings.Contains(ctx, "orientation questions"))
	prefix := wiring.Command{Binary: resolvedBinary(t, b.Bin)}.Remember() + " --dir " + wiring.ShellWord(b.Workspace)
	is.True(strings.Contains(ctx, prefix+" --tier 1 --importance 5 ")) // intake answers go to Tier 1 at 5

	// SessionEnd counted the session.
	f, _ := readMemory(t, b.Workspace)
	is.Equal(f.Header.Sessions, 1)
}

// TestScenario2EditThenRemember: the model edits a file, the Stop hook
// blocks once with the remember command, the model runs exactly that
// command (allowed by the rule install wrote), the entry lands in
// bimri.md with a backup beside it, the user is told, the session stops,
// and SessionEnd counts it once.
func TestScenario2EditThenRemember(t *testing.T) {
	n := note{Importance: 4, Tags: "storage,decision", Text: "Chose SQLite for storage because the tool is single-user."}
	var during sessionsAt
	record := recordingModel(t, "NOTES.md", n)
	b := newBimriSandbox(t, func(s *Sandbox, r Recorded) Reply {
		if _, ok := r.ToolResult(rememberID); ok && r.IsMain() {
			during.record(s.Workspace) // Stop passes so far must not count the session
		}
		return record(s, r)
	})
	seedMemory(t, b.Workspace, 6)

	// Write needs a permission in -p mode; remember gets its own from the
	// project settings install wrote.
	run := b.run(t, "Please write NOTES.md with our storage decision", "--allowedTools", "Write")
	t.Logf("run: %v, %d model requests", run.Duration.Round(time.Millisecond), len(b.API.MainRequests()))

	sessions, seen := during.get()
	if !seen {
		t.Fatalf("the model never saw the result of remember:\n%s", b.API.Summary())
	}
	if sessions != 6 {
		t.Errorf("Sessions was %d before SessionEnd, want 6: only SessionEnd counts a session", sessions)
	}
	prefix := wiring.Command{Binary: resolvedBinary(t, b.Bin)}.Remember()
	checkRecordedSession(t, run, b.API.MainRequests(), b.Workspace, prefix, n, 6)
}

// oversizedEntries is how many Tier 2 entries scenario 3's bimri.md holds:
// several times what fits in the context cap.
const oversizedEntries = 400

// oversizedText is the text of scenario 3's entry i: recognisable from its
// first word to its last, so a line cut anywhere shows.
func oversizedText(i int) string {
	return fmt.Sprintf("Bulk entry %03d: reviewed the invoice export job and noted how its retries behave under load, end of bulk entry %03d.", i, i)
}

var (
	oversizedLine    = regexp.MustCompile(`^- \((\d+\.\d)\) \d{4}-\d\d-\d\d imp (\d): (Bulk entry (\d{3}): .*) \(id [0-9a-z]+\)$`)
	oversizedCompact = regexp.MustCompile(`^- \d{4}-\d\d-\d\d imp (\d): (Bulk entry (\d{3}): .*)… \(id [0-9a-z]+\)$`)
)

// weekDigest heads the view's digest of the last seven days: a line a
// day, which sums up entries and is not one of them.
const weekDigest = "## The last seven days"

// TestScenario3OversizedMemory: a bimri.md far larger than the cap reaches
// the model as the top of each part of the view (memfile's layout), every
// line whole or in its compact form, never cut, with the footer saying
// what was left out, never as the client's truncated preview.
func TestScenario3OversizedMemory(t *testing.T) {
	is := is.New(t)
	b := newBimriSandbox(t, func(*Sandbox, Recorded) Reply { return Reply{} })
	day := today(t)
	cfg := memfile.DefaultConfig()

	// Importance 2 to 5 and ages of 0 to 38 days give weights spread
	// across the whole scale; importance 1 would fall below the archive
	// threshold and leave the file before anyone could see it.
	f := memfile.New(cfg)
	if _, _, err := f.Add(memfile.NewEntry{Tier: 1, Importance: 5, Date: day.AddDate(0, -3, 0),
		Tags: []string{"project"}, Text: "This project exports invoices as PDF for small shops."}); err != nil {
		t.Fatal(err)
	}
	weights := map[int]memfile.Weight{}
	for i := range oversizedEntries {
		e, _, err := f.Add(memfile.NewEntry{Tier: 2, Importance: 2 + i%4, Date: day.AddDate(0, 0, -(i*7)%39),
			Text: oversizedText(i)})
		if err != nil {
			t.Fatal(err)
		}
		weights[i] = memfile.Score(*e, 2, day, cfg).Weight
	}
	writeMemory(t, b.Workspace, f)
	if size := len(memfile.Render(f)); size < 4*contextCap {
		t.Fatalf("the oversized bimri.md is only %d bytes", size)
	}

	run := b.run(t, "What do we know about the export job?")
	is.Equal(run.Result().Get("result").String(), "OK.")
	ctx := firstContext(t, b.API)
	t.Logf("SessionStart context: %d characters", memfile.Length(ctx))
	checkContextWhole(t, ctx)

	// The view: every bulk entry line whole (weights as scored) or
	// compact (the start of its text), each part highest weight first;
	// a footer saying how many items were left out.
	lines := strings.Split(ctx, "\n")
	var shown []int
	byPart := map[string][]int{}
	part, footer := "", -1
	for k, l := range lines {
		if strings.Contains(l, "items left out") {
			footer = k
			break
		}
		if strings.HasPrefix(l, "## ") {
			part = l
		}
		if !strings.Contains(l, "Bulk entry") || strings.HasPrefix(l, "- left out for room") || strings.HasPrefix(part, weekDigest) {
			continue
		}
		var i int
		if m := oversizedLine.FindStringSubmatch(l); m != nil {
			i, _ = strconv.Atoi(m[4])
			if m[3] != oversizedText(i) {
				t.Errorf("entry %d is not whole in the view: %q", i, m[3])
			}
			if m[1] != weights[i].String() {
				t.Errorf("entry %d shows weight %s, scored %s", i, m[1], weights[i])
			}
		} else if m := oversizedCompact.FindStringSubmatch(l); m != nil {
			i, _ = strconv.Atoi(m[3])
			if !strings.HasPrefix(oversizedText(i), m[2]) {
				t.Errorf("entry %d's compact line is not the start of its text: %q", i, m[2])
			}
		} else {
			t.Errorf("line %d of the view is neither a whole entry nor a compact one: %q", k+1, l)
			continue
		}
		if p := byPart[part]; len(p) > 0 && weights[i] > weights[p[len(p)-1]] {
			t.Errorf("%s: entry %d (weight %s) comes after a lower one", part, i, weights[i])
		}
		byPart[part] = append(byPart[part], i)
		shown = append(shown, i)
	}
	if footer < 0 {
		t.Fatalf("the view has no footer saying what was left out:\n%s", ctx)
	}
	// The footer's count is honest: what it says was left out plus the
	// items shown is every item (a line naming what a part left out is
	// not an item).
	counts := regexp.MustCompile(`^(\d+) of (\d+) items left out`).FindStringSubmatch(lines[footer])
	if counts == nil {
		t.Fatalf("footer %q does not say how many items were left out", lines[footer])
	}
	left, _ := strconv.Atoi(counts[1])
	total, _ := strconv.Atoi(counts[2])
	items := 0
	part = ""
	for _, l := range lines[:footer] {
		if strings.HasPrefix(l, "## ") {
			part = l
		}
		if strings.HasPrefix(l, "- ") && !strings.HasPrefix(l, "- left out for room") && !strings.HasPrefix(part, weekDigest) {
			items++
		}
	}
	is.Equal(items+left, total)
	if len(shown) == 0 || len(shown) >= oversizedEntries {
		t.Fatalf("the view shows %d of %d bulk entries", len(shown), oversizedEntries)
	}
	t.Logf("the view shows %d of %d bulk entries; footer: %s", len(shown), oversizedEntries, lines[footer])
	is.True(strings.Contains(ctx, "This project exports invoices as PDF")) // Tier 1 comes first, whole

	// The decisions (importance 5) shown are the top of their weight
	// order: no importance-5 entry left out weighs more than one shown.
	var lowest5 memfile.Weight = -1
	for _, i := range shown {
		if 2+i%4 == 5 && (lowest5 < 0 || weights[i] < lowest5) {
			lowest5 = weights[i]
		}
	}
	if lowest5 < 0 {
		t.Fatal("the view shows no decision (importance 5)")
	}
	for i := range oversizedEntries {
		if 2+i%4 == 5 && !slices.Contains(shown, i) && weights[i] > lowest5 {
			t.Errorf("decision %d (weight %s) was left out while one of weight %s is shown", i, weights[i], lowest5)
		}
	}
}

// TestScenario4CompactResumed: /compact on a resumed session that has
// recorded nothing writes the PreCompact checkpoint, the hook's
// instructions reach the compaction request, and SessionStart (compact)
// puts the memory back into the conversation that follows. A second
// /compact, once the session has its checkpoint, writes no other.
//
// The session's first run happens before bimri-hook is installed, as for
// a user who adds it to a project mid-session: had bimri-hook run then,
// that run's SessionEnd would have recorded the session (its fallback
// entry), and by design PreCompact writes a checkpoint only for a session
// that has recorded nothing.
func TestScenario4CompactResumed(t *testing.T) {
	is := is.New(t)
	bin := buildBimriHook(t)
	var s *Sandbox
	api := newFakeAPI(t, func(r Recorded) Reply {
		if !r.IsMain() {
			return Reply{} // the compaction request gets DefaultSummary
		}
		if strings.Contains(r.ConversationText(), "What did we decide") {
			return TextReply("We chose SQLite.")
		}
		if _, ok := r.ToolResult(writeID); ok {
			return TextReply("I wrote db.go.")
		}
		return Reply{ToolUse: &ToolUse{ID: writeID, Name: "Write", Input: map[string]string{
			"file_path": filepath.Join(s.Workspace, "db.go"),
			"content":   "// Package db keeps expenses in SQLite.\npackage db\n",
		}}}
	})
	s = newSandbox(t, api)
	b := &bimriSandbox{Sandbox: s, Bin: bin}

	first := b.run(t, "We decided to use SQLite for storage; please write db.go", "--allowedTools", "Write")
	is.True(first.SessionID != "")
	installProject(t, s, bin)

	// /compact on the resumed session.
	api.Reset()
	compact := b.run(t, "/compact", "--resume", first.SessionID)
	t.Logf("runs: first %v, /compact %v", first.Duration.Round(time.Millisecond), compact.Duration.Round(time.Millisecond))
	f, raw := readMemory(t, b.Workspace)
	checkpoints := entriesWith(f, "Checkpoint before compaction")
	if len(checkpoints) != 1 {
		t.Fatalf("want one checkpoint entry after /compact, got %d:\n%s", len(checkpoints), raw)
	}
	// The checkpoint says what the session was about.
	is.True(strings.Contains(checkpoints[0].Text, "SQLite"))
	is.True(strings.Contains(checkpoints[0].Text, "db.go"))

	var compaction *Recorded
	for _, r := range api.MessagesRequests() {
		if r.IsCompaction() {
			compaction = &r
			break
		}
	}
	if compaction == nil {
		t.Fatalf("no compaction request:\n%s", api.Summary())
	}
	instructions := compaction.NewText()
	if i := strings.Index(instructions, "Additional Instructions"); i < 0 {
		t.Errorf("PreCompact's instructions did not reach the compaction request:\n%.3000s", instructions)
	} else {
		is.True(strings.Contains(instructions[i:], "keep every decision made and why")) // hooks.compactInstructions
	}

	// SessionStart (compact) put the memory, checkpoint included, into the
	// compacted conversation: the next request holds exactly what it
	// answered.
	compactContext := hookContext(t, s.TranscriptPath(first.SessionID), "SessionStart:compact")
	is.True(strings.HasPrefix(compactContext, memoryHeading))
	is.True(strings.Contains(compactContext, checkpoints[0].Text))
	api.Reset()
	b.run(t, "What did we decide?", "--resume", first.SessionID)
	reqs := api.MainRequests()
	if len(reqs) == 0 {
		t.Fatalf("no request after compaction:\n%s", api.Summary())
	}
	after := reqs[0]
	is.True(strings.Contains(after.ConversationText(), "This session is being continued")) // it is the compacted conversation
	if !slices.Contains(sessionStartContexts(after), compactContext) {
		t.Errorf("the request after compaction lacks what SessionStart (compact) injected:\n%.2000s\nrequest:\n%.6000s", compactContext, after.ConversationText())
	}
	for _, c := range sessionStartContexts(after) {
		checkContextWhole(t, c)
	}

	// The session has now recorded (its checkpoint): compacting again adds
	// no second checkpoint.
	api.Reset()
	b.run(t, "/compact", "--resume", first.SessionID)
	f, raw = readMemory(t, b.Workspace)
	if n := len(entriesWith(f, "Checkpoint before compaction")); n != 1 {
		t.Errorf("after a second /compact there are %d checkpoint entries, want still 1:\n%s", n, raw)
	}
}

// hookContext returns the additionalContext of the last run of hookName
// (such as "SessionStart:compact") recorded in a session transcript.
func hookContext(t *testing.T, transcript, hookName string) string {
	t.Helper()
	data, err := os.ReadFile(transcript)
	if err != nil {
		t.Fatalf("read transcript: %v", err)
	}
	var out string
	found := false
	for _, line := range strings.Split(string(data), "\n") {
		ev := gjson.Parse(line)
		if ev.Get("attachment.hookName").String() != hookName || ev.Get("attachment.type").String() != "hook_success" {
			continue
		}
		out = gjson.Get(ev.Get("attachment.stdout").String(), "hookSpecificOutput.additionalContext").String()
		found = true
	}
	if !found {
		t.Fatalf("the transcript records no %s hook run", hookName)
	}
	return out
}

// repoRoot is the repository's top folder, which is also the plugin.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, ".claude-plugin", "plugin.json")); err != nil {
		t.Fatalf("the repository root %s is not a plugin: %v", root, err)
	}
	return root
}

func settingsPath(workspace string) string {
	return filepath.Join(workspace, ".claude", "settings.json")
}

// firstRequest reports whether r is a session's first turn: the model has
// not spoken yet.
func firstRequest(r Recorded) bool {
	for _, m := range r.Messages() {
		if m.Role == "assistant" {
			return false
		}
	}
	return true
}

// rendezvous holds each of a fixed number of parties until all have
// arrived, so two sessions provably do a step at the same time. A party
// that waits too long fails the test and goes on.
type rendezvous struct {
	t       *testing.T
	name    string
	parties int
	mu      sync.Mutex
	arrived map[string]bool
	all     chan struct{}
}

func newRendezvous(t *testing.T, name string, parties int) *rendezvous {
	return &rendezvous{t: t, name: name, parties: parties, arrived: map[string]bool{}, all: make(chan struct{})}
}

// wait marks party as arrived (again is fine: a retried request) and
// blocks until every party has.
func (r *rendezvous) wait(party string) {
	r.mu.Lock()
	if !r.arrived[party] {
		r.arrived[party] = true
		if len(r.arrived) == r.parties {
			close(r.all)
		}
	}
	r.mu.Unlock()
	select {
	case <-r.all:
	case <-time.After(60 * time.Second):
		r.t.Errorf("%s: the sessions never got there together", r.name)
	}
}

// TestScenario6ConcurrentSessions: two sessions in one workspace at the
// same time, each recording its own entry at the same moment: both
// entries survive, and both sessions are counted.
func TestScenario6ConcurrentSessions(t *testing.T) {
	is := is.New(t)
	notes := map[string]note{
		"alpha": {Importance: 4, Tags: "api,decision", Text: "Session alpha chose REST over gRPC for the public API."},
		"beta":  {Importance: 3, Tags: "ci,testing", Text: "Session beta added a nightly CI job for the slow tests."},
	}
	models := map[string]modelScript{}
	for name, n := range notes {
		models[name] = recordingModel(t, name+".md", n)
	}
	start := newRendezvous(t, "first request", 2)
	recording := newRendezvous(t, "remember", 2)
	b := newBimriSandbox(t, func(s *Sandbox, r Recorded) Reply {
		if !r.IsMain() {
			return Reply{}
		}
		var names []string
		for k := range notes {
			if strings.Contains(r.ConversationText(), "This is session "+k) {
				names = append(names, k)
			}
		}
		if len(names) != 1 {
			t.Errorf("a request from %d sessions:\n%.500s", len(names), r.ConversationText())
			return Reply{}
		}
		name := names[0]
		reply := models[name](s, r)
		switch {
		case firstRequest(r):
			start.wait(name) // both sessions are running
		case reply.ToolUse != nil && reply.ToolUse.ID == rememberID:
			recording.wait(name) // both run remember now
		}
		return reply
	})

	results := map[string]*RunResult{}
	var mu sync.Mutex
	// Parallel subtests rather than goroutines, so runClaude may fail its
	// own test; the group returns when both sessions have ended.
	t.Run("sessions", func(t *testing.T) {
		for name := range notes {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				run := runClaude(t, b.options("This is session "+name+": please write "+name+".md", "--allowedTools", "Write"))
				mu.Lock()
				results[name] = run
				mu.Unlock()
			})
		}
	})
	if t.Failed() {
		t.FailNow()
	}

	f, raw := readMemory(t, b.Workspace)
	for name, n := range notes {
		if got := entriesWith(f, n.Text); len(got) != 1 {
			t.Errorf("session %s's entry is in bimri.md %d times, want once:\n%s", name, len(got), raw)
		}
		run := results[name]
		is.True(run != nil)
		is.Equal(run.Result().Get("result").String(), "Recorded.")
		if !toldUpdated(run) {
			t.Errorf("session %s: the user was not told \"BIMRI updated\": %q", name, run.Informational())
		}
	}
	is.True(results["alpha"].SessionID != results["beta"].SessionID)
	is.Equal(len(taggedEntries(f, "auto")), 0) // both sessions recorded: no fallback entries
	is.Equal(f.Header.Sessions, 2)             // both SessionEnds counted their session
}
