package reliability

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/internal/slowtest"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

const (
	crashRuns = 200
	// crashPause slows the store between the steps of a write (see
	// Store.step), so a kill lands inside a write often. Small, so the
	// 200 runs take seconds.
	crashPause = 4 * time.Millisecond
)

// crashOp is one write the test starts and kills.
type crashOp struct {
	args  []string
	stdin func(root string) []byte // nil for commands that read no stdin
	text  string                   // the entry a remember records
}

// TestCrashSafety starts a write (remember, or SessionEnd with its pass
// and fallback entry) 200 times and kills it with SIGKILL at a random
// moment: half the time blind, half the time once its first temporary
// file appears. Before each kill the same write runs to the end on a copy
// of the workspace, which gives the new version. Afterwards bimri.md must
// parse and be byte for byte the old or the new version, the backup must
// parse and be the old backup or the old file, the next run must sweep
// every temporary file, and no entry that was ever on disk may be lost.
func TestCrashSafety(t *testing.T) {
	slowtest.Gate(t) // 200 writes started and killed
	is := is.New(t)
	dir := t.TempDir()
	root, oracle, home := filepath.Join(dir, "proj"), filepath.Join(dir, "oracle"), filepath.Join(dir, "home")
	transcripts := filepath.Join(home, ".claude", "projects", "-proj")
	for _, d := range []string{root, home, transcripts} {
		is.NoErr(os.MkdirAll(d, 0o755))
	}
	base, _ := memfile.ParseDate(today)
	day := func(i int) string { return base.AddDate(0, 0, i/10).Format("2006-01-02") }
	rng := rand.New(rand.NewPCG(5, 200))

	remember := func(text string, imp int) crashOp {
		return crashOp{args: []string{"remember", "--importance", fmt.Sprint(imp), "--tags", modules[imp%len(modules)], text}, text: text}
	}
	sessionEnd := func(i int) crashOp {
		id := fmt.Sprintf("crash-%03d", i)
		path := filepath.Join(transcripts, id+".jsonl")
		writeTranscript(t, path, fmt.Sprintf("Crash session %03d: tidy the parser and its tests", i))
		return crashOp{args: []string{"hook"}, stdin: func(root string) []byte {
			return event("SessionEnd", map[string]any{"session_id": id, "cwd": root, "transcript_path": path, "reason": "other"})
		}}
	}
	// runTo runs op in a workspace to the end.
	runTo := func(op crashOp, ws, day string) result {
		p := proc{args: op.args, env: map[string]string{"CLAUDE_PROJECT_DIR": ws, "BIMRI_TODAY": day}}
		if op.stdin != nil {
			p.stdin = op.stdin(ws)
		}
		return run(t, home, p)
	}

	var known []string // entries that reached bimri.md: none may be lost
	for i := range 6 {
		op := remember(fmt.Sprintf("Seed entry %d about the storage layer.", i), 1+i%5)
		is.Equal(runTo(op, root, day(0)).code, 0)
		known = append(known, op.text)
	}

	// How long a slowed write takes from start to exit, and from its
	// first temporary file to exit (medians of three), so that kills can
	// be spread over the whole run and over the write itself.
	var took, writing []time.Duration
	for i := range 3 {
		calib := remember(fmt.Sprintf("Calibration entry %d for the kill window.", i), 3)
		r := slowWrite(t, home, calib, root, day(0), true, -1)
		if !r.exited || !r.sawWrite {
			t.Fatalf("the calibration write did not run whole: %+v", r)
		}
		took, writing = append(took, r.took), append(writing, r.took-r.writeAt)
		known = append(known, calib.text)
	}
	slices.Sort(took)
	slices.Sort(writing)
	t.Logf("a slowed write takes about %s, %s of it writing files", took[1].Round(time.Millisecond), writing[1].Round(time.Millisecond))

	var finished, keptOld, gotNew, aimed, midWrite, piled, secondName int
	for i := range crashRuns {
		var op crashOp
		if i%3 == 2 {
			op = sessionEnd(i)
		} else {
			op = remember(fmt.Sprintf("Crash run %03d recorded a decision about module %s.", i, modules[i%len(modules)]), 1+i%5)
		}
		before := mustRead(t, filepath.Join(root, memfile.MemoryName))
		beforeBackup := mustRead(t, filepath.Join(root, memfile.BackupName))

		// The new version: the same write, run to the end on a copy. The
		// copy holds the temporary files earlier kills left, and this
		// successful run must sweep them all.
		is.NoErr(os.RemoveAll(oracle))
		is.NoErr(copyTree(root, oracle))
		// And its journal and provenance in the user's data folder: a
		// record an earlier kill left journaled comes back on both.
		is.NoErr(os.RemoveAll(dataFolder(home, oracle)))
		if _, err := os.Stat(dataFolder(home, root)); err == nil {
			is.NoErr(copyTree(dataFolder(home, root), dataFolder(home, oracle)))
		}
		if res := runTo(op, oracle, day(i)); res.code != 0 {
			t.Fatalf("run %d on the copy: exit %d: %s", i, res.code, res.stderr)
		}
		after := mustRead(t, filepath.Join(oracle, memfile.MemoryName))
		if left := tempFiles(t, oracle); len(left) > 0 {
			t.Fatalf("run %d: temporary files left after a successful run: %v", i, left)
		}

		// Blind: anywhere from the start to a little past the usual end.
		// Aimed: anywhere in the writing of files, once the first
		// temporary file shows.
		aim := i%2 == 1
		window := took[1] + crashPause
		if aim {
			window = writing[1] + crashPause
		}
		r := slowWrite(t, home, op, root, day(i), aim, time.Duration(rng.Int64N(int64(window))))
		if r.exited {
			finished++
		}
		if aim && r.sawWrite {
			aimed++
		}

		if left := len(tempFiles(t, root)); left > 0 {
			midWrite++
			piled = max(piled, left)
		}
		now := mustRead(t, filepath.Join(root, memfile.MemoryName))
		if _, _, err := memfile.Parse(now); err != nil {
			t.Fatalf("run %d: after the kill bimri.md does not parse: %v\n%s", i, err, now)
		}
		switch {
		case bytes.Equal(now, after):
			gotNew++
			if op.text != "" {
				known = append(known, op.text)
			}
		case bytes.Equal(now, before):
			keptOld++
			if r.exited {
				t.Fatalf("run %d: the write finished but bimri.md is the old version", i)
			}
		default:
			t.Fatalf("run %d: bimri.md is neither the old nor the new version:\n--- old\n%s\n--- new\n%s\n--- on disk\n%s", i, before, after, now)
		}
		if backup := mustRead(t, filepath.Join(root, memfile.BackupName)); backup != nil {
			if _, _, err := memfile.Parse(backup); err != nil {
				t.Fatalf("run %d: the backup does not parse: %v\n%s", i, err, backup)
			}
			if !bytes.Equal(backup, beforeBackup) && !bytes.Equal(backup, before) {
				t.Fatalf("run %d: the backup is neither the old backup nor the old file:\n%s", i, backup)
			}
		}

		// A kill between the backup's rename and bimri.md's leaves the
		// backup as bimri.md's own inode under a second name (the backup
		// is a hard link, see Store.commit); the next run must make it a
		// copy of its own, or an edit of bimri.md in place would change
		// the backup too.
		linked := sameFile(t, filepath.Join(root, memfile.BackupName), filepath.Join(root, memfile.MemoryName))
		if linked {
			secondName++
		}

		// Every tenth run, and after a kill that left the backup linked,
		// a run to the end in the workspace itself must sweep whatever
		// the last kill left. (Each write sweeps under the lock first, so
		// leftovers never pile up beyond one kill's.)
		if i%10 == 9 || linked {
			next := remember(fmt.Sprintf("Follow-up %03d after some kills.", i), 4)
			if res := runTo(next, root, day(i)); res.code != 0 {
				t.Fatalf("run %d: the run after the kills: exit %d: %s", i, res.code, res.stderr)
			}
			known = append(known, next.text)
			if left := tempFiles(t, root); len(left) > 0 {
				t.Fatalf("run %d: temporary files left after the next run: %v", i, left)
			}
			if sameFile(t, filepath.Join(root, memfile.BackupName), filepath.Join(root, memfile.MemoryName)) {
				t.Fatalf("run %d: after the next run the backup is still bimri.md itself", i)
			}
		}
		if b := brokenCopies(t, root); len(b) > 0 {
			t.Fatalf("run %d: the store found bimri.md unreadable and set it aside: %v", i, b)
		}
	}
	t.Logf("%d kills: %d left the old version, %d the new one (%d of them had already exited); %d aimed kills saw a write start; %d kills left temporary files, up to %d at a time; %d left the backup as a second name of bimri.md",
		crashRuns, keptOld, gotNew, finished, aimed, midWrite, piled, secondName)

	// Nothing that ever reached bimri.md is lost: it is still there or in
	// the archive. (A kill between the archive append and the rename can
	// archive an entry twice; that duplicates, never loses.)
	f, _ := readMemory(t, root)
	have := map[string]bool{}
	for _, e := range entries(f) {
		have[e.Text] = true
	}
	for _, r := range readArchive(t, root) {
		if r.Entry != nil {
			have[r.Entry.Text] = true
		}
	}
	for _, text := range known {
		if !have[text] {
			t.Errorf("entry %q was recorded but is neither in bimri.md nor in the archive", text)
		}
	}
}

// slowRun is what slowWrite saw.
type slowRun struct {
	exited   bool          // the process finished by itself, before any kill
	sawWrite bool          // a temporary file appeared (when watched for)
	writeAt  time.Duration // when it appeared, from the start
	took     time.Duration // from the start to the process's end
}

// slowWrite starts op slowed down (BIMRI_TEST_STORE_PAUSE) in root. When
// aim is set it first waits for the op's first temporary file, the sign
// that it is writing. Then it kills the op with SIGKILL after delay, or
// lets it finish when delay is negative.
func slowWrite(t *testing.T, home string, op crashOp, root, day string, aim bool, delay time.Duration) slowRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	p := proc{args: op.args, env: map[string]string{
		"CLAUDE_PROJECT_DIR":     root,
		"BIMRI_TODAY":            day,
		"BIMRI_TEST_STORE_PAUSE": fmt.Sprint(crashPause.Milliseconds()),
	}}
	if op.stdin != nil {
		p.stdin = op.stdin(root)
	}
	cmd := p.command(ctx, home)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatalf("start: %v", err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()

	var r slowRun
	if aim {
		deadline := time.Now().Add(2 * time.Second)
		for !r.sawWrite && time.Now().Before(deadline) && !done(waited) {
			if r.sawWrite = hasTemp(root); r.sawWrite {
				r.writeAt = time.Since(start)
			} else {
				time.Sleep(100 * time.Microsecond)
			}
		}
	}
	if delay >= 0 {
		time.Sleep(delay)
		_ = cmd.Process.Kill() // SIGKILL; fails harmlessly if it already exited
	}
	err := <-waited
	r.took = time.Since(start)
	if ctx.Err() != nil {
		t.Fatalf("the slowed write hung")
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
		r.exited = true
	case errors.As(err, &exit) && !exit.Exited():
		// killed
	default:
		t.Fatalf("the write failed before the kill: %v\n%s", err, stderr.String())
	}
	return r
}

// done reports, without waiting, whether the process has exited; if so it
// puts the result back for the caller that waits on it.
func done(waited chan error) bool {
	select {
	case err := <-waited:
		waited <- err
		return true
	default:
		return false
	}
}

func hasTemp(root string) bool {
	names, _ := os.ReadDir(root)
	for _, n := range names {
		if strings.HasPrefix(n.Name(), ".bimri-tmp-") {
			return true
		}
	}
	return false
}

// sameFile says whether both paths name one file; false when either is
// missing.
func sameFile(t *testing.T, a, b string) bool {
	t.Helper()
	ia, errA := os.Stat(a)
	ib, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(ia, ib)
}

// mustRead reads a file; a missing one is nil.
func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// copyTree copies a folder of regular files and folders.
// dataFolder is where a workspace's journal and provenance live in the
// user's data folder under home, as store/userdata.go names it: a hash of
// the workspace's path and its memory file's name.
func dataFolder(home, root string) string {
	sum := sha256.Sum256([]byte(root + "\x00" + memfile.MemoryName))
	return filepath.Join(home, ".local", "share", "bimri-hook", "workspaces", hex.EncodeToString(sum[:8]))
}

func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		dst := filepath.Join(to, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(dst, info.Mode().Perm())
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, info.Mode().Perm())
	})
}

// writeTranscript writes a short session transcript: one prompt and one
// file written, and no remember call, so SessionEnd records a fallback
// entry.
func writeTranscript(t *testing.T, path, prompt string) {
	t.Helper()
	lines := []string{
		fmt.Sprintf(`{"type":"user","isSidechain":false,"message":{"role":"user","content":%q}}`, prompt),
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Write","input":{"file_path":"/proj/parser.go","content":"package parser"}}]}}`,
		`{"type":"user","message":{"role":"user","content":[{"tool_use_id":"t1","type":"tool_result","content":"File created."}]}}`,
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}
