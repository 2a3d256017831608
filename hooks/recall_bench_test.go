package hooks

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
)

// BenchmarkRecallPrompt is UserPromptSubmit's recall on the folder named
// by BIMRI_RECALL_BENCH (a genfull output with a large archive), with
// the lexicon and with the prompt's words only; make bench times the
// whole process, this the work inside it.
func BenchmarkRecallPrompt(b *testing.B) {
	src := os.Getenv("BIMRI_RECALL_BENCH")
	if src == "" {
		b.Skip("BIMRI_RECALL_BENCH names no genfull folder")
	}
	root := b.TempDir()
	for _, name := range []string{memfile.MemoryName, memfile.ArchiveName} {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	store, err := store.OpenStore(root, memfile.DefaultConfig(), store.StoreOptions{LockTimeout: time.Second})
	if err != nil {
		b.Fatal(err)
	}
	env := Env{Store: store, Config: memfile.DefaultConfig(), Settings: DefaultSettings(), Today: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC), Binary: "bimri-hook"}
	in := Input{Event: "UserPromptSubmit", SessionID: "bench", Prompt: "How did we fix the session cache latency in the billing webhook handler?"}
	if err := store.CheckLock(); err != nil {
		b.Fatal(err)
	}
	// The session started, as every prompt's session has: its start
	// recorded what the view showed.
	if _, err := SessionStart(env, Input{Event: "SessionStart", SessionID: in.SessionID, Source: "startup"}); err != nil {
		b.Fatal(err)
	}
	for _, lexicon := range []bool{true, false} {
		name := map[bool]string{true: "lexicon", false: "words"}[lexicon]
		b.Run(name, func(b *testing.B) {
			env := env
			env.Settings.Recall.Lexicon = lexicon
			os.Remove(filepath.Join(store.StatePath(), "recalls.json"))
			if out := recallPrompt(env, in); out.JSON == nil {
				b.Fatal("nothing recalled")
			}
			for b.Loop() {
				os.Remove(filepath.Join(store.StatePath(), "recalls.json"))
				recallPrompt(env, in)
			}
		})
	}
}
