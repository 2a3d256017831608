package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

func (a *app) simulateCommand() *cli.Command {
	return &cli.Command{Name: "simulate", Usage: "run events or whole sessions in a throwaway workspace", Action: func(*cli.Context) error { return errors.New("simulate is not built yet") }}
}
