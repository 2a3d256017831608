package main

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// goImports lists the packages the non-test Go files matching glob import.
func goImports(t *testing.T, glob string) []string {
	t.Helper()
	files, err := filepath.Glob(glob)
	if err != nil || len(files) == 0 {
		t.Fatalf("no files match %s (%v)", glob, err)
	}
	var out []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// The start-up bench/golinked measures is bimri-hook's only while it
// links the same packages: a package added to or dropped from the command
// must be added to or dropped from it too. The check lives here, not
// behind golinked's build tag, so the quick loop catches it.
func TestGolinkedImportsWhatTheBinaryImports(t *testing.T) {
	is := is.New(t)
	is.Equal(goImports(t, filepath.Join("..", "..", "bench", "golinked", "main.go")), goImports(t, "*.go"))
}

// goDebug lists the //go:debug settings of the non-test Go files matching
// glob, as the build reads them.
func goDebug(t *testing.T, glob string) []string {
	t.Helper()
	files, _ := filepath.Glob(glob)
	var out []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for line := range strings.Lines(string(data)) {
			if s, ok := strings.CutPrefix(line, "//go:debug "); ok {
				out = append(out, strings.TrimSpace(s))
			}
		}
	}
	slices.Sort(out)
	return out
}

// A hook leaves no goroutine following a container's CPU limit (main.go
// says why), and golinked starts as the command does.
func TestHookRuntimeSettings(t *testing.T) {
	is := is.New(t)
	info, ok := debug.ReadBuildInfo()
	is.True(ok)
	var godebug string
	for _, s := range info.Settings {
		if s.Key == "DefaultGODEBUG" {
			godebug = s.Value
		}
	}
	if !slices.Contains(strings.Split(godebug, ","), "updatemaxprocs=0") {
		t.Errorf("the binary's DefaultGODEBUG %q lacks updatemaxprocs=0", godebug)
	}
	is.Equal(goDebug(t, filepath.Join("..", "..", "bench", "golinked", "main.go")), goDebug(t, "*.go"))
}
