package reliability

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

// hostileCases are files a repository can commit (links, pipes, links to
// devices) or a person can leave (a read-only bimri.md), found by trying
// to break bimri-hook: each once hung a hook, filled memory, wrote outside
// the workspace or lost an entry.
func hostileCases() []badCase {
	return []badCase{
		// Special files where a file is read: refused at once, by name.
		{name: "config links to /dev/zero: SessionStart shows memory", setup: linkConfig("/dev/zero"), stdin: sessionStart,
			wantCode: 0, check: configProblemShown("a character device, not a regular file")},
		{name: "config links to /dev/zero: remember", setup: linkConfig("/dev/zero"), args: rememberArgs("A decision."),
			wantCode: 1, wantErr: "bimri.json: a character device, not a regular file"},
		{name: "config is a named pipe", setup: fifoAt(".claude/bimri.json"), stdin: sessionStart,
			wantCode: 0, check: configProblemShown("a named pipe, not a regular file")},
		// A deep pass counts patterns over the archive; unreadable, it
		// counts over bimri.md alone and goes on.
		{name: "archive is a named pipe: maintain --deep", setup: fifoAt(memfile.ArchiveName), args: []string{"maintain", "--deep"},
			wantCode: 0, may: changesWorkspace},
		{name: "archive is a named pipe: forget", setup: fifoAt(memfile.ArchiveName), args: []string{"forget", "0513cb02"},
			wantCode: 1, wantErr: "bimri-archive.md is not a regular file", may: changesStateOnly},
		{name: "archive is a named pipe: search", setup: fifoAt(memfile.ArchiveName), args: []string{"search", "SQLite"},
			wantCode: 1, wantErr: "bimri-archive.md: a named pipe, not a regular file"},
		{name: "archive is a named pipe: run BIMRI maintenance", setup: fifoAt(memfile.ArchiveName), stdin: func(c *caseDir) []byte {
			return event("UserPromptSubmit", map[string]any{"session_id": "bad-input", "cwd": c.ws, "prompt": "run BIMRI maintenance"})
		}, wantCode: 0, may: changesWorkspace, check: func(t *testing.T, c *caseDir, res result) {
			if !strings.Contains(res.stdout, "deep maintenance ran") {
				t.Errorf("maintenance did not run: %s", res.stdout)
			}
		}},
		{name: "backup is a named pipe, bimri.md damaged: SessionStart", setup: func(t *testing.T, c *caseDir) {
			fifoAt(memfile.BackupName)(t, c)
			writeBroken(t, c.memory(), "\x00 damaged \xff")
		}, stdin: sessionStart, wantCode: 0, may: changesWorkspace, check: func(t *testing.T, c *caseDir, res result) {
			if !strings.Contains(res.stdout, "bimri-backup.md is not a regular file") {
				t.Errorf("the context does not say what is wrong: %s", res.stdout)
			}
			expectBrokenCopy(t, c, []byte("\x00 damaged \xff"))
		}},
		{name: "backup is a named pipe: restore", setup: fifoAt(memfile.BackupName), args: []string{"restore"},
			wantCode: 1, wantErr: "bimri-backup.md is not a regular file", may: changesStateOnly},
		{name: "merge-driver: ours is a named pipe", setup: fifoAt("ours"),
			argv: mergeArgs, wantCode: 1, wantErr: "ours: a named pipe, not a regular file", may: changesWorkspace},
		{name: "merge-driver: theirs is /dev/zero", argv: func(c *caseDir) []string {
			args := mergeArgs(c)
			args[3] = "/dev/zero"
			return args
		}, wantCode: 1, wantErr: "/dev/zero: a character device, not a regular file", may: changesWorkspace},

		// Nothing is made outside the workspace through a committed link.
		{name: "state .gitignore is a dangling link outside", setup: func(t *testing.T, c *caseDir) {
			is := is.New(t)
			is.NoErr(os.MkdirAll(filepath.Join(c.ws, ".claude", "bimri"), 0o755))
			is.NoErr(os.Symlink(filepath.Join(c.foreign, "ignore"), filepath.Join(c.ws, ".claude", "bimri", ".gitignore")))
		}, args: rememberArgs("A decision."), wantCode: 0, may: changesWorkspace, check: expectEntries(fixtureEntries + 1)},
		{name: "lock is a dangling link outside", setup: func(t *testing.T, c *caseDir) {
			is := is.New(t)
			is.NoErr(os.MkdirAll(filepath.Join(c.ws, ".claude", "bimri"), 0o755))
			is.NoErr(os.Symlink(filepath.Join(c.foreign, "lock"), filepath.Join(c.ws, ".claude", "bimri", "lock")))
		}, args: rememberArgs("A decision."), wantCode: 1, wantErr: "is not a regular file (a link or special file)", may: changesStateOnly},
		{name: ".claude links outside: remember", setup: claudeLinksOut, args: rememberArgs("A decision."),
			wantCode: 1, wantErr: "leads outside the workspace"},
		{name: ".claude links outside: SessionStart", setup: claudeLinksOut, stdin: sessionStart,
			wantCode: 0, check: func(t *testing.T, c *caseDir, res result) {
				if !strings.Contains(res.stdout, "leads outside the workspace") || !strings.Contains(res.stdout, "Chose SQLite") {
					t.Errorf("the memory is not shown with the reason it was not updated: %s", res.stdout)
				}
			}},

		// restore keeps what it takes out.
		{name: "restore archives entries recorded after the backup", setup: func(t *testing.T, c *caseDir) {
			fixture, err := os.ReadFile(c.memory())
			is.New(t).NoErr(err)
			res := run(t, c.home, proc{args: rememberArgs("Recorded after the backup was taken."), dir: c.ws})
			is.New(t).Equal(res.code, 0)
			writeRaw(t, filepath.Join(c.ws, memfile.BackupName), string(fixture))
		}, args: []string{"restore"}, wantCode: 0, may: changesWorkspace, check: func(t *testing.T, c *caseDir, res result) {
			expectEntries(fixtureEntries)(t, c, res)
			if !archived(t, c, "Recorded after the backup was taken.", "taken out by restore") {
				t.Errorf("the entry only the replaced file held is not in the archive")
			}
			// The next write replaces the backup; the entry stays archived.
			if r := run(t, c.home, proc{args: rememberArgs("The next record."), dir: c.ws}); r.code != 0 {
				t.Fatalf("remember after restore: %s", r.stderr)
			}
			if !archived(t, c, "Recorded after the backup was taken.", "taken out by restore") {
				t.Errorf("the entry left the archive")
			}
		}},

		// A copy set aside is never overwritten, whatever the clock says.
		{name: "broken bimri.md set aside beside older copies of the same second", setup: func(t *testing.T, c *caseDir) {
			// Copies named for every second of the next minute: the run's
			// own second is among them.
			now := time.Now().UTC()
			for s := range olderCopies {
				name := memfile.MemoryName + ".broken-" + now.Add(time.Duration(s-5)*time.Second).Format("20060102-150405")
				writeRaw(t, filepath.Join(c.ws, name), "older copy "+name)
			}
			writeBroken(t, c.memory(), "\x00 broken now \xff")
		}, stdin: sessionStart, wantCode: 0, may: changesWorkspace, check: func(t *testing.T, c *caseDir, res result) {
			older, broken := 0, 0
			for _, p := range brokenCopies(t, c.ws) {
				data, err := os.ReadFile(p)
				is.New(t).NoErr(err)
				switch string(data) {
				case "\x00 broken now \xff":
					broken++
				case "older copy " + filepath.Base(p):
					older++
				default:
					t.Errorf("%s holds %q", filepath.Base(p), data)
				}
			}
			if older != olderCopies || broken != 1 {
				t.Errorf("%d of the %d older copies are intact and the broken file is kept %d times; want all, and once", older, olderCopies, broken)
			}
		}},

		// An archive or backup that is bimri.md itself.
		{name: "archive hard-linked to bimri.md: forget", setup: func(t *testing.T, c *caseDir) {
			is.New(t).NoErr(os.Link(c.memory(), filepath.Join(c.ws, memfile.ArchiveName)))
		}, args: []string{"forget", "0513cb02"}, wantCode: 1, wantErr: "bimri-archive.md is bimri.md itself", may: changesStateOnly},
		{name: "archive symlinked to bimri.md: forget", setup: func(t *testing.T, c *caseDir) {
			is.New(t).NoErr(os.Symlink(memfile.MemoryName, filepath.Join(c.ws, memfile.ArchiveName)))
		}, args: []string{"forget", "0513cb02"}, wantCode: 1, wantErr: "bimri-archive.md is bimri.md itself", may: changesStateOnly},
		// A backup hard-linked to bimri.md is what a write killed between
		// its two renames leaves (the backup is the replaced file's own
		// inode): it is made a copy of its own, so an edit of bimri.md in
		// place cannot change it, and the write goes on.
		{name: "backup hard-linked to bimri.md: remember", setup: func(t *testing.T, c *caseDir) {
			is.New(t).NoErr(os.Link(c.memory(), filepath.Join(c.ws, memfile.BackupName)))
		}, args: rememberArgs("A decision."), wantCode: 0, may: changesWorkspace, check: func(t *testing.T, c *caseDir, res result) {
			is := is.New(t)
			backup := filepath.Join(c.ws, memfile.BackupName)
			is.True(!sameFile(t, backup, c.memory()))
			data, err := os.ReadFile(backup)
			is.NoErr(err)
			f, err := os.OpenFile(c.memory(), os.O_WRONLY|os.O_TRUNC, 0)
			is.NoErr(err)
			_, err = f.WriteString("edited in place\n")
			is.NoErr(err)
			is.NoErr(f.Close())
			after, err := os.ReadFile(backup)
			is.NoErr(err)
			is.Equal(after, data) // the edit did not reach the backup
		}},
		{name: "backup symlinked to bimri.md: remember", setup: func(t *testing.T, c *caseDir) {
			is.New(t).NoErr(os.Symlink(memfile.MemoryName, filepath.Join(c.ws, memfile.BackupName)))
		}, args: rememberArgs("A decision."), wantCode: 1, wantErr: "bimri-backup.md is bimri.md itself", may: changesStateOnly},

		// Smaller ones.
		{name: "broken config: SessionStart shows memory", setup: func(t *testing.T, c *caseDir) { writeConfig(t, c.ws, `{"lock_timeout": `) },
			stdin: sessionStart, wantCode: 0, check: configProblemShown("not valid JSON")},
		{name: "broken config: Stop", setup: func(t *testing.T, c *caseDir) { writeConfig(t, c.ws, `{"lock_timeout": `) },
			stdin:    func(c *caseDir) []byte { return event("Stop", map[string]any{"session_id": "bad-input", "cwd": c.ws}) },
			wantCode: 1, wantErr: "not valid JSON"},
		{name: ".claude is a file", setup: func(t *testing.T, c *caseDir) {
			is := is.New(t)
			is.NoErr(os.Remove(filepath.Join(c.ws, ".claude")))
			writeRaw(t, filepath.Join(c.ws, ".claude"), "not a folder\n")
		}, stdin: sessionStart, wantCode: 0, check: configProblemShown("not a directory")},
		{name: "Sessions at the int64 limit stays there", setup: func(t *testing.T, c *caseDir) {
			data, err := os.ReadFile(c.memory())
			is.New(t).NoErr(err)
			writeRaw(t, c.memory(), strings.Replace(string(data), "Sessions: 1 |", "Sessions: 9223372036854775807 |", 1))
		}, stdin: inTranscripts("none.jsonl"), wantCode: 0, may: changesWorkspace, check: func(t *testing.T, c *caseDir, res result) {
			f, _ := readMemory(t, c.ws)
			if f.Header.Sessions != 9223372036854775807 {
				t.Errorf("Sessions %d, want it to stay at the limit", f.Header.Sessions)
			}
		}},
		{name: "cwd is /", stdin: func(*caseDir) []byte {
			return event("SessionStart", map[string]any{"session_id": "bad-input", "cwd": "/", "source": "startup"})
		}, wantCode: 1, wantErr: `workspace "/" is a system folder`},
		{name: "cwd is /dev", stdin: func(*caseDir) []byte {
			return event("SessionStart", map[string]any{"session_id": "bad-input", "cwd": "/dev", "source": "startup"})
		}, wantCode: 1, wantErr: `workspace "/dev" is a system folder`},
		{name: "private tag with spaces and a reason", args: rememberAfterFlags("keep < private >hidden one</ private > and <private reason=\"client\">hidden two</private> this"),
			wantCode: 0, may: changesWorkspace, check: memoryLacks("hidden one", "hidden two", "private")},
		{name: "GitHub token split by a zero-width space", args: rememberAfterFlags("token ghp_\u200bFAKEfake0123456789FAKEfake0123456789 pasted"),
			wantCode: 0, may: changesWorkspace, check: memoryLacks("FAKEfake0123456789")},
		{name: "read-only bimri.md: remember", setup: readOnlyMemory, args: rememberArgs("A decision."),
			wantCode: 1, wantErr: "bimri.md is read-only (mode 0444)", may: changesStateOnly},
		{name: "read-only bimri.md: SessionStart", setup: readOnlyMemory, stdin: sessionStart,
			wantCode: 0, may: changesStateOnly, check: func(t *testing.T, c *caseDir, res result) {
				if !strings.Contains(res.stdout, "bimri.md is read-only") || !strings.Contains(res.stdout, "Chose SQLite") {
					t.Errorf("the memory is not shown with the reason it was not updated: %s", res.stdout)
				}
			}},
	}
}

// olderCopies is how many broken copies, one a second from 5 s before
// the run, a case finds beside bimri.md.
const olderCopies = 65

// linkConfig makes .claude/bimri.json a link to target.
func linkConfig(target string) func(t *testing.T, c *caseDir) {
	return func(t *testing.T, c *caseDir) {
		is.New(t).NoErr(os.Symlink(target, filepath.Join(c.ws, ".claude", "bimri.json")))
	}
}

// fifoAt makes a named pipe at a path in the workspace, in place of any
// file there.
func fifoAt(rel string) func(t *testing.T, c *caseDir) {
	return func(t *testing.T, c *caseDir) {
		p := filepath.Join(c.ws, filepath.FromSlash(rel))
		_ = os.Remove(p)
		if err := mkfifo(p); err != nil {
			t.Skip(err)
		}
	}
}

// mergeArgs runs the merge driver on base, ours and theirs in the
// workspace: base empty, ours and theirs the fixture, unless the setup
// made them something else.
func mergeArgs(c *caseDir) []string {
	fixture, _ := os.ReadFile(c.memory())
	args := []string{"merge-driver"}
	for _, name := range []string{"base", "ours", "theirs"} {
		p := filepath.Join(c.ws, name)
		if _, err := os.Lstat(p); err != nil {
			data := fixture
			if name == "base" {
				data = nil
			}
			_ = os.WriteFile(p, data, 0o644)
		}
		args = append(args, p)
	}
	return append(args, memfile.MemoryName)
}

func claudeLinksOut(t *testing.T, c *caseDir) {
	is := is.New(t)
	is.NoErr(os.Remove(filepath.Join(c.ws, ".claude")))
	is.NoErr(os.Symlink(c.foreign, filepath.Join(c.ws, ".claude")))
}

func readOnlyMemory(t *testing.T, c *caseDir) {
	is.New(t).NoErr(os.Chmod(c.memory(), 0o444))
}

// configProblemShown checks SessionStart showed the memory and said what
// is wrong with the config.
func configProblemShown(problem string) func(t *testing.T, c *caseDir, res result) {
	return func(t *testing.T, c *caseDir, res result) {
		if !strings.Contains(res.stdout, "could not load its config") || !strings.Contains(res.stdout, problem) {
			t.Errorf("the context does not say the config is wrong (%s): %s", problem, res.stdout)
		}
		if !strings.Contains(res.stdout, "Chose SQLite") {
			t.Errorf("the memory is not shown: %s", res.stdout)
		}
	}
}

// memoryLacks checks bimri.md holds none of the texts.
func memoryLacks(texts ...string) func(t *testing.T, c *caseDir, res result) {
	return func(t *testing.T, c *caseDir, res result) {
		expectEntries(fixtureEntries+1)(t, c, res)
		_, data := readMemory(t, c.ws)
		for _, s := range texts {
			if bytes.Contains(data, []byte(s)) {
				t.Errorf("bimri.md holds %q:\n%s", s, data)
			}
		}
	}
}

// archived says whether the archive holds an entry with text, archived
// for reason.
func archived(t *testing.T, c *caseDir, text, reason string) bool {
	for _, r := range readArchive(t, c.ws) {
		if r.Entry != nil && r.Entry.Text == text && r.Reason == reason {
			return true
		}
	}
	return false
}
