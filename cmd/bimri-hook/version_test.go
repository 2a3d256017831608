package main

import (
	"os"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// The binary's version, the VERSION file and (tested in wiring) the
// plugin manifest move together: a release bumps all three.
func TestVersionMatchesVersionFile(t *testing.T) {
	is := is.New(t)
	data, err := os.ReadFile("../../VERSION")
	is.NoErr(err)
	is.Equal(version, strings.TrimSpace(string(data))) // bump main.version with VERSION
}
