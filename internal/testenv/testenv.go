// Package testenv is for tests only: what the test binaries of several
// packages set up the same way.
package testenv

import (
	"os"
	"testing"
)

// MainWithDataDir runs m with the environment variable env (the store's
// DataEnv) naming a folder of the run's own, so that what the store keeps
// in the user's data folder (provenance, the journal) never lands in the
// real one; the folder is removed afterwards. It is a TestMain's whole body.
func MainWithDataDir(m *testing.M, env string) {
	dir, err := os.MkdirTemp("", "bimri-data-")
	if err != nil {
		panic(err)
	}
	os.Setenv(env, dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
