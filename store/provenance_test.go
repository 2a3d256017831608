package store_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
	"github.com/matryer/is"
)

// provenanceStore is a workspace holding doc as bimri.md, a git work tree
// when git is set, with no state yet.
func provenanceStore(t *testing.T, doc string, git bool) *store.Store {
	t.Helper()
	is := is.New(t)
	root := t.TempDir()
	if git {
		is.NoErr(os.Mkdir(filepath.Join(root, ".git"), 0o755))
	}
	is.NoErr(os.WriteFile(filepath.Join(root, memfile.MemoryName), []byte(doc), 0o644))
	s, err := store.OpenStore(root, memfile.DefaultConfig(), store.StoreOptions{LockTimeout: time.Second, NoSync: true, Today: fxToday})
	is.NoErr(err)
	return s
}

func remember(t *testing.T, s *store.Store, text string) string {
	t.Helper()
	var id string
	_, err := s.Update(func(tx *store.Tx) error {
		e, _, err := tx.File.Add(memfile.NewEntry{Tier: 2, Importance: 3, Date: fxToday, Text: text})
		if e != nil {
			id = e.ID
		}
		tx.Maintain(fxToday, memfile.DefaultConfig(), memfile.Options{})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func foreign(s *store.Store, id string) bool {
	f := s.Foreign()
	return f != nil && f(id)
}

// A clone's entries came from elsewhere; what this workspace records
// after it did not, and neither does an entry that was here before the
// list was kept (a pass ran, or the file is not in git).
func TestProvenanceOfAClone(t *testing.T) {
	is := is.New(t)
	doc := fxDoc("", fxEntry(3, fxAgo(2), "ops", "A teammate's note.")+fxEntry(4, fxAgo(1), "ops", "Another one."), "")
	s := provenanceStore(t, doc, true)
	read, err := s.Read()
	is.NoErr(err)
	theirs := read.File.Entries(2)
	is.Equal(len(theirs), 2)
	ours := remember(t, s, "Recorded here, after the clone.")
	for _, e := range theirs {
		is.True(foreign(s, e.ID))
	}
	is.True(!foreign(s, ours))

	// Not a git work tree (a model kept the file by the protocol): its
	// entries are this workspace's own.
	plain := provenanceStore(t, doc, false)
	remember(t, plain, "Recorded here.")
	is.Equal(plain.Foreign(), nil)
}

// An entry that appears in bimri.md between the store's transactions (a
// pull, a merge, an edit) is marked; the workspace's own are not, and
// stay so after it.
func TestProvenanceOfAPull(t *testing.T) {
	is := is.New(t)
	s := provenanceStore(t, fxDoc("", "", ""), true)
	ours := remember(t, s, "Our first note.")
	is.Equal(s.Foreign(), nil) // nothing from elsewhere yet
	data, err := os.ReadFile(s.Path(memfile.MemoryName))
	is.NoErr(err)
	f, _, err := memfile.Parse(data)
	is.NoErr(err)
	pulled, _, err := f.Add(memfile.NewEntry{Tier: 2, Importance: 5, Date: fxToday, Text: "Pulled from a teammate's branch."})
	is.NoErr(err)
	is.NoErr(os.WriteFile(s.Path(memfile.MemoryName), memfile.Render(f), 0o644))
	after := remember(t, s, "Our second note.")
	is.True(foreign(s, pulled.ID))
	is.True(!foreign(s, ours))
	is.True(!foreign(s, after))
}

// A workspace an older bimri-hook kept (a pass ran here, and no list
// was kept) keeps its entries as its own.
func TestProvenanceOfAnUpgrade(t *testing.T) {
	is := is.New(t)
	s := provenanceStore(t, fxDoc("", fxEntry(3, fxAgo(2), "ops", "Recorded before the list."), ""), true)
	_, err := s.Update(func(tx *store.Tx) error {
		tx.Maintain(fxToday, memfile.DefaultConfig(), memfile.Options{})
		return nil
	})
	is.NoErr(err)
	// As an older bimri-hook leaves the state folder: a pass stamp, no
	// lists.
	is.NoErr(os.Remove(filepath.Join(s.StatePath(), "recorded-here")))
	is.NoErr(os.Remove(filepath.Join(s.StatePath(), "recorded-elsewhere")))
	is.NoErr(os.WriteFile(filepath.Join(s.StatePath(), "pass"), []byte("2026-11-29 1 0123456789abcdef 100-0badf00d\n"), 0o644))
	remember(t, s, "And after it.")
	is.Equal(s.Foreign(), nil)
}
