package reliability

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/internal/slowtest"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
	"github.com/bimri/bimri-hook/store/safefile"
)

// racePause slows each write between its steps (BIMRI_TEST_STORE_PAUSE),
// so that what races it lands inside the write, where it once was lost.
const racePause = 25 * time.Millisecond

// raceWorkspace is a workspace holding the fixture, and the environment
// its processes run with, slowed down.
func raceWorkspace(t *testing.T) (root, home string, env map[string]string) {
	t.Helper()
	dir := t.TempDir()
	root, home = filepath.Join(dir, "proj"), filepath.Join(dir, "home")
	for _, d := range []string{root, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	fixture, err := os.ReadFile(filepath.Join("testdata", memfile.MemoryName))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, memfile.MemoryName), fixture, 0o644); err != nil {
		t.Fatal(err)
	}
	return root, home, map[string]string{"CLAUDE_PROJECT_DIR": root, "BIMRI_TEST_STORE_PAUSE": fmt.Sprint(racePause.Milliseconds())}
}

// rememberAll runs workers goroutines, each recording perWorker entries
// one after another, while the test does its worst, and returns the texts
// that remember said it recorded. A remember may fail, with its error,
// but never say it recorded what is then lost.
func rememberAll(t *testing.T, home string, env map[string]string, workers, perWorker int) (recordedTexts, failures []string) {
	t.Helper()
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range perWorker {
				text := fmt.Sprintf("Worker %d recorded decision %02d about the %s module.", w, i, modules[(w+i)%len(modules)])
				res := run(t, home, proc{args: []string{"remember", "--importance", "4", text}, env: env})
				mu.Lock()
				if res.code == 0 {
					recordedTexts = append(recordedTexts, text)
				} else {
					failures = append(failures, strings.TrimSpace(res.stderr))
					t.Logf("remember failed (allowed, it says so): exit %d: %s", res.code, strings.TrimSpace(res.stderr))
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return recordedTexts, failures
}

// keptTexts counts every entry text in bimri.md and the archive.
func keptTexts(t *testing.T, root string) map[string]int {
	t.Helper()
	f, _ := readMemory(t, root)
	kept := map[string]int{}
	for _, e := range entries(f) {
		kept[e.Text]++
	}
	for _, r := range readArchive(t, root) {
		if r.Entry != nil {
			kept[r.Entry.Text]++
		}
	}
	return kept
}

// TestEditorDuringWritesIsKept (finding 5 of #26, as processes): an
// editor saves bimri.md while hooks are writing it, without the lock, as
// editors do: it waits until a write is under way (its temporary file is
// there), then adds an entry by hand and saves, by rename or in place,
// in turns. Every edit it saved and every entry remember recorded must
// be in bimri.md or the archive. Before the write checked that bimri.md
// was still the file it read, a third to a half of such edits were
// renamed away.
func TestEditorDuringWritesIsKept(t *testing.T) {
	slowtest.Gate(t) // dozens of slowed-down processes
	root, home, env := raceWorkspace(t)
	memory := filepath.Join(root, memfile.MemoryName)
	stop := make(chan struct{})
	var edits []string
	straddled := 0
	editorDone := make(chan struct{})
	go func() {
		defer close(editorDone)
		seen := map[string]bool{}
		for n := 0; ; {
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
			// A temporary file not seen before: a write has just begun
			// (its steps are slowed down), and the edit lands inside it.
			// An edit that began before a write's rename and saved after
			// it would itself undo that write, as any editor would: that
			// is not what is tested.
			temps, _ := filepath.Glob(filepath.Join(root, safefile.TempPrefix+"*"))
			fresh := ""
			for _, p := range temps {
				if !seen[p] {
					fresh = p
				}
				seen[p] = true
			}
			if fresh == "" {
				continue
			}
			text := fmt.Sprintf("Edited by hand %03d: the staging host moved.", n)
			if err := editAdding(memory, text, n%2 == 0); err != nil {
				t.Errorf("the editor could not save: %v", err)
				return
			}
			n++
			if _, err := os.Lstat(fresh); err != nil {
				// The write renamed its file between the editor's read and
				// its save (the editor was slow: a loaded machine): the
				// editor's save undid that write, as any editor's would.
				// Neither side of that is checked.
				straddled++
			} else {
				edits = append(edits, text)
			}
			// Let the write that saw the edit finish on the new file:
			// an editor that saved in every retry would keep it busy.
			time.Sleep(6 * racePause)
		}
	}()
	recordedTexts, failures := rememberAll(t, home, env, 3, 8)
	failed := len(failures)
	close(stop)
	<-editorDone

	kept := keptTexts(t, root)
	lost := 0
	for _, text := range edits {
		if kept[text] == 0 {
			lost++
			t.Errorf("the edit %q was saved during a write and is on no file", text)
		}
	}
	missing := 0
	for _, text := range recordedTexts {
		switch kept[text] {
		case 1:
		case 0:
			missing++
		default:
			t.Errorf("entry %q is kept %d times, want once", text, kept[text])
		}
	}
	if missing > straddled {
		t.Errorf("%d recorded entries are on no file, and only %d edits straddled a write's rename", missing, straddled)
	}
	t.Logf("%d edits saved during writes (%d lost), %d straddled a rename; %d entries recorded (%d missing), %d remember calls failed", len(edits), lost, straddled, len(recordedTexts), missing, failed)
	if len(edits) < 5 {
		t.Fatalf("only %d edits landed during a write: the test proved little", len(edits))
	}
	if len(recordedTexts) < 12 {
		t.Fatalf("only %d of 24 remember calls succeeded", len(recordedTexts))
	}
}

// editAdding adds an entry to bimri.md as a person with an editor does:
// read it, add lines at the end of Tier 2, save (by a rename, or in
// place).
func editAdding(path, text string, byRename bool) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	block := "[IMPORTANCE:4] [TIMESTAMP:" + today + "] [TAGS:ops]\n" + text + "\n\n"
	edited := strings.Replace(string(data), "## Tier 3:", block+"## Tier 3:", 1)
	if !byRename {
		return os.WriteFile(path, []byte(edited), 0o644)
	}
	tmp := path + ".editor-swap"
	if err := os.WriteFile(tmp, []byte(edited), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// TestStateFolderRemovedWhileHeld (finding 6 of #26, as processes):
// `git clean -fdX` removes .claude/bimri, the lock file with it, again
// and again while writers hold the lock. A lock whose file is gone must
// not let a second writer in: every entry remember said it recorded is
// in bimri.md or the archive, exactly once. Before the lock checked that
// its path still named the file it locked, such removals lost entries
// (61 of 999). A remember may give up only as busy: two writers are in
// at once after each removal, and a write that keeps finding bimri.md
// changed by the other stops after five tries. Before the writers' sweep
// spared each other's temporary files and a backup just linked by the
// other was healed again, most failures were a refused backup ("is
// bimri.md itself") or a swept temporary file (1 to 9 of 36 a run).
func TestStateFolderRemovedWhileHeld(t *testing.T) {
	slowtest.Gate(t) // dozens of slowed-down processes
	root, home, env := raceWorkspace(t)
	state := filepath.Join(root, filepath.FromSlash(store.StateDir))
	stop := make(chan struct{})
	removals := 0
	cleanerDone := make(chan struct{})
	go func() {
		defer close(cleanerDone)
		for {
			select {
			case <-stop:
				return
			case <-time.After(4 * racePause):
			}
			if _, err := os.Stat(state); err == nil {
				if err := os.RemoveAll(state); err == nil {
					removals++
				}
			}
		}
	}()
	recordedTexts, failures := rememberAll(t, home, env, 6, 6)
	close(stop)
	<-cleanerDone
	for _, f := range failures {
		if !strings.Contains(f, store.ErrBusy.Error()) {
			t.Errorf("remember failed, and not as busy: %s", f)
		}
	}

	kept := keptTexts(t, root)
	for _, text := range recordedTexts {
		if kept[text] != 1 {
			t.Errorf("entry %q is kept %d times, want once (remember said it recorded it)", text, kept[text])
		}
	}
	t.Logf("the state folder was removed %d times; %d entries recorded, %d remember calls failed", removals, len(recordedTexts), len(failures))
	if removals < 5 || len(recordedTexts) < 18 {
		t.Fatalf("%d removals, %d of 36 entries recorded: the test proved little", removals, len(recordedTexts))
	}
	readMemory(t, root) // and it parses
}
