package main

import (
	"fmt"

	"github.com/bimri/bimri-hook/internal/install"
	"github.com/urfave/cli/v2"
)

func (a *app) offCommand() *cli.Command {
	return &cli.Command{
		Name:      "off",
		Usage:     "turn memory off in this workspace: every hook answers nothing until bimri-hook on",
		UsageText: "bimri-hook off [--dir FOLDER]",
		Description: "The plugin and the settings keep running bimri-hook, which does nothing here: no memory at\n" +
			"session start, nothing recorded. bimri.md and its files stay as they are. The switch is a file in\n" +
			".claude/bimri/, which git ignores, so it is this clone's alone.",
		Action: func(c *cli.Context) error { return a.turn(c, false) },
	}
}

func (a *app) onCommand() *cli.Command {
	return &cli.Command{
		Name:      "on",
		Usage:     "turn memory back on in this workspace after bimri-hook off",
		UsageText: "bimri-hook on [--dir FOLDER]",
		Action:    func(c *cli.Context) error { return a.turn(c, true) },
	}
}

// turn sets the workspace's switch.
func (a *app) turn(c *cli.Context, on bool) error {
	if c.Args().Present() {
		return fmt.Errorf("%s takes no arguments (give the workspace with --dir)", c.Command.Name)
	}
	ws, err := a.openWorkspace(c, "")
	if err != nil {
		return err
	}
	return install.Turn(a.stdout, ws.store, on)
}
