package main

// install and uninstall --agent copilot and --agent cursor.

import (
	"fmt"

	"github.com/bimri/bimri-hook/internal/install"
	"github.com/bimri/bimri-hook/wiring"
	"github.com/urfave/cli/v2"
)

// installCopilot is install --agent copilot.
func (a *app) installCopilot(c *cli.Context) error {
	root, err := resolveRoot(c, "")
	if err != nil {
		return err
	}
	f, err := install.CopilotFilesFor(c.String("scope"), root)
	if err != nil {
		return err
	}
	binary, err := install.BinaryFor(f.Config.Scope, c.String("binary"))
	if err != nil {
		return err
	}
	changed, err := install.InstallCopilot(f, wiring.Command{Binary: binary})
	if err != nil {
		return err
	}
	install.PrintCopilotInstalled(a.stdout, f, changed)
	return a.projectNotes(root, f.Config, binary)
}

// uninstallCopilot is uninstall --agent copilot.
func (a *app) uninstallCopilot(c *cli.Context) error {
	root, err := resolveRoot(c, "")
	if err != nil {
		return err
	}
	f, err := install.CopilotFilesFor(c.String("scope"), root)
	if err != nil {
		return err
	}
	changed, err := install.UninstallCopilot(f)
	if err != nil {
		return err
	}
	if changed {
		fmt.Fprintf(a.stdout, "Copilot: took bimri-hook's hooks and MCP server out of %s and %s\n", f.Own, f.Config.Path)
	} else {
		fmt.Fprintf(a.stdout, "Copilot: nothing of bimri-hook's in %s or %s\n", f.Own, f.Config.Path)
	}
	return nil
}

// installCursor is install --agent cursor.
func (a *app) installCursor(c *cli.Context) error {
	root, err := resolveRoot(c, "")
	if err != nil {
		return err
	}
	file, err := install.CursorHooksFor(c.String("scope"), root)
	if err != nil {
		return err
	}
	binary, err := install.BinaryFor(file.Scope, c.String("binary"))
	if err != nil {
		return err
	}
	changed, err := install.InstallCursor(file, wiring.Command{Binary: binary})
	if err != nil {
		return err
	}
	verb := "already wired"
	if changed {
		verb = "wired"
	}
	fmt.Fprintf(a.stdout, "Cursor: %s %s (%s), from Cursor's documentation: not tried on a Cursor client\n", verb, file.Path, install.EventList(wiring.CursorEvents()))
	return a.projectNotes(root, file, binary)
}

// uninstallCursor is uninstall --agent cursor.
func (a *app) uninstallCursor(c *cli.Context) error {
	root, err := resolveRoot(c, "")
	if err != nil {
		return err
	}
	file, err := install.CursorHooksFor(c.String("scope"), root)
	if err != nil {
		return err
	}
	changed, err := install.UninstallCursor(file)
	if err != nil {
		return err
	}
	if changed {
		fmt.Fprintf(a.stdout, "Cursor: took bimri-hook's hooks out of %s\n", file.Path)
	} else {
		fmt.Fprintf(a.stdout, "Cursor: nothing of bimri-hook's in %s\n", file.Path)
	}
	return nil
}
