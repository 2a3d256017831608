package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

func (a *app) installCommand() *cli.Command {
	return &cli.Command{Name: "install", Usage: "wire bimri-hook into Claude Code settings", Action: func(*cli.Context) error { return errors.New("install is not built yet") }}
}

func (a *app) uninstallCommand() *cli.Command {
	return &cli.Command{Name: "uninstall", Usage: "unwire bimri-hook from Claude Code settings", Action: func(*cli.Context) error { return errors.New("uninstall is not built yet") }}
}
