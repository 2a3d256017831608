package main

import (
	"errors"
	"fmt"

	"github.com/bimri/bimri-hook/internal/doctor"
	"github.com/bimri/bimri-hook/internal/workspace"
	"github.com/urfave/cli/v2"
)

func (a *app) doctorCommand() *cli.Command {
	return &cli.Command{
		Name:  "doctor",
		Usage: "check the wiring, the binary and the files, and say what to fix",
		Action: func(c *cli.Context) error {
			root, err := resolveRoot(c, "")
			if err != nil {
				return err
			}
			checks := doctor.Run(doctor.Options{Root: root, ConfigPath: configPath(c), Binary: workspace.Binary(), Version: version})
			doctor.Print(a.stdout, checks)
			switch failed := doctor.Failed(checks); {
			case failed == 1:
				return errors.New("doctor found 1 problem")
			case failed > 1:
				return fmt.Errorf("doctor found %d problems", failed)
			}
			return nil
		},
	}
}
