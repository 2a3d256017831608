package store_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
	"github.com/matryer/is"
)

// A 3,000-character entry read from the file is never cut: ten
// session-end passes through the store, a day apart, keep it byte for
// byte, in the file and in the backup.
func TestLongEntrySurvivesTenPasses(t *testing.T) {
	is := is.New(t)
	var words []string
	for i := 0; len(strings.Join(words, " ")) < 3000; i++ {
		words = append(words, fmt.Sprintf("word%d", i))
	}
	long := strings.TrimSpace(strings.Join(words, " ")[:3000]) + "."
	is.True(len(long) >= 3000)

	dir := t.TempDir()
	doc := fxDoc("", fxEntry(4, "2026-11-19", "long", long)+fxEntry(3, "2026-11-19", "", "A short one."), "")
	is.NoErr(os.WriteFile(filepath.Join(dir, memfile.MemoryName), []byte(doc), 0o644))
	s, err := store.OpenStore(dir, memfile.DefaultConfig(), store.StoreOptions{LockTimeout: time.Second})
	is.NoErr(err)
	first := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	for day := range 10 {
		_, err := s.Update(func(tx *store.Tx) error {
			tx.Maintain(first.AddDate(0, 0, day), memfile.DefaultConfig(), memfile.Options{CountSession: true})
			return nil
		})
		is.NoErr(err)
		read, err := s.Read()
		is.NoErr(err)
		es := read.File.Entries(2)
		is.True(len(es) >= 1)
		is.Equal(es[0].Text, long)
		mem, err := os.ReadFile(filepath.Join(dir, memfile.MemoryName))
		is.NoErr(err)
		is.True(strings.Contains(string(mem), "\n"+long+"\n"))
		if day > 0 {
			backup, err := os.ReadFile(filepath.Join(dir, memfile.BackupName))
			is.NoErr(err)
			is.True(strings.Contains(string(backup), "\n"+long+"\n"))
		}
	}
}
