package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/urfave/cli/v2"
)

// mergeDriverCommand is git's merge driver for bimri.md. git runs it as
// configured in merge.bimri.driver ("bimri-hook merge-driver %O %A %B"),
// from the top of the work tree, with three temporary files: the common
// ancestor, ours and theirs. The merged file must be left in %A; a
// non-zero exit tells git the merge conflicted.
func (a *app) mergeDriverCommand() *cli.Command {
	return &cli.Command{
		Name:      "merge-driver",
		Usage:     "git merge driver for bimri.md (merge.bimri.driver = bimri-hook merge-driver %O %A %B)",
		UsageText: "bimri-hook merge-driver BASE OURS THEIRS [PATH]",
		Description: "Merges two versions of bimri.md entry by entry and writes the result over OURS.\n" +
			"PATH (git's %P) only names the file in messages and locates the workspace's config.",
		Action: func(c *cli.Context) error {
			args := c.Args().Slice()
			if len(args) < 3 || len(args) > 4 {
				return fmt.Errorf("merge-driver: %w: BASE OURS THEIRS [PATH], as git passes %%O %%A %%B [%%P]", errNoArgs)
			}
			name := memfile.MemoryName
			if len(args) == 4 {
				name = args[3]
			}
			base, err := readMergeBase(args[0])
			if err != nil {
				return err
			}
			ours, err := readMergeSide("ours", args[1])
			if err != nil {
				return err
			}
			theirs, err := readMergeSide("theirs", args[2])
			if err != nil {
				return err
			}
			cfg, cfgErr := a.mergeConfig(c, name)
			merged, rep := memfile.MergeFiles(base, ours, theirs, cfg)
			if err := memfile.WriteFileAtomic(args[1], memfile.Render(merged)); err != nil {
				return fmt.Errorf("merge-driver: write the merged %s: %w", name, err)
			}
			printMerged(a.stdout, name, rep, base == nil, cfgErr)
			return nil
		},
	}
}

// readMergeSide reads ours or theirs. Either must be a memory file: git
// is told of a conflict rather than given a merge of something else.
func readMergeSide(side, path string) (*memfile.File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("merge-driver: read %s: %w", side, err)
	}
	f, _, err := memfile.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("merge-driver: %s (%s): %w", side, path, err)
	}
	return f, nil
}

// readMergeBase reads the common ancestor. git gives an empty file when
// there is none (both branches added bimri.md); a base that is not a
// memory file is treated the same way, since it only decides which
// removals to honour: the merge becomes a union.
func readMergeBase(path string) (*memfile.File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("merge-driver: read base: %w", err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	f, _, err := memfile.Parse(data)
	if errors.Is(err, memfile.ErrUnreadable) {
		return nil, nil
	}
	return f, err
}

// mergeConfig is the workspace's config, for the weights and the template
// comments of the merged file. The workspace is the folder of the merged
// file (git runs drivers from the top of the work tree). A config that
// does not load must not fail the merge, which does not depend on it
// otherwise: the defaults are used and the error is reported.
func (a *app) mergeConfig(c *cli.Context, name string) (memfile.Config, error) {
	root, err := resolveRoot(c, "")
	if err == nil && c.String("dir") == "" && os.Getenv("CLAUDE_PROJECT_DIR") == "" {
		root = filepath.Join(root, filepath.Dir(filepath.FromSlash(name)))
	}
	if err != nil {
		return memfile.DefaultConfig(), err
	}
	cfg, _, err := loadConfig(c.String("config"), root)
	if err != nil {
		return memfile.DefaultConfig(), err
	}
	return cfg, nil
}
