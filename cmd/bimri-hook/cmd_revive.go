package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/bimri/bimri-hook/internal/recall"
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
			rec, ok := lastRecord(recs, id)
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
			fmt.Fprintf(a.stdout, "revived %s into Tier 2 of %s, dated %s (importance %d, weight %s): %s\n",
				e.ID, store.Path(store.Names().Memory), e.Date.Format("2006-01-02"), e.Importance, e.Weight, e.Text)
			if res.Notice != "" {
				fmt.Fprintln(a.stdout, res.Notice)
			}
			return nil
		},
	}
}

// lastRecord is the newest archive record of an entry: an entry archived,
// revived and archived again has two.
func lastRecord(recs []memfile.ArchiveRecord, id string) (memfile.ArchiveRecord, bool) {
	for i := len(recs) - 1; i >= 0; i-- {
		if recs[i].Entry != nil && recs[i].Entry.ID == id {
			return recs[i], true
		}
	}
	return memfile.ArchiveRecord{}, false
}

// printWorthReviving lists the archived entries recall brought back in
// recall.KeepAfter different sessions and that are not back in the file:
// memory that keeps being needed. show and forecast end with it.
func printWorthReviving(w io.Writer, store *memfile.Store, f *memfile.File) {
	ids := recall.ParseRecalls(store.ReadState(recall.StateKey)).WorthKeeping()
	if len(ids) == 0 {
		return
	}
	recs, err := store.ReadArchive()
	if err != nil {
		return
	}
	var lines []string
	for _, id := range ids {
		if e, _ := f.Find(id); e != nil {
			continue
		}
		if r, ok := lastRecord(recs, id); ok {
			lines = append(lines, fmt.Sprintf("  %s  %s imp %d: %s", id, r.Entry.Date.Format("2006-01-02"), r.Entry.Importance, r.Entry.Text))
		}
	}
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(w, "\nWorth reviving: archived, but recalled in %d or more sessions (bimri-hook revive ID):\n%s\n", recall.KeepAfter, strings.Join(lines, "\n"))
}
