package hooks

import (
	"os"
	"testing"

	"github.com/bimri/bimri-hook/store"
)

// TestMain keeps the user's data folder (provenance, the journal) of
// every test workspace in a folder of the run's own, not the user's.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "bimri-data-")
	if err != nil {
		panic(err)
	}
	os.Setenv(store.DataEnv, dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
