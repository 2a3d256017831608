package main

import (
	"fmt"
	"strings"

	"github.com/bimri/bimri-hook/internal/inspect"
	"github.com/bimri/bimri-hook/memfile"
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
			recs, err := store.ReadArchive()
			if err != nil {
				return err
			}
			rec, ok := inspect.LastRecord(recs, id)
			if !ok {
				return fmt.Errorf("no archived entry with ID %q in %s", id, store.Names().Archive)
			}
			var e *memfile.Entry
			res, err := store.Update(func(tx *memfile.Tx) error {
				e, err = tx.File.Revive(rec, ws.now)
				if err != nil {
					return err
				}
				e.Weigh(2, ws.now, ws.config.Memory)
				return nil
			})
			if err != nil {
				return err
			}
			printRevived(a.stdout, e, store.Path(store.Names().Memory), res.Notice)
			printStay(a.stdout, e, 2, ws.now, ws.config.Memory)
			return nil
		},
	}
}
