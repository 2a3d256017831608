package wiring

import (
	"strings"
	"testing"

	"github.com/matryer/is"
)

func TestGitIgnore(t *testing.T) {
	is := is.New(t)
	for _, in := range []string{"", "node_modules/\n", "dist\r\n*.log", "/bimri-backup.md\n"} {
		out, changed := GitIgnore([]byte(in))
		is.True(changed)
		is.True(strings.HasPrefix(string(out), strings.TrimSuffix(in, "*.log")))
		lines := ignoreLinesOf(out)
		for _, l := range IgnoreLines {
			n := 0
			for _, have := range lines {
				if have == l {
					n++
				}
			}
			is.Equal(n, 1) // each once
		}
		is.True(!strings.Contains(string(out), "\n/bimri.md\n"))         // the memory is shared
		is.True(!strings.Contains(string(out), "\n/bimri-archive.md\n")) // and its history
		again, changed := GitIgnore(out)
		is.True(!changed)
		is.Equal(string(again), string(out))

		kept := in
		if in == "dist\r\n*.log" {
			kept = "dist\r\n*.log\r\n" // the missing newline is added
		}
		is.True(strings.HasPrefix(string(out), kept)) // what was there stays, first
	}
}
