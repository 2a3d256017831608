package store

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

// An editor saving a stale buffer writes bimri.md without the entries
// recorded since it read the file; no lock can stop it. The next
// transaction restores each from the journal, once, and says so once;
// forgotten entries (in the archive) stay gone, and an entry deleted by
// hand after its restore stays deleted (issue 34, item 12).
func TestJournalRestoresWhatAStaleSaveDropped(t *testing.T) {
	is := is.New(t)
	s := backupStore(t)
	stale := read(t, s.Path(memfile.MemoryName)) // the editor's buffer: First. only
	remember(t, s, "Second, recorded while the editor had the file open.")
	remember(t, s, "Third, forgotten later.")
	var third string
	_, err := s.Update(func(tx *Tx) error {
		for _, e := range tx.File.Entries(2) {
			if strings.HasPrefix(e.Text, "Third") {
				third = e.ID
				r, _ := tx.File.Remove(e.ID, "forgotten")
				tx.Archive = append(tx.Archive, r)
			}
		}
		return nil
	})
	is.NoErr(err)
	is.True(third != "")

	is.NoErr(os.WriteFile(s.Path(memfile.MemoryName), []byte(stale), 0o644)) // the stale save
	res, err := s.Update(func(*Tx) error { return nil })
	is.NoErr(err)
	memory := read(t, s.Path(memfile.MemoryName))
	is.Equal(strings.Count(memory, "Second, recorded while the editor had the file open."), 1)
	is.True(!strings.Contains(memory, "Third, forgotten later.")) // in the archive: stays gone
	is.True(strings.Contains(res.Notice, "restored 1 entry recorded here"))

	res, err = s.Update(func(*Tx) error { return nil })
	is.NoErr(err)
	is.Equal(res.Notice, "") // told once
	is.Equal(strings.Count(read(t, s.Path(memfile.MemoryName)), "Second, recorded"), 1)

	// Deleted by hand after its restore: the person meant it.
	is.NoErr(os.WriteFile(s.Path(memfile.MemoryName), []byte(stale), 0o644))
	res, err = s.Update(func(*Tx) error { return nil })
	is.NoErr(err)
	is.True(!strings.Contains(read(t, s.Path(memfile.MemoryName)), "Second, recorded"))
	is.Equal(res.Notice, "")
}

// The journal lives in the user's data folder, never in the workspace:
// nothing git can carry holds it.
func TestJournalIsOutsideTheWorkspace(t *testing.T) {
	is := is.New(t)
	s := backupStore(t)
	path := s.dataPath(journalName)
	is.True(path != "")
	is.True(!inside(s.root, path))
	data, err := os.ReadFile(path)
	is.NoErr(err)
	is.True(strings.Contains(string(data), `"text":"First."`))
}

// Checking out another branch takes that branch's entries out of
// bimri.md, and that is no loss: the journal restores only entries
// recorded on the branch checked out.
func TestJournalRestoresOnlyTheBranchCheckedOut(t *testing.T) {
	is := is.New(t)
	s := backupStore(t)
	is.NoErr(os.MkdirAll(s.Path(".git"), 0o755))
	head := func(branch string) {
		is.NoErr(os.WriteFile(s.Path(".git/HEAD"), []byte("ref: refs/heads/"+branch+"\n"), 0o644))
	}
	head("main")
	onMain := read(t, s.Path(memfile.MemoryName))
	head("feature")
	remember(t, s, "Recorded on the feature branch.")
	head("main") // git checkout main: bimri.md as main has it
	is.NoErr(os.WriteFile(s.Path(memfile.MemoryName), []byte(onMain), 0o644))
	res, err := s.Update(func(*Tx) error { return nil })
	is.NoErr(err)
	is.True(!strings.Contains(read(t, s.Path(memfile.MemoryName)), "Recorded on the feature branch."))
	is.Equal(res.Notice, "")
	head("feature") // back, and a stale save drops it there
	is.NoErr(os.WriteFile(s.Path(memfile.MemoryName), []byte(onMain), 0o644))
	res, err = s.Update(func(*Tx) error { return nil })
	is.NoErr(err)
	is.Equal(strings.Count(read(t, s.Path(memfile.MemoryName)), "Recorded on the feature branch."), 1)
	is.True(strings.Contains(res.Notice, "restored 1 entry"))
}

// Past compactJournal bytes, a transaction rewrites the journal with only
// the entries bimri.md holds, its own new one included, and the entries
// it keeps are still restored after a stale save.
func TestJournalCompactsPastItsLimit(t *testing.T) {
	is := is.New(t)
	s := backupStore(t)
	path := s.dataPath(journalName)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	is.NoErr(err)
	text := strings.Repeat("gone long ago ", 70)
	for i := 0; ; i++ {
		info, err := f.Stat()
		is.NoErr(err)
		if info.Size() > compactJournal {
			break
		}
		id := fmt.Sprintf("OLD-%d", i)
		fmt.Fprintf(f, `{"op":"add","id":%q,"tier":2,"importance":3,"date":"2026-11-01","text":%q}`+"\n", id, text)
		fmt.Fprintf(f, `{"op":"restored","id":%q}`+"\n", id)
	}
	is.NoErr(f.Close())
	before := read(t, s.Path(memfile.MemoryName))

	remember(t, s, "Second, recorded as the journal compacts.")
	journal := read(t, path)
	is.True(len(journal) < 4<<10)
	is.True(!strings.Contains(journal, "OLD-"))
	is.True(strings.Contains(journal, `"text":"First."`))
	is.True(strings.Contains(journal, `"text":"Second, recorded as the journal compacts."`))

	is.NoErr(os.WriteFile(s.Path(memfile.MemoryName), []byte(before), 0o644)) // a stale save
	res, err := s.Update(func(*Tx) error { return nil })
	is.NoErr(err)
	is.Equal(strings.Count(read(t, s.Path(memfile.MemoryName)), "Second, recorded as the journal compacts."), 1)
	is.True(strings.Contains(res.Notice, "restored 1 entry"))
}

// The branch an entry is journaled on is read through a worktree's or a
// submodule's .git file too, its gitdir absolute or relative; a .git file
// that names no gitdir is no branch.
func TestGitBranchFollowsAGitFile(t *testing.T) {
	is := is.New(t)
	s := backupStore(t)
	root := s.Root()
	gitdir := filepath.Join(root, "main-repo", ".git", "worktrees", "feature")
	is.NoErr(os.MkdirAll(gitdir, 0o755))
	is.NoErr(os.WriteFile(filepath.Join(gitdir, "HEAD"), []byte("ref: refs/heads/feature\n"), 0o644))
	for _, c := range []struct{ dotGit, want string }{
		{"gitdir: " + gitdir + "\n", "ref: refs/heads/feature"},
		{"gitdir: main-repo/.git/worktrees/feature\n", "ref: refs/heads/feature"},
		{"not a gitdir line\n", ""},
	} {
		is.NoErr(os.WriteFile(filepath.Join(root, ".git"), []byte(c.dotGit), 0o644))
		is.Equal(s.gitBranch(), c.want) // c.dotGit
	}
}
