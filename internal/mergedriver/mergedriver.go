// Package mergedriver is git's merge driver for bimri.md: it reads the
// three versions git gives, merges them entry by entry (memfile.MergeFiles)
// and writes the result over ours, as git expects.
package mergedriver

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store/atomicfile"
	"github.com/bimri/bimri-hook/store/safefile"
)

// Result is what a merge decided that a person may want to check.
type Result struct {
	Report memfile.MergeReport
	NoBase bool // no common version: both branches added the file
}

// Merge merges base, ours and theirs (git's %O %A %B) and writes the
// merged file over ours. name names the file in messages.
func Merge(basePath, oursPath, theirsPath, name string, cfg memfile.Config) (Result, error) {
	base, err := read("base", basePath)
	if err != nil {
		return Result{}, err
	}
	ours, err := read("ours", oursPath)
	if err != nil {
		return Result{}, err
	}
	theirs, err := read("theirs", theirsPath)
	if err != nil {
		return Result{}, err
	}
	merged, rep := memfile.MergeFiles(base, ours, theirs, cfg)
	if err := atomicfile.WriteFile(oursPath, memfile.Render(merged), atomicfile.Options{}); err != nil {
		return Result{}, fmt.Errorf("merge-driver: write the merged %s: %w", name, err)
	}
	return Result{Report: rep, NoBase: base == nil}, nil
}

// read reads one of the three versions. Ours and theirs must be memory
// files: git is told of a conflict rather than given a merge of something
// else. The base may be empty (both branches added bimri.md) or not a
// memory file: it only decides which removals to honour, so without it
// the merge is a union.
func read(side, path string) (*memfile.File, error) {
	data, err := safefile.Read(path, memfile.MaxMemorySize)
	if err != nil {
		return nil, fmt.Errorf("merge-driver: read %s: %w", side, err)
	}
	if side == "base" && len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	f, _, err := memfile.Parse(data)
	if side == "base" && errors.Is(err, memfile.ErrUnreadable) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("merge-driver: %s (%s): %w", side, path, err)
	}
	return f, nil
}
