package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/bimri/bimri-hook/internal/config"
	"github.com/bimri/bimri-hook/internal/mergedriver"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/urfave/cli/v2"
)

// mergeDriverCommand is git's merge driver for bimri.md: git leaves the
// merge to it in %A, and reads a non-zero exit as a conflict.
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
			// The config of the merged file's folder (git runs drivers from the
			// top of the work tree); one that does not load gives the defaults
			// and the error to report, never a failed merge.
			root, err := resolveRoot(c, "")
			if err == nil && c.String("dir") == "" && os.Getenv("CLAUDE_PROJECT_DIR") == "" {
				root = filepath.Join(root, filepath.Dir(filepath.FromSlash(name)))
			}
			cfg := config.Default()
			if err == nil {
				cfg, err = config.Load(configPath(c), root)
			}
			return mergedriver.Merge(a.stdout, args[0], args[1], args[2], name, cfg.Memory, err)
		},
	}
}
