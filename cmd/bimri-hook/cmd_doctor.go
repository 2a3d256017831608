package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

func (a *app) doctorCommand() *cli.Command {
	return &cli.Command{Name: "doctor", Usage: "check the wiring, the binary and the files", Action: func(*cli.Context) error { return errors.New("doctor is not built yet") }}
}
