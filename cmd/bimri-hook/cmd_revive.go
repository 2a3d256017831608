package main

import (
	"fmt"
	"strings"

	"github.com/bimri/bimri-hook/internal/record"
	"github.com/urfave/cli/v2"
)

func (a *app) reviveCommand() *cli.Command {
	return &cli.Command{
		Name:      "revive",
		Usage:     "bring an archived entry back into Tier 2, dated today (the archive keeps its record)",
		UsageText: "bimri-hook revive ID",
		Action: func(c *cli.Context) error {
			id := strings.ToLower(strings.TrimSpace(c.Args().First()))
			if id == "" {
				return fmt.Errorf("revive: %w: the ID of an archived entry (recall names it; see also bimri-hook search)", errNoArgs)
			}
			ws, store, err := a.openStore(c)
			if err != nil {
				return err
			}
			done, err := record.Revive(store, ws.now, ws.config.Memory, id)
			if err != nil {
				return err
			}
			done.Print(a.stdout)
			return nil
		},
	}
}
