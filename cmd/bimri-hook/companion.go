package main

// browse and mcp run programs of their own, bimri-hook-browse and
// bimri-hook-mcp, so that the terminal library and the MCP SDK never
// initialise with a hook.

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/bimri/bimri-hook/internal/config"
	"github.com/bimri/bimri-hook/internal/workspace"
	"github.com/urfave/cli/v2"
)

const (
	browseProgram = "bimri-hook-browse"
	mcpProgram    = "bimri-hook-mcp"
)

// companionCommands run browseProgram and mcpProgram with the common
// flags given, so they find the workspace as this program does.
func (a *app) companionCommands() []*cli.Command {
	run := func(program string, exec func(a *app, prog string, argv []string) error) cli.ActionFunc {
		return func(c *cli.Context) error {
			if c.Args().Present() {
				return fmt.Errorf("%s takes no arguments, got %q", c.Command.Name, c.Args().First())
			}
			prog, err := companion(c.Command.Name, program)
			if err != nil {
				return err
			}
			args := []string{prog} // and the common flags given, or their variables
			for _, f := range [][2]string{{"dir", ""}, {"config", config.EnvVar}, {"today", "BIMRI_TODAY"}} {
				if v := commonFlag(c, f[0], f[1]); v != "" {
					args = append(args, "--"+f[0], v)
				}
			}
			if c.Bool("global") {
				args = append(args, "--global")
			}
			return exec(a, prog, args)
		}
	}
	return []*cli.Command{{
		Name:   "browse",
		Usage:  "page through the memory and the archive in the terminal; search, see why, forget, revive, promote, supersede",
		Flags:  []cli.Flag{&cli.BoolFlag{Name: "global", Usage: "browse the global memory"}},
		Action: run(browseProgram, (*app).runCompanion),
	}, {
		Name:  "mcp",
		Usage: "serve the memory as MCP tools (memory, remember, recall, forget, revive) on stdin and stdout",
		Description: `An MCP server for clients that call tools: Claude Desktop (the bundle), Cowork and
Claude Code (the plugin declares it). The workspace is $CLAUDE_PROJECT_DIR, else --dir,
else the first folder the client gives as a root, else the current folder.
It runs ` + mcpProgram + `, found beside this binary or on PATH.`,
		Action: run(mcpProgram, (*app).replaceWith),
	}}
}

// runCompanion runs prog with argv and a's streams and waits for it.
func (a *app) runCompanion(prog string, argv []string) error {
	cmd := exec.Command(prog)
	cmd.Args, cmd.Stdin, cmd.Stdout, cmd.Stderr = argv, a.stdin, a.stdout, a.stderr
	if err := cmd.Run(); !errors.As(err, new(*exec.ExitError)) {
		return err
	}
	return errQuiet // it said why on stderr
}

// companion finds program beside this executable (links followed, so
// install --link's finds the plugin's), with this one's suffix after
// bimri-hook (-linux-amd64 in the plugin, .exe), else bare, else on PATH.
func companion(command, program string) (string, error) {
	if exe, err := workspace.Executable(); err == nil {
		dir, name := filepath.Split(exe)
		var names []string
		if rest, ok := strings.CutPrefix(name, "bimri-hook"); ok {
			names = append(names, program+rest)
		}
		for _, n := range append(names, program, program+".exe") {
			p := filepath.Join(dir, n)
			if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
				return p, nil
			}
		}
	}
	if p, err := exec.LookPath(program); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("%s runs %s, found neither beside bimri-hook nor on PATH: make install puts both in place (or go install github.com/bimri/bimri-hook/cmd/...@latest)", command, program)
}
