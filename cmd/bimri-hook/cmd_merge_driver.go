package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

func (a *app) mergeDriverCommand() *cli.Command {
	return &cli.Command{Name: "merge-driver", Usage: "git merge driver for bimri.md", Action: func(*cli.Context) error { return errors.New("merge-driver is not built yet") }}
}
