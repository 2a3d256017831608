package main

import (
	"go/parser"
	"go/token"
	"path/filepath"
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
