package hooks

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
	"github.com/matryer/is"
)

// TestSessionStartConvertsModelWrittenFile: the first SessionStart over a
// file a model wrote by the protocol writes the canonical form, tells the
// user once how the loose lines were read, and shows the model every
// entry; unread lines come with the exact commands to re-record them.
func TestSessionStartConvertsModelWrittenFile(t *testing.T) {
	is := is.New(t)
	data, err := os.ReadFile("../memfile/testdata/model-written.input")
	is.NoErr(err)
	// One line no one can read, to see the instructions for it.
	data = []byte(strings.Replace(string(data), "## Tier 3: Pattern Recognition", "[IMPORTANCE:high] Ship on Fridays only.\n\n## Tier 3: Pattern Recognition", 1))
	root := t.TempDir()
	is.NoErr(os.WriteFile(root+"/"+memfile.MemoryName, data, 0o644))
	cfg := memfile.DefaultConfig()
	st, err := store.OpenStore(root, cfg, store.StoreOptions{LockTimeout: time.Second})
	is.NoErr(err)
	env := Env{Store: st, Config: cfg, Settings: DefaultSettings(), Today: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC), Binary: "/opt/bin/bimri-hook"}

	out, err := Handle(env, Input{Event: "SessionStart", SessionID: "s1", Source: "startup"})
	is.NoErr(err)
	msg, _ := out.JSON["systemMessage"].(string)
	is.True(strings.HasPrefix(msg, "BIMRI converted bimri.md to its canonical format"))
	is.True(!strings.Contains(msg, "\n")) // the interface shows it whole: one line
	is.True(strings.Contains(msg, `23 lines written loosely were read, the first: line 1: header "Sessions: 12 (next deep: 20)" read as Sessions: 12`))
	is.True(strings.Contains(msg, "the file as it was is in bimri-backup.md"))
	is.True(strings.Contains(msg, "patterns p62e0588 and p21c2d62 were both for tag testing; they are now one, p62e0588"))
	is.True(strings.Contains(msg, "could not be read"))

	text := out.JSON["hookSpecificOutput"].(map[string]any)["additionalContext"].(string)
	is.True(memfile.Length(text) <= 10000)
	read, err := st.Read()
	is.NoErr(err)
	f, w := read.File, read.Warnings
	for _, x := range w {
		is.True(!x.Converted) // the file on disk is canonical now
	}
	for tier := 1; tier <= 2; tier++ {
		for _, e := range f.Entries(tier) {
			is.True(strings.Contains(text, "(id "+e.ID+")"))
		}
	}
	note := f.Tiers[1].Blocks[len(f.Tiers[1].Blocks)-1].Note
	is.True(note != nil)
	id := memfile.NoteID(note)
	is.True(strings.Contains(text, "- unread, Tier 2 (note id "+id+"): [IMPORTANCE:high] Ship on Fridays only."))
	is.True(strings.Contains(text, "/opt/bin/bimri-hook remember --dir "+root+" --importance N"))
	is.True(strings.Contains(text, "/opt/bin/bimri-hook forget --dir "+root+" --reason re-recorded NOTE-ID"))

	// Shown once: the next session has nothing to convert.
	out, err = Handle(env, Input{Event: "SessionStart", SessionID: "s2", Source: "startup"})
	is.NoErr(err)
	msg, _ = out.JSON["systemMessage"].(string)
	is.True(!strings.Contains(msg, "converted"))

	// Once the note is forgotten, the instructions go too.
	_, err = st.Update(func(tx *store.Tx) error {
		a, ok := tx.File.Remove(id, "re-recorded")
		is.True(ok)
		tx.Archive = append(tx.Archive, a)
		return nil
	})
	is.NoErr(err)
	text = startText(t, env, "s3")
	is.True(!strings.Contains(text, "unread"))
}

// A canonical file with an entry dated years ahead: SessionStart dates it
// today and tells the user so, in one line, though nothing else needed
// converting.
func TestSessionStartTellsOfAFutureDateCorrected(t *testing.T) {
	is := is.New(t)
	env, _ := recordEnv(t)
	_, err := env.Store.Update(func(tx *store.Tx) error {
		_, _, err := tx.File.Add(memfile.NewEntry{Tier: 2, Importance: 3, Date: time.Date(2036, 1, 1, 0, 0, 0, 0, time.UTC), Tags: []string{"ops"}, Text: "Recorded with the clock set ahead."})
		return err
	})
	is.NoErr(err)

	out, err := Handle(env, Input{Event: "SessionStart", SessionID: "s1", Source: "startup"})
	is.NoErr(err)
	msg, _ := out.JSON["systemMessage"].(string)
	is.True(strings.HasPrefix(msg, "BIMRI corrected bimri.md: entry "))
	is.True(strings.Contains(msg, "was dated 2036-01-01"))
	is.True(!strings.Contains(msg, "\n"))
}
