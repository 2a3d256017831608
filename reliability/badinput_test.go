package reliability

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bimri/bimri-hook/internal/slowtest"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
	"golang.org/x/text/encoding/charmap"
)

// caseDir is one bad-input case's world: a workspace holding
// testdata/bimri.md, a home with Claude Code's transcript folder, and a
// foreign folder that is no workspace of this session.
type caseDir struct {
	root        string // holds the rest; hashed before and after
	ws          string // root/proj, the workspace
	home        string // root/home
	transcripts string // where Claude Code keeps this workspace's transcripts
	foreign     string // root/foreign, never to be written
}

func newCaseDir(t *testing.T) *caseDir {
	t.Helper()
	is := is.New(t)
	root := t.TempDir()
	c := &caseDir{
		root:        root,
		ws:          filepath.Join(root, "proj"),
		home:        filepath.Join(root, "home"),
		foreign:     filepath.Join(root, "foreign"),
		transcripts: filepath.Join(root, "home", ".claude", "projects", "-proj"),
	}
	for _, d := range []string{filepath.Join(c.ws, ".claude"), c.transcripts, c.foreign} {
		is.NoErr(os.MkdirAll(d, 0o755))
	}
	fixture, err := os.ReadFile(filepath.Join("testdata", memfile.MemoryName))
	is.NoErr(err)
	is.NoErr(os.WriteFile(filepath.Join(c.ws, memfile.MemoryName), fixture, 0o644))
	is.NoErr(os.WriteFile(filepath.Join(c.foreign, "README.md"), []byte("someone else's folder\n"), 0o644))
	// A case may take permissions away; give them back so the temp
	// folder can be removed.
	t.Cleanup(func() {
		_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				_ = os.Chmod(path, 0o755)
			}
			return nil
		})
	})
	return c
}

func (c *caseDir) memory() string { return filepath.Join(c.ws, memfile.MemoryName) }

// What a case may change, relative to caseDir.root. Anything else must be
// byte for byte as it was.
// Nil, the zero value of a case's may, means nothing may change.
// The user's data folder for bimri-hook (provenance and the journal,
// store/userdata.go; ~/.local/share/bimri-hook, made with its parents)
// is the workspace's own bookkeeping, kept where git cannot carry it.
var (
	changesStateOnly = []string{"proj/.claude/bimri", userData}
	changesWorkspace = []string{"proj", userData}
)

const userData = "home/.local"

type badCase struct {
	name  string
	setup func(t *testing.T, c *caseDir)
	args  []string                  // default: hook
	argv  func(c *caseDir) []string // args that name the case's files
	stdin func(c *caseDir) []byte   // the hook input
	env   func(c *caseDir) map[string]string
	dir   func(c *caseDir) string // the process's working folder; default: the workspace
	// openStdin gives the process a stdin that never ends.
	openStdin bool
	// slow cases wait seconds by design (slowtest.Gate).
	slow bool
	// asOther runs as an unprivileged user, for the permission cases.
	asOther  bool
	wantCode int
	wantErr  string   // a piece of the one stderr line; success must print nothing there
	may      []string // what the run may change (nil: nothing; see changesStateOnly)
	check    func(t *testing.T, c *caseDir, res result)
}

// TestBadInput feeds bimri-hook hostile or broken input, one case at a
// time, and checks the exit code, the message and that nothing changed
// beyond what the case may change. Every run is also checked for what
// must always hold (see run): no panic, no exit 2, no hang.
func TestBadInput(t *testing.T) {
	for _, tc := range badCases() {
		t.Run(tc.name, func(t *testing.T) {
			if tc.slow {
				slowtest.Gate(t)
			}
			t.Parallel()
			c := newCaseDir(t)
			if tc.setup != nil {
				tc.setup(t, c)
			}
			if tc.asOther {
				if !permissionsApply() {
					t.Skip("permission bits do not apply on this platform")
				}
				if err := giveToOther(c.root); err != nil {
					t.Skipf("cannot run as another user here: %v", err)
				}
			}
			p := proc{args: tc.args, dir: c.ws, asOther: tc.asOther, openStdin: tc.openStdin,
				env: map[string]string{"CLAUDE_PROJECT_DIR": ""}}
			if tc.argv != nil {
				p.args = tc.argv(c)
			}
			if p.args == nil {
				p.args = []string{"hook"}
			}
			if tc.stdin != nil {
				p.stdin = tc.stdin(c)
			}
			if tc.env != nil {
				for k, v := range tc.env(c) {
					p.env[k] = v
				}
			}
			if tc.dir != nil {
				p.dir = tc.dir(c)
			}
			before := hashTree(t, c.root, tc.may...)
			start := time.Now()
			res := run(t, c.home, p)
			t.Logf("exit %d after %s %s", res.code, time.Since(start).Round(time.Millisecond), strings.TrimSpace(res.stderr))
			if res.code != tc.wantCode {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", res.code, tc.wantCode, res.stdout, res.stderr)
			}
			switch {
			case tc.wantErr != "" && !strings.Contains(res.stderr, tc.wantErr):
				t.Errorf("stderr %q does not say %q", res.stderr, tc.wantErr)
			case tc.wantErr == "" && res.stderr != "":
				t.Errorf("a success wrote to stderr: %q", res.stderr)
			}
			if p.args[0] == "hook" && res.stdout != "" {
				checkHookOutput(t, res.stdout)
			}
			if after := hashTree(t, c.root, tc.may...); after != before {
				t.Errorf("the run changed what it must not (may change only %v):\n--- before\n%s\n--- after\n%s", tc.may, before, after)
			}
			if tc.check != nil {
				tc.check(t, c, res)
			}
		})
	}
}

// checkHookOutput checks a hook's stdout is what Claude Code parses: one
// JSON object on one line, valid UTF-8, with context within 10,000
// characters.
func checkHookOutput(t *testing.T, stdout string) {
	t.Helper()
	if !utf8.ValidString(stdout) {
		t.Errorf("hook output is not valid UTF-8: %q", stdout)
	}
	if strings.Count(strings.TrimSuffix(stdout, "\n"), "\n") > 0 || !strings.HasPrefix(stdout, "{") {
		return // plain text (PreCompact); nothing more to check
	}
	var out struct {
		HookSpecificOutput struct {
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("hook output is not one JSON object: %v\n%s", err, stdout)
	}
	if n := memfile.Length(out.HookSpecificOutput.AdditionalContext); n > 10000 {
		t.Errorf("additionalContext is %d characters, over Claude Code's 10,000", n)
	}
}

func sessionStart(c *caseDir) []byte {
	return event("SessionStart", map[string]any{"session_id": "bad-input", "cwd": c.ws, "source": "startup"})
}

// sessionEndWith is a SessionEnd whose transcript is path.
func sessionEndWith(path string) func(c *caseDir) []byte {
	return func(c *caseDir) []byte {
		return event("SessionEnd", map[string]any{"session_id": "bad-input", "cwd": c.ws, "reason": "other", "transcript_path": path})
	}
}

// inTranscripts is a transcript path in the case's Claude Code folder.
func inTranscripts(name string) func(c *caseDir) []byte {
	return func(c *caseDir) []byte { return sessionEndWith(filepath.Join(c.transcripts, name))(c) }
}

// expectEntries checks the workspace's bimri.md parses and holds n
// entries.
func expectEntries(n int) func(t *testing.T, c *caseDir, res result) {
	return func(t *testing.T, c *caseDir, res result) {
		f, _ := readMemory(t, c.ws)
		if got := len(entries(f)); got != n {
			t.Errorf("bimri.md holds %d entries, want %d", got, n)
		}
	}
}

// fixtureEntries is how many entries testdata/bimri.md holds.
const fixtureEntries = 5

func badCases() []badCase {
	cases := []badCase{
		// Hook input.
		{name: "empty stdin", stdin: func(*caseDir) []byte { return []byte{} },
			wantCode: 1, wantErr: "hook input is empty"},
		{name: "invalid JSON", stdin: func(*caseDir) []byte { return []byte(`{"hook_event_name": "SessionStart", "cwd": `) },
			wantCode: 1, wantErr: "not valid JSON"},
		{name: "JSON that is not an object", stdin: func(*caseDir) []byte { return []byte(`["SessionStart"]`) },
			wantCode: 1, wantErr: "not a JSON object"},
		{name: "no event name", stdin: func(c *caseDir) []byte { return []byte(`{"cwd": "/"}`) },
			wantCode: 1, wantErr: "no hook_event_name"},
		{name: "stdin far larger than any event", stdin: func(c *caseDir) []byte {
			return event("UserPromptSubmit", map[string]any{"cwd": c.ws, "prompt": strings.Repeat("word ", 1<<20)})
		}, wantCode: 1, wantErr: "larger than"},
		{name: "stdin that never ends", openStdin: true, slow: true,
			wantCode: 1, wantErr: "no hook input on stdin"},
		{name: "unknown event touches nothing", stdin: func(c *caseDir) []byte {
			return event("SomeFutureEvent", map[string]any{"cwd": c.ws, "session_id": "bad-input"})
		}, wantCode: 0},
		{name: "tool event touches nothing", stdin: func(c *caseDir) []byte {
			return event("PreToolUse", map[string]any{"cwd": c.ws, "tool_name": "Bash"})
		}, wantCode: 0},
		{name: "missing cwd falls back to the current folder", stdin: func(*caseDir) []byte {
			return event("SessionStart", map[string]any{"session_id": "bad-input", "source": "startup"})
		}, wantCode: 0, may: changesWorkspace, check: maintainedToday},
		{name: "missing cwd with CLAUDE_PROJECT_DIR", stdin: func(*caseDir) []byte {
			return event("SessionStart", map[string]any{"session_id": "bad-input", "source": "startup"})
		}, env: projectDir, dir: func(c *caseDir) string { return c.foreign },
			wantCode: 0, may: changesWorkspace, check: maintainedToday},
		{name: "relative cwd", stdin: func(*caseDir) []byte {
			return event("SessionStart", map[string]any{"session_id": "bad-input", "cwd": "proj"})
		}, wantCode: 1, wantErr: "not an absolute path"},
		{name: "cwd that does not exist", stdin: func(c *caseDir) []byte {
			return event("SessionStart", map[string]any{"session_id": "bad-input", "cwd": filepath.Join(c.root, "gone")})
		}, wantCode: 1, wantErr: "no such file or directory"},
		{name: "cwd outside the project", stdin: func(c *caseDir) []byte {
			return event("SessionStart", map[string]any{"session_id": "bad-input", "cwd": c.foreign, "source": "startup"})
		}, env: projectDir, wantCode: 0, may: changesWorkspace, check: maintainedToday},
		{name: "non-UTF-8 prompt", stdin: func(c *caseDir) []byte {
			return rawEvent("UserPromptSubmit", c.ws, "prompt", "caf\xe9 \xff\xfe please continue")
		}, wantCode: 0},
		{name: "non-UTF-8 prompt asking for maintenance", stdin: func(c *caseDir) []byte {
			return rawEvent("UserPromptSubmit", c.ws, "prompt", "run BIMRI maintenance \xff\xfe caf\xe9")
		}, wantCode: 0, may: changesWorkspace, check: func(t *testing.T, c *caseDir, res result) {
			if !strings.Contains(res.stdout, "deep maintenance") {
				t.Errorf("maintenance did not run: %s", res.stdout)
			}
			expectEntries(fixtureEntries)(t, c, res)
		}},
		{name: "non-UTF-8 entry text", args: []string{"remember", "--importance", "3", "caf\xe9 decision \xff kept"},
			wantCode: 0, may: changesWorkspace, check: func(t *testing.T, c *caseDir, res result) {
				expectEntries(fixtureEntries+1)(t, c, res)
				if _, data := readMemory(t, c.ws); !utf8.Valid(data) || !bytes.Contains(data, []byte("caf\uFFFD decision \uFFFD kept")) {
					t.Errorf("the entry was not stored as valid UTF-8:\n%s", data)
				}
			}},
		{name: "non-UTF-8 first prompt in the transcript", setup: func(t *testing.T, c *caseDir) {
			writeRaw(t, filepath.Join(c.transcripts, "s.jsonl"),
				"{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"fix caf\xe9 \xff parser\"}}\n")
		}, stdin: inTranscripts("s.jsonl"), wantCode: 0, may: changesWorkspace, check: func(t *testing.T, c *caseDir, res result) {
			if _, data := readMemory(t, c.ws); !utf8.Valid(data) || !bytes.Contains(data, []byte("Session: fix caf\uFFFD \uFFFD parser")) {
				t.Errorf("the fallback entry is missing or not valid UTF-8:\n%s", data)
			}
		}},

		// bimri.md itself.
		{name: "bimri.md is a directory", setup: memoryIsDir, stdin: sessionStart,
			wantCode: 1, wantErr: "bimri.md is a directory", may: changesStateOnly},
		{name: "bimri.md is a directory: remember", setup: memoryIsDir, args: rememberArgs("A decision."),
			wantCode: 1, wantErr: "bimri.md is a directory", may: changesStateOnly},
		{name: "bimri.md is a symlink leading outside", setup: memoryLinksOut, stdin: sessionStart,
			wantCode: 1, wantErr: "symlink leading outside the workspace", may: changesStateOnly},
		{name: "bimri.md is a symlink leading outside: remember", setup: memoryLinksOut, args: rememberArgs("A decision."),
			wantCode: 1, wantErr: "symlink leading outside the workspace", may: changesStateOnly},
		{name: "bimri.md is a symlink inside the workspace", setup: func(t *testing.T, c *caseDir) {
			is := is.New(t)
			is.NoErr(os.MkdirAll(filepath.Join(c.ws, "docs"), 0o755))
			is.NoErr(os.Rename(c.memory(), filepath.Join(c.ws, "docs", "memory.md")))
			is.NoErr(os.Symlink(filepath.Join("docs", "memory.md"), c.memory()))
		}, args: rememberArgs("A decision through the link."), wantCode: 0, may: changesWorkspace,
			check: func(t *testing.T, c *caseDir, res result) {
				info, err := os.Lstat(c.memory())
				if err != nil || info.Mode()&fs.ModeSymlink == 0 {
					t.Errorf("bimri.md is no longer the symlink: %v", err)
				}
				expectEntries(fixtureEntries+1)(t, c, res)
			}},
		{name: "bimri.md unreadable", setup: unreadable, asOther: true, stdin: sessionStart,
			wantCode: 1, wantErr: "permission denied", may: changesStateOnly},
		{name: "bimri.md unreadable: remember", setup: unreadable, asOther: true, args: rememberArgs("A decision."),
			wantCode: 1, wantErr: "permission denied", may: changesStateOnly},
		{name: "workspace folder read-only", setup: readOnly, asOther: true, args: rememberArgs("A decision."),
			wantCode: 1, wantErr: "permission denied"},
		// The session still gets its memory, read as it stands, and is told why it was not updated.
		{name: "workspace folder read-only: SessionStart", setup: readOnly, asOther: true, stdin: sessionStart,
			wantCode: 0, check: func(t *testing.T, c *caseDir, res result) {
				if !strings.Contains(res.stdout, "could not update bimri.md") || !strings.Contains(res.stdout, "permission denied") {
					t.Errorf("the context does not say why memory was not updated: %s", res.stdout)
				}
				if !strings.Contains(res.stdout, "additionalContext") {
					t.Errorf("no memory in the answer: %s", res.stdout)
				}
			}},
		{name: "bimri.md is binary junk", setup: func(t *testing.T, c *caseDir) {
			is := is.New(t)
			good, err := os.ReadFile(c.memory())
			is.NoErr(err)
			is.NoErr(os.WriteFile(filepath.Join(c.ws, memfile.BackupName), good, 0o644))
			is.NoErr(os.WriteFile(c.memory(), []byte("\x00\x01\x02 not a memory file \xff"), 0o644))
			long := time.Now().Add(-time.Hour) // no writer is at it any more
			is.NoErr(os.Chtimes(c.memory(), long, long))
		}, stdin: sessionStart, wantCode: 0, may: changesWorkspace, check: func(t *testing.T, c *caseDir, res result) {
			if !strings.Contains(res.stdout, "restored it from bimri-backup.md") {
				t.Errorf("the context does not tell of the repair: %s", res.stdout)
			}
			expectEntries(fixtureEntries)(t, c, res)
			expectBrokenCopy(t, c, []byte("\x00\x01\x02 not a memory file \xff"))
		}},
		// A committed file that lost its END marker, or that an editor
		// saved in Windows-1252, still gives every entry it holds: it is
		// read, set aside, rewritten whole, and the user (not only the
		// model) is told.
		{name: "bimri.md cut short (no END marker), no backup", setup: func(t *testing.T, c *caseDir) {
			data, err := os.ReadFile(c.memory())
			is.New(t).NoErr(err)
			is.New(t).NoErr(os.WriteFile(c.memory(), cutBeforeThirdEntry(data), 0o644))
			long := time.Now().Add(-time.Hour) // cut long ago: no writer is at it
			is.New(t).NoErr(os.Chtimes(c.memory(), long, long))
		}, stdin: sessionStart, wantCode: 0, may: changesWorkspace, check: func(t *testing.T, c *caseDir, res result) {
			expectToldUser(t, res, "ended without its")
			expectEntries(3)(t, c, res) // the entries before the cut
			fixture, _ := os.ReadFile(filepath.Join("testdata", memfile.MemoryName))
			expectBrokenCopy(t, c, cutBeforeThirdEntry(fixture))
		}},
		// An archive past what recall reads is rolled over, and said,
		// rather than silently giving recall nothing.
		{name: "archive past 64 MiB", setup: func(t *testing.T, c *caseDir) {
			is := is.New(t)
			path := filepath.Join(c.ws, memfile.ArchiveName)
			is.NoErr(os.WriteFile(path, []byte(memfile.ArchiveHeading), 0o644))
			is.NoErr(os.Truncate(path, 65<<20)) // sparse: no disk for the zeros
		}, stdin: sessionStart, wantCode: 0, may: changesWorkspace, check: func(t *testing.T, c *caseDir, res result) {
			expectToldUser(t, res, "bimri-archive.md reached 65 MiB")
			kept, _ := filepath.Glob(filepath.Join(c.ws, "bimri-archive-*.md"))
			if len(kept) != 1 {
				t.Fatalf("want the full archive kept under a dated name, found %v", kept)
			}
			if info, err := os.Stat(kept[0]); err != nil || info.Size() != 65<<20 {
				t.Errorf("the kept archive is not the full one: %v %v", info, err)
			}
			if _, err := os.Stat(filepath.Join(c.ws, memfile.ArchiveName)); err == nil {
				t.Errorf("%s is still there: the next append would not start a new one", memfile.ArchiveName)
			}
		}},
		{name: "bimri.md in Windows-1252", setup: func(t *testing.T, c *caseDir) {
			is.New(t).NoErr(os.WriteFile(c.memory(), windows1252Fixture(t), 0o644))
		}, stdin: sessionStart, wantCode: 0, may: changesWorkspace, check: func(t *testing.T, c *caseDir, res result) {
			expectToldUser(t, res, "Windows-1252")
			expectEntries(fixtureEntries)(t, c, res)
			data, _ := os.ReadFile(c.memory())
			if !utf8.Valid(data) || !bytes.Contains(data, []byte(accented)) {
				t.Errorf("bimri.md is not the fixture in UTF-8:\n%s", data)
			}
			if !strings.Contains(res.stdout, accented) {
				t.Errorf("the view does not show the decoded text %q: %s", accented, res.stdout)
			}
			expectBrokenCopy(t, c, windows1252Fixture(t))
		}},

		// Importance, tier and dates.
		{name: "importance 0", args: []string{"remember", "--importance", "0", "A decision."}, wantCode: 1, wantErr: `--importance "0" is not a whole number from 1 to 5`},
		{name: "importance 9", args: []string{"remember", "--importance", "9", "A decision."}, wantCode: 1, wantErr: `--importance "9" is not a whole number from 1 to 5`},
		{name: "importance x", args: []string{"remember", "--importance", "x", "A decision."}, wantCode: 1, wantErr: `--importance "x" is not a whole number from 1 to 5`},
		{name: "text starting with a dash needs --", args: []string{"remember", "- a list item"},
			wantCode: 1, wantErr: "flag provided but not defined: - a list item"},
		{name: "tier 3 without tags", args: []string{"remember", "--tier", "3", "A decision."}, wantCode: 1, wantErr: "a pattern needs at least one tag"},
		{name: "tier 4", args: []string{"remember", "--tier", "4", "A decision."}, wantCode: 1, wantErr: `--tier "4" is not a whole number from 1 to 3`},
		{name: "replaces one ID", args: []string{"remember", "--replaces", "deadbeef", "--", "A summary."}, wantCode: 1, wantErr: "two or more entry IDs"},
		{name: "tier 1 at importance 2", args: []string{"remember", "--tier", "1", "--importance", "2", "A decision."},
			wantCode: 1, wantErr: "too low for Tier 1", may: changesStateOnly},
		{name: "--today invalid", args: []string{"remember", "--today", "2026-13-45", "A decision."}, wantCode: 1, wantErr: `--today "2026-13-45" is not a date`},
		{name: "BIMRI_TODAY invalid in a hook", env: func(*caseDir) map[string]string { return map[string]string{"BIMRI_TODAY": "yesterday"} },
			stdin: sessionStart, wantCode: 1, wantErr: `"yesterday" is not a date`},
		{name: "today far in the future", env: func(*caseDir) map[string]string { return map[string]string{"BIMRI_TODAY": "9999-12-31"} },
			stdin: inTranscripts("none.jsonl"), wantCode: 0, may: changesWorkspace, check: func(t *testing.T, c *caseDir, res result) {
				f, _ := readMemory(t, c.ws)
				if got := f.Header.LastMaintained.Format("2006-01-02"); got != "9999-12-31" {
					t.Errorf("last maintained %s", got)
				}
				if len(f.Entries(1)) != 1 {
					t.Errorf("Tier 1 never decays, yet it holds %d entries", len(f.Entries(1)))
				}
			}},
		{name: "entry dated in the future by hand", setup: func(t *testing.T, c *caseDir) {
			appendToTier2(t, c, "[IMPORTANCE:3] [TIMESTAMP:2027-06-01] [TAGS:plan]\nShip the plugin next summer.\n")
		}, stdin: inTranscripts("none.jsonl"), wantCode: 0, may: changesWorkspace, check: func(t *testing.T, c *caseDir, res result) {
			f, _ := readMemory(t, c.ws)
			for _, e := range f.Entries(2) {
				if e.Text == "Ship the plugin next summer." {
					if e.Date.Format("2006-01-02") != today || e.Weight != 300 {
						t.Errorf("the future entry became %s weight %s; want it dated today, %s, with weight 3.0 (a clock set ahead is corrected)", e.Date.Format("2006-01-02"), e.Weight, today)
					}
					return
				}
			}
			t.Errorf("the future entry is gone")
		}},
		{name: "entry with an impossible date by hand", setup: func(t *testing.T, c *caseDir) {
			appendToTier2(t, c, "[IMPORTANCE:3] [TIMESTAMP:2026-02-30] [TAGS:plan]\nA day that never was.\n")
		}, stdin: inTranscripts("none.jsonl"), wantCode: 0, may: changesWorkspace, check: func(t *testing.T, c *caseDir, res result) {
			if _, data := readMemory(t, c.ws); !bytes.Contains(data, []byte("[TIMESTAMP:2026-02-30] [TAGS:plan]\nA day that never was.")) {
				t.Errorf("the line with the impossible date was not kept as it was:\n%s", data)
			}
		}},

		// Transcripts.
		{name: "transcript missing", stdin: inTranscripts("none.jsonl"), wantCode: 0, may: changesWorkspace,
			check: func(t *testing.T, c *caseDir, res result) {
				f, _ := readMemory(t, c.ws)
				if f.Header.Sessions != 2 {
					t.Errorf("Sessions %d, want 2", f.Header.Sessions)
				}
				expectEntries(fixtureEntries)(t, c, res)
			}},
		{name: "transcript truncated mid-line", setup: func(t *testing.T, c *caseDir) {
			writeRaw(t, filepath.Join(c.transcripts, "s.jsonl"),
				`{"type":"user","message":{"role":"user","content":"Refactor the config loader"}}`+"\n"+
					`{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","name":"Write","input":{"file_pa`)
		}, stdin: inTranscripts("s.jsonl"), wantCode: 0, may: changesWorkspace, check: func(t *testing.T, c *caseDir, res result) {
			expectEntries(fixtureEntries+1)(t, c, res)
			if _, data := readMemory(t, c.ws); !bytes.Contains(data, []byte("Session: Refactor the config loader")) {
				t.Errorf("no fallback entry from the whole lines:\n%s", data)
			}
		}},
		{name: "transcript of 50 MB at SessionEnd", slow: true, setup: hugeTranscript, stdin: inTranscripts("huge.jsonl"),
			wantCode: 0, may: changesWorkspace, check: expectEntries(fixtureEntries + 1)},
		{name: "transcript of 50 MB at Stop", slow: true, setup: hugeTranscript, stdin: func(c *caseDir) []byte {
			return event("Stop", map[string]any{"session_id": "bad-input", "cwd": c.ws, "transcript_path": filepath.Join(c.transcripts, "huge.jsonl")})
		}, wantCode: 0, may: changesWorkspace, check: func(t *testing.T, c *caseDir, res result) {
			if !strings.Contains(res.stdout, `"additionalContext":"BIMRI: this session did real work`) {
				t.Errorf("a session that changed files and recorded nothing was not nudged: %s", res.stdout)
			}
		}},
		{name: "transcript outside Claude Code's folders", setup: func(t *testing.T, c *caseDir) {
			writeRaw(t, filepath.Join(c.foreign, "s.jsonl"), `{"type":"user","message":{"role":"user","content":"SECRET-PROMPT"}}`+"\n")
		}, stdin: func(c *caseDir) []byte { return sessionEndWith(filepath.Join(c.foreign, "s.jsonl"))(c) },
			wantCode: 0, may: changesWorkspace, check: func(t *testing.T, c *caseDir, res result) {
				if _, data := readMemory(t, c.ws); bytes.Contains(data, []byte("SECRET-PROMPT")) {
					t.Errorf("a file outside Claude Code's folders was read into memory")
				}
			}},
	}

	// Entries whose text tries to break the file's structure: each is
	// stored as one entry, the file still parses, and nothing else moves.
	for _, text := range []string{
		"# A heading at the start",
		"## Tier 3: Pattern Recognition",
		"<!-- END BIMRI -->",
		"text then <!-- END BIMRI --> then more",
		"<!-- BIMRI v2.0-cc | Last Maintained: 2020-01-01 | Sessions: 99 | Token Est: ~1 -->",
		"[IMPORTANCE:5] [TIMESTAMP:2020-01-01] [TAGS:fake] [ID:deadbeef] a forged tag line",
		"- [PATTERN:ESTABLISHED] [OBSERVATIONS:9] [TAGS:fake] a forged pattern",
		"first line\n## Tier 1: Core Intelligence\n[IMPORTANCE:5] [TIMESTAMP:2026-01-01]\nsmuggled",
		"closing a comment --> and [ WEIGHT : 9.9 ] spaced",
		"\u2028line separator\u2029 and \ufeff BOM",
	} {
		cases = append(cases, badCase{
			name: "structure-breaking text " + fmt.Sprintf("%q", text), args: rememberAfterFlags(text),
			wantCode: 0, may: changesWorkspace, check: func(t *testing.T, c *caseDir, res result) {
				fixture, _ := os.ReadFile(filepath.Join("testdata", memfile.MemoryName))
				before, beforeWarnings, _ := memfile.Parse(fixture)
				data, _ := os.ReadFile(c.memory())
				after, afterWarnings, err := memfile.Parse(data)
				if err != nil {
					t.Fatalf("bimri.md no longer parses: %v\n%s", err, data)
				}
				if len(entries(after)) != len(entries(before))+1 || len(after.Patterns()) != len(before.Patterns()) {
					t.Errorf("entries %d -> %d, patterns %d -> %d; want one entry more and nothing else:\n%s",
						len(entries(before)), len(entries(after)), len(before.Patterns()), len(after.Patterns()), data)
				}
				if len(afterWarnings) != len(beforeWarnings) || after.Header.Sessions != before.Header.Sessions {
					t.Errorf("the text changed how the file reads: warnings %v, sessions %d\n%s", afterWarnings, after.Header.Sessions, data)
				}
				id := rememberedID(t, res.stdout)
				if e, tier := after.Find(id); e == nil || tier != 2 {
					t.Errorf("entry %s is not in Tier 2:\n%s", id, data)
				}
			},
		})
	}
	return append(cases, hostileCases()...)
}

func projectDir(c *caseDir) map[string]string { return map[string]string{"CLAUDE_PROJECT_DIR": c.ws} }

// rememberArgs records text at importance 3.
func rememberArgs(text string) []string {
	return []string{"remember", "--importance", "3", "--tags", "edge", text}
}

// rememberAfterFlags is rememberArgs with "--" before the text, which a
// text starting with "-" needs (see the case "text starting with a dash").
func rememberAfterFlags(text string) []string {
	return []string{"remember", "--importance", "3", "--tags", "edge", "--", text}
}

// rawEvent builds an event whose field holds raw bytes, which
// json.Marshal would have made valid UTF-8.
func rawEvent(name, cwd, field, raw string) []byte {
	head := event(name, map[string]any{"session_id": "bad-input", "cwd": cwd})
	return append(head[:len(head)-1], []byte(fmt.Sprintf(`,%q:"%s"}`, field, raw))...)
}

func writeRaw(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeBroken writes a damaged bimri.md dated an hour back: a file no
// writer is at any more, which the store may take for broken (a younger
// one may still be being written, and is left as it is).
func writeBroken(t *testing.T, path, data string) {
	t.Helper()
	writeRaw(t, path, data)
	long := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, long, long); err != nil {
		t.Fatal(err)
	}
}

func maintainedToday(t *testing.T, c *caseDir, res result) {
	f, _ := readMemory(t, c.ws)
	if got := f.Header.LastMaintained.Format("2006-01-02"); got != today {
		t.Errorf("the workspace was not maintained: last maintained %s", got)
	}
	if !strings.Contains(res.stdout, "additionalContext") {
		t.Errorf("no context injected: %s", res.stdout)
	}
}

func memoryIsDir(t *testing.T, c *caseDir) {
	is := is.New(t)
	is.NoErr(os.Remove(c.memory()))
	is.NoErr(os.Mkdir(c.memory(), 0o755))
}

func memoryLinksOut(t *testing.T, c *caseDir) {
	is := is.New(t)
	target := filepath.Join(c.foreign, "their-notes.md")
	data, err := os.ReadFile(c.memory())
	is.NoErr(err)
	is.NoErr(os.WriteFile(target, data, 0o644))
	is.NoErr(os.Remove(c.memory()))
	is.NoErr(os.Symlink(target, c.memory()))
}

func unreadable(t *testing.T, c *caseDir) {
	is.New(t).NoErr(os.Chmod(c.memory(), 0))
}

func readOnly(t *testing.T, c *caseDir) {
	is := is.New(t)
	is.NoErr(os.Chmod(filepath.Join(c.ws, ".claude"), 0o555))
	is.NoErr(os.Chmod(c.ws, 0o555))
}

func expectBrokenCopy(t *testing.T, c *caseDir, want []byte) {
	t.Helper()
	copies := brokenCopies(t, c.ws)
	if len(copies) != 1 {
		t.Fatalf("want the broken file kept once beside bimri.md, found %v", copies)
	}
	if got, _ := os.ReadFile(copies[0]); !bytes.Equal(got, want) {
		t.Errorf("the broken copy holds %q, want the broken bytes %q", got, want)
	}
}

// cutBeforeThirdEntry is a memory file cut short before its third entry
// of Tier 2: no END marker, the fixture's first three entries.
func cutBeforeThirdEntry(data []byte) []byte {
	return data[:bytes.Index(data, []byte("[IMPORTANCE:3] [TIMESTAMP:2026-11-28] [TAGS:parser,tests] [WEIGHT:3.0] [ID:3e63b806]"))]
}

// accented is the text windows1252Fixture gives an entry, in UTF-8.
const accented = "Café résumé: “smart quotes” – naïve façade, Zürich, 5 €, déjà vu, Ångström, Señor"

// windows1252Fixture is the fixture with an entry's text in accented
// letters, saved in Windows-1252, as an editor set to it saves it.
func windows1252Fixture(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", memfile.MemoryName))
	is.New(t).NoErr(err)
	utf := strings.Replace(string(data), "Chose SQLite for the local index; Postgres was overkill.", accented, 1)
	out, err := charmap.Windows1252.NewEncoder().String(utf)
	is.New(t).NoErr(err)
	return []byte(out)
}

// expectToldUser checks that a hook's answer tells the user (its
// systemMessage, which the client shows) something holding want.
func expectToldUser(t *testing.T, res result, want string) {
	t.Helper()
	var out struct {
		SystemMessage string `json:"systemMessage"`
	}
	if err := json.Unmarshal([]byte(res.stdout), &out); err != nil || !strings.Contains(out.SystemMessage, want) {
		t.Errorf("the user is not told %q (systemMessage %q): %s", want, out.SystemMessage, res.stdout)
	}
}

// appendToTier2 writes lines by hand at the end of Tier 2, as a person
// editing the file would.
func appendToTier2(t *testing.T, c *caseDir, block string) {
	t.Helper()
	data, err := os.ReadFile(c.memory())
	is.New(t).NoErr(err)
	s := strings.Replace(string(data), "## Tier 3:", block+"\n## Tier 3:", 1)
	is.New(t).NoErr(os.WriteFile(c.memory(), []byte(s), 0o644))
}

// hugeTranscript writes a 50 MB transcript of a session that changed many
// files and never recorded: prompts, Write calls and long tool results.
func hugeTranscript(t *testing.T, c *caseDir) {
	t.Helper()
	f, err := os.Create(filepath.Join(c.transcripts, "huge.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	output := strings.Repeat("x", 4000)
	for n, i := 0, 0; n < 50<<20; i++ {
		k, _ := fmt.Fprintf(w, `{"type":"user","message":{"role":"user","content":"Step %d: refactor module %d"}}`+"\n", i, i%40)
		n += k
		k, _ = fmt.Fprintf(w, `{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t%d","name":"Write","input":{"file_path":"/proj/mod%d.go","content":"package mod"}}]}}`+"\n", i, i%40)
		n += k
		k, _ = fmt.Fprintf(w, `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t%d","content":"%s"}]}}`+"\n", i, output)
		n += k
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
