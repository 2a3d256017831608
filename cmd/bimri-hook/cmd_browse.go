package main

import (
	"errors"
	"os/exec"

	"github.com/urfave/cli/v2"
)

// browseProgram is the program `browse` runs: the terminal UI lives in a
// binary of its own (cmd/bimri-hook-browse), so that its terminal
// library's package initialisation never runs on a hook.
const browseProgram = "bimri-hook-browse"

func (a *app) browseCommand() *cli.Command {
	return &cli.Command{
		Name:  "browse",
		Usage: "page through the memory and the archive in the terminal; search, see why, forget, revive, promote, supersede",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "global", Usage: "browse the global memory"}},
		Action: func(c *cli.Context) error {
			prog, err := findBrowse()
			if err != nil {
				return err
			}
			root, err := resolveRoot(c, "")
			if err != nil {
				return err
			}
			args := []string{"--dir", root}
			if p := configPath(c); p != "" {
				args = append(args, "--config", p)
			}
			if d := commonFlag(c, "today", "BIMRI_TODAY"); d != "" {
				args = append(args, "--today", d)
			}
			if c.Bool("global") {
				args = append(args, "--global")
			}
			cmd := exec.Command(prog, args...)
			cmd.Stdin, cmd.Stdout, cmd.Stderr = a.stdin, a.stdout, a.stderr
			if err := cmd.Run(); err != nil {
				var exit *exec.ExitError
				if errors.As(err, &exit) {
					return errQuiet // it said why on stderr
				}
				return err
			}
			return nil
		},
	}
}

// findBrowse finds bimri-hook-browse, the companion of this executable.
func findBrowse() (string, error) {
	if p, ok := companion(browseProgram); ok {
		return p, nil
	}
	return "", errors.New("browse runs " + browseProgram + ", found neither beside bimri-hook nor on PATH: make install puts both in place (or go install github.com/bimri/bimri-hook/cmd/" + browseProgram + "@latest)")
}
