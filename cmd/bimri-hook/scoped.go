package main

// install and uninstall --agent for the clients whose files --scope and
// the workspace name alone (Gemini, OpenCode, the Copilot CLI, Cursor).

import (
	"io"

	"github.com/bimri/bimri-hook/internal/install"
	"github.com/bimri/bimri-hook/wiring"
	"github.com/urfave/cli/v2"
)

// installScoped runs wire, install's work for one client in --scope,
// running the binary install picks, and the project notes on the file
// it returns.
func (a *app) installScoped(c *cli.Context, wire func(w io.Writer, scope, root string, command wiring.Command) (install.SettingsFile, error)) error {
	root, err := resolveRoot(c, "")
	if err != nil {
		return err
	}
	binary, err := install.BinaryFor(c.String("scope"), c.String("binary"))
	if err != nil {
		return err
	}
	file, err := wire(a.stdout, c.String("scope"), root, wiring.Command{Binary: binary})
	if err != nil {
		return err
	}
	return a.projectNotes(root, file, binary)
}

// uninstallScoped runs unwire, uninstall's work for one client in --scope.
func (a *app) uninstallScoped(c *cli.Context, unwire func(w io.Writer, scope, root string) error) error {
	root, err := resolveRoot(c, "")
	if err != nil {
		return err
	}
	return unwire(a.stdout, c.String("scope"), root)
}
