//go:build bench

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

// imports lists the packages the non-test Go files matching glob import.
func imports(t *testing.T, glob string) []string {
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

// The start-up golinked measures is bimri-hook's only while it links
// the same packages: a package added to the command must be added here.
func TestGolinkedImportsWhatTheBinaryImports(t *testing.T) {
	is := is.New(t)
	is.Equal(imports(t, "main.go"), imports(t, filepath.Join("..", "..", "cmd", "bimri-hook", "*.go")))
}
