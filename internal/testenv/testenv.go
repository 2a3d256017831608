// Package testenv is for tests only: set-up several packages' tests share.
package testenv

import (
	"os"
	"testing"
)

// MainWithDataDir is a TestMain's whole body: it runs m with env (the
// store's DataEnv) naming a folder of the run's own, removed afterwards,
// so the user's data folder is never touched.
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
