package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/bimri/bimri-hook/internal/workspace"
	"github.com/bimri/bimri-hook/store/atomicfile"
	"github.com/urfave/cli/v2"
)

// The per-workspace switch. Off is a file in the workspace's state
// folder (workspace.OffPath), which ignores itself in git: turning memory
// off here is this clone's choice, never a teammate's. The hook entry
// reads it before anything else (cmd_hook.go), so every route and every
// agent's hooks honour it in one place.

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

// offNote is the off file's content, for a person who finds it.
const offNote = "bimri-hook off: memory is off in this workspace; bimri-hook on (or removing this file) turns it back on.\n"

// turn sets the workspace's switch and says what that means.
func (a *app) turn(c *cli.Context, on bool) error {
	if c.Args().Present() {
		return fmt.Errorf("%s takes no arguments (give the workspace with --dir)", c.Command.Name)
	}
	ws, err := a.openWorkspace(c, "")
	if err != nil {
		return err
	}
	root := ws.store.Root()
	path := workspace.OffPath(root)
	if on {
		err := os.Remove(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			fmt.Fprintf(a.stdout, "memory is already on in %s\n", root)
		case err != nil:
			return fmt.Errorf("turn memory on: %w", err)
		default:
			fmt.Fprintf(a.stdout, "memory is on again in %s: the next session starts with it\n", root)
		}
		return nil
	}
	if workspace.IsOff(root) {
		fmt.Fprintf(a.stdout, "memory is already off in %s (bimri-hook on turns it back on)\n", root)
		return nil
	}
	// The lock makes the state folder, checked to stay inside the
	// workspace and ignoring itself in git, as every hook finds it.
	if err := ws.store.CheckLock(); err != nil {
		return fmt.Errorf("turn memory off: %w", err)
	}
	if err := atomicfile.WriteFile(path, []byte(offNote), atomicfile.Options{}); err != nil {
		return fmt.Errorf("turn memory off: %w", err)
	}
	fmt.Fprintf(a.stdout, "memory is off in %s: every hook answers nothing, whichever route or agent runs it; bimri.md and its files stay as they are\n", root)
	fmt.Fprintf(a.stdout, "  the switch is %s, which git does not carry; bimri-hook on turns memory back on\n", path)
	return nil
}
