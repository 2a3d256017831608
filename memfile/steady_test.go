package memfile_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

// A plain pass over what a pass left on the same day changes nothing: the
// store skips it on that promise (Tx.Maintain, Store.ReadMaintained).
// Checked over generated files of every size the benchmarks use, every
// golden input, both a tight and a roomy config, and whatever options the
// first pass had.
func TestPassIdempotent(t *testing.T) {
	inputs := map[string][]byte{}
	for _, n := range []int{1, 10, 100, 1000} {
		inputs[fmt.Sprintf("fxGen(%d)", n)] = fxGen(n)
	}
	paths, err := filepath.Glob("testdata/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		if data, err := os.ReadFile(p); err == nil {
			inputs[p] = data
		}
	}
	tight := memfile.DefaultConfig()
	tight.Budgets = [3]int{200, 300, 100}
	tight.TotalBudget = 500
	configs := map[string]memfile.Config{"default": memfile.DefaultConfig(), "roomy": benchConfig(), "tight": tight}
	options := []memfile.Options{{}, {CountSession: true}, {Deep: true}}
	checked := 0
	for name, data := range inputs {
		f, _, err := memfile.Parse(data)
		if err != nil {
			continue
		}
		for cfgName, cfg := range configs {
			for _, opt := range options {
				once, _ := memfile.Maintain(f, fxToday, cfg, opt)
				first := memfile.Render(once)
				again, _, err := memfile.Parse(first)
				if err != nil {
					t.Fatalf("%s: a pass's output does not parse: %v", name, err)
				}
				twice, rep := memfile.Maintain(again, fxToday, cfg, memfile.Options{})
				if second := memfile.Render(twice); !bytes.Equal(first, second) {
					t.Errorf("%s, %s config, first pass %+v: a second plain pass on the same day changed the file", name, cfgName, opt)
				}
				if len(rep.Removed) > 0 || len(rep.Patterns) > 0 {
					t.Errorf("%s, %s config: a second pass reported changes: %s", name, cfgName, rep.Summary())
				}
				// What the store answers instead of that pass.
				settled := memfile.SettledReport(again, cfg)
				if settled.Tokens != rep.Tokens || settled.DeepDue != rep.DeepDue || fmt.Sprint(settled.Warnings) != fmt.Sprint(rep.Warnings) {
					t.Errorf("%s, %s config: SettledReport %+v differs from the pass's %+v", name, cfgName, settled, rep)
				}
				checked++
			}
		}
	}
	if checked < 50 {
		t.Fatalf("only %d cases checked", checked)
	}
}

func steadyStore(t *testing.T, data []byte) *memfile.Store {
	t.Helper()
	root := t.TempDir()
	if data != nil {
		if err := os.WriteFile(filepath.Join(root, memfile.MemoryName), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := memfile.OpenStore(root, memfile.DefaultConfig(), memfile.StoreOptions{LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The store skips a plain pass only over the bytes a pass left that day,
// under that config, and gives the same file and report as running it.
func TestStoreSkipsRepeatedPass(t *testing.T) {
	is := is.New(t)
	cfg := memfile.DefaultConfig()
	s := steadyStore(t, fxGen(60))
	pass := func(day time.Time, cfg memfile.Config, change func(tx *memfile.Tx)) memfile.Report {
		var rep memfile.Report
		_, err := s.Update(func(tx *memfile.Tx) error {
			if change != nil {
				change(tx)
			}
			rep = tx.Maintain(day, cfg, memfile.Options{})
			return nil
		})
		is.NoErr(err)
		return rep
	}
	_, ok := s.ReadMaintained(fxToday, cfg)
	is.True(!ok) // never maintained: no stamp

	is.True(!pass(fxToday, cfg, nil).Skipped) // the first pass runs and writes
	maintained, err := os.ReadFile(s.Path(memfile.MemoryName))
	is.NoErr(err)
	snap, ok := s.ReadMaintained(fxToday, cfg)
	is.True(ok)
	f := snap.File
	is.Equal(memfile.Render(f), maintained)

	rep := pass(fxToday, cfg, nil)
	is.True(rep.Skipped) // the same day, nothing changed: skipped
	ran, full := memfile.Maintain(f, fxToday, cfg, memfile.Options{})
	is.Equal(memfile.Render(ran), maintained) // running it would have changed nothing
	is.Equal(rep.Tokens, full.Tokens)
	is.Equal(rep.Summary(), full.Summary())

	// Not skipped: the next day, another config, a change in the same
	// transaction, a change on disk, or options.
	_, ok = s.ReadMaintained(fxToday.AddDate(0, 0, 1), cfg)
	is.True(!ok)
	other := cfg
	other.Threshold++
	_, ok = s.ReadMaintained(fxToday, other)
	is.True(!ok)
	is.True(!pass(fxToday, other, nil).Skipped)
	is.True(!pass(fxToday, cfg, nil).Skipped) // the stamp now names the other config
	is.True(pass(fxToday, cfg, nil).Skipped)

	rep = pass(fxToday, cfg, func(tx *memfile.Tx) {
		_, _, err := tx.File.Add(memfile.NewEntry{Tier: 2, Importance: 3, Date: fxToday, Tags: []string{"perf"}, Text: "Made the steady session start read only."})
		is.NoErr(err)
	})
	is.True(!rep.Skipped)
	added, err := os.ReadFile(s.Path(memfile.MemoryName))
	is.NoErr(err)
	is.True(bytes.Contains(added, []byte("[WEIGHT:3.0]"))) // the pass weighed the new entry
	is.True(pass(fxToday, cfg, nil).Skipped)

	// An edit that keeps the file's length changes its fingerprint too.
	same := bytes.Replace(added, []byte("Made the steady"), []byte("Made the stEady"), 1)
	is.Equal(len(same), len(added))
	is.True(!bytes.Equal(same, added))
	is.NoErr(os.WriteFile(s.Path(memfile.MemoryName), same, 0o644))
	_, ok = s.ReadMaintained(fxToday, cfg)
	is.True(!ok)
	is.NoErr(os.WriteFile(s.Path(memfile.MemoryName), added, 0o644)) // back as the pass left it
	_, ok = s.ReadMaintained(fxToday, cfg)
	is.True(ok)

	is.NoErr(os.WriteFile(s.Path(memfile.MemoryName), append(added, "\nA note someone wrote.\n"...), 0o644))
	_, ok = s.ReadMaintained(fxToday, cfg)
	is.True(!ok)
	is.True(!pass(fxToday, cfg, nil).Skipped)

	var deep memfile.Report
	_, err = s.Update(func(tx *memfile.Tx) error {
		deep = tx.Maintain(fxToday, cfg, memfile.Options{Deep: true})
		return nil
	})
	is.NoErr(err)
	is.True(!deep.Skipped)
}

// UpdateFrom starts from the snapshot's file when bimri.md still holds
// the bytes it was read from, and knows the pass would change nothing;
// when bimri.md changed since, it reads the file again and nothing of
// the change is lost.
func TestUpdateFromSnapshot(t *testing.T) {
	is := is.New(t)
	cfg := memfile.DefaultConfig()
	s, err := memfile.OpenStore(t.TempDir(), cfg, memfile.StoreOptions{LockTimeout: time.Second, Today: fxToday})
	is.NoErr(err)
	maintain := func(snap *memfile.Snapshot, change func(tx *memfile.Tx)) (*memfile.File, memfile.Report) {
		var f *memfile.File
		var rep memfile.Report
		_, err := s.UpdateFrom(snap, func(tx *memfile.Tx) error {
			rep = tx.Maintain(fxToday, cfg, memfile.Options{})
			if change != nil {
				change(tx)
			}
			f = tx.File
			return nil
		})
		is.NoErr(err)
		return f, rep
	}
	maintain(nil, func(tx *memfile.Tx) {
		_, _, err := tx.File.Add(memfile.NewEntry{Tier: 2, Importance: 3, Date: fxToday, Tags: []string{"perf"}, Text: "Parsed the memory once per session start."})
		is.NoErr(err)
	})
	maintain(nil, nil) // weighs the new entry and stamps the file
	snap, ok := s.ReadMaintained(fxToday, cfg)
	is.True(ok)
	before, err := os.ReadFile(s.Path(memfile.MemoryName))
	is.NoErr(err)

	f, rep := maintain(snap, nil)
	is.True(f == snap.File) // not parsed again
	is.True(rep.Skipped)    // the pass knew it would change nothing
	after, err := os.ReadFile(s.Path(memfile.MemoryName))
	is.NoErr(err)
	is.Equal(after, before) // and nothing was written

	// Someone records an entry between the read and the lock.
	_, err = s.Update(func(tx *memfile.Tx) error {
		_, _, err := tx.File.Add(memfile.NewEntry{Tier: 2, Importance: 4, Date: fxToday, Tags: []string{"db"}, Text: "Chose SQLite for the cache."})
		return err
	})
	is.NoErr(err)
	f, rep = maintain(snap, nil)
	is.True(f != snap.File) // the file changed: read again
	is.True(!rep.Skipped)
	after, err = os.ReadFile(s.Path(memfile.MemoryName))
	is.NoErr(err)
	is.True(bytes.Contains(after, []byte("Chose SQLite for the cache.")))
}

// FuzzPassIdempotent: for whatever Parse accepts, a plain pass over a
// pass's output on the same day renders the same bytes, under a tight and
// the default config; the store's skip rests on it.
func FuzzPassIdempotent(f *testing.F) {
	addTestdataSeeds(f)
	tight := memfile.DefaultConfig()
	tight.Budgets = [3]int{200, 300, 100}
	tight.TotalBudget = 500
	f.Fuzz(func(t *testing.T, data []byte) {
		file, _, err := memfile.Parse(data)
		if err != nil {
			return
		}
		for _, cfg := range []memfile.Config{memfile.DefaultConfig(), tight} {
			for _, opt := range []memfile.Options{{}, {CountSession: true}, {Deep: true}} {
				once, _ := memfile.Maintain(file, fxToday, cfg, opt)
				first := memfile.Render(once)
				again, _, err := memfile.Parse(first)
				if err != nil {
					t.Fatalf("a pass's output does not parse: %v", err)
				}
				twice, _ := memfile.Maintain(again, fxToday, cfg, memfile.Options{})
				if second := memfile.Render(twice); !bytes.Equal(first, second) {
					t.Fatalf("a second plain pass changed the file:\n%s", lineDiff(string(first), string(second)))
				}
			}
		}
	})
}
