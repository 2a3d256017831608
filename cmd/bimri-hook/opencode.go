package main

// install and uninstall --agent opencode.

import (
	"fmt"

	"github.com/bimri/bimri-hook/internal/install"
	"github.com/bimri/bimri-hook/wiring"
	"github.com/urfave/cli/v2"
)

// openCodeFiles is the workspace and OpenCode's files of --scope.
func openCodeFiles(c *cli.Context) (root string, f install.OpenCodeFiles, err error) {
	if root, err = resolveRoot(c, ""); err != nil {
		return "", f, err
	}
	f, err = install.OpenCodeFilesFor(c.String("scope"), root)
	return root, f, err
}

// installOpenCode is install --agent opencode.
func (a *app) installOpenCode(c *cli.Context) error {
	root, f, err := openCodeFiles(c)
	if err != nil {
		return err
	}
	binary, err := install.BinaryFor(f.Config.Scope, c.String("binary"))
	if err != nil {
		return err
	}
	changed, err := install.InstallOpenCode(f, wiring.Command{Binary: binary})
	if err != nil {
		return err
	}
	install.PrintOpenCodeInstalled(a.stdout, f, changed)
	return a.projectNotes(root, f.Config, binary)
}

// uninstallOpenCode is uninstall --agent opencode.
func (a *app) uninstallOpenCode(c *cli.Context) error {
	_, f, err := openCodeFiles(c)
	if err != nil {
		return err
	}
	changed, err := install.UninstallOpenCode(f)
	if err != nil {
		return err
	}
	if changed {
		fmt.Fprintf(a.stdout, "OpenCode: took bimri-hook's plugin and MCP server out of %s and %s\n", f.Plugin, f.Config.Path)
	} else {
		fmt.Fprintf(a.stdout, "OpenCode: nothing of bimri-hook's in %s or %s\n", f.Plugin, f.Config.Path)
	}
	return nil
}
