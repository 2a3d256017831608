package reliability

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/bimri/bimri-hook/internal/slowtest"
	"github.com/bimri/bimri-hook/memfile"
)

// TestJournalCrashAtEveryStep records an entry and kills the process, as
// kill -9 does, at each write step in turn (BIMRI_TEST_STORE_KILL_AT: the
// journal's append, then each step of writing bimri.md, its backup and
// its archive), until a run gets through all of them. After each kill
// the next record runs to the end. Then bimri.md parses, every entry
// recorded before is in it once, the next record once, and the killed
// one once when its journal record reached the disk (it was recorded),
// at most once when not: nothing recorded is lost or duplicated (issue
// 34, item 12).
func TestJournalCrashAtEveryStep(t *testing.T) {
	slowtest.Gate(t) // a workspace and three runs per write step
	seeds := []string{"Seed: the parser is hand-written.", "Seed: tests run with make test."}
	killed := 0
	for step := 1; ; step++ {
		if step > 50 {
			t.Fatal("a remember never got through its write steps")
		}
		home, root := t.TempDir(), t.TempDir()
		env := map[string]string{"CLAUDE_PROJECT_DIR": root}
		remember := func(text string) proc {
			return proc{args: []string{"remember", "--importance", "3", "--tags", "db", text}, env: env}
		}
		for _, s := range seeds {
			if res := run(t, home, remember(s)); res.code != 0 {
				t.Fatalf("seed: %s", res.stderr)
			}
		}
		text := "Recorded as the process was killed at write step " + strconv.Itoa(step) + "."
		p := remember(text)
		p.env = map[string]string{"CLAUDE_PROJECT_DIR": root, "BIMRI_TEST_STORE_KILL_AT": strconv.Itoa(step)}
		ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
		err := p.command(ctx, home).Run()
		cancel()
		var exit *exec.ExitError
		wasKilled := errors.As(err, &exit) && exit.ExitCode() == -1
		if !wasKilled && err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		journaled := journalHolds(t, home, text)
		after := "Recorded after the crash at step " + strconv.Itoa(step) + "."
		if res := run(t, home, remember(after)); res.code != 0 {
			t.Fatalf("step %d: the next record failed: %s", step, res.stderr)
		}
		_, data := readMemory(t, root) // parses, or fails the test
		memory := string(data)
		for _, want := range append(seeds, after) {
			if n := strings.Count(memory, want); n != 1 {
				t.Errorf("step %d: %q is in bimri.md %d times", step, want, n)
			}
		}
		n := strings.Count(memory, text)
		switch {
		case journaled && n != 1:
			t.Errorf("step %d: the killed record was journaled but is in bimri.md %d times", step, n)
		case n > 1:
			t.Errorf("step %d: the killed record is in bimri.md %d times", step, n)
		}
		if archive, _ := os.ReadFile(filepath.Join(root, memfile.ArchiveName)); strings.Contains(string(archive), text) {
			t.Errorf("step %d: the killed record is in the archive too", step)
		}
		if !wasKilled {
			break // past the last write step: every step was tried
		}
		killed++
	}
	if killed < 3 {
		t.Errorf("only %d write steps were killed at: the kill hook is not reached", killed)
	}
	t.Logf("killed at each of %d write steps", killed)
}

// journalHolds says whether the journal in home's data folder holds text.
func journalHolds(t *testing.T, home, text string) bool {
	t.Helper()
	found, _ := filepath.Glob(filepath.Join(home, ".local", "share", "bimri-hook", "workspaces", "*", "journal"))
	for _, p := range found {
		data, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(data), strings.TrimSuffix(text, ".")) {
			return true
		}
	}
	return false
}
