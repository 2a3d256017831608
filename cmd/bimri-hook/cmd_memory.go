package main

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/hooks"
	"github.com/bimri/bimri-hook/internal/inspect"
	"github.com/bimri/bimri-hook/internal/recall"
	"github.com/bimri/bimri-hook/internal/record"
	"github.com/bimri/bimri-hook/internal/workspace"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/urfave/cli/v2"
)

// in is the action that opens the workspace (--global: the user's
// memory) and runs do there; a config that does not load fails it.
func (a *app) in(do func(c *cli.Context, ws *workspace.Opened) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		root, err := resolveRoot(c, "")
		if err != nil {
			return err
		}
		ws, err := a.openAt(c, root, root)
		if err == nil {
			err = ws.ConfigErr
		}
		if err != nil {
			return err
		}
		return do(c, ws)
	}
}

// said prints what a change did, once it is done.
func (a *app) said(d record.Done, err error) error {
	if err == nil {
		d.Print(a.stdout)
	}
	return err
}

var (
	jsonFlag = &cli.BoolFlag{Name: "json", Usage: "machine-readable output"}
	global   = func(what string) cli.Flag { return &cli.BoolFlag{Name: "global", Usage: what} }
)

// memoryCommands read and change the memory.
func (a *app) memoryCommands() []*cli.Command {
	return []*cli.Command{{
		Name:  "remember",
		Usage: "record one memory entry; consolidate entries, promote one, or write a pattern",
		UsageText: `bimri-hook remember [--importance 1-5] [--tags a,b] [--keywords a,b] [--tier 1|2] [--global] "One-line summary."
bimri-hook remember --replaces ID,ID,... [--tags a,b] [--keywords a,b] -- "One summary of those entries."
bimri-hook remember --supersedes ID[,ID] [--importance 1-5] [--tags a,b] [--keywords a,b] -- "What holds now."
bimri-hook remember --both-hold NEW,OLD[,OLD]
bimri-hook remember --promote ID
bimri-hook remember --tier 3 --tags a,b -- "The habit or rule those entries show."`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "importance", Value: "3", Usage: "1 transient ... 5 foundational"},
			&cli.StringFlag{Name: "tags", Usage: "comma-separated tags"},
			&cli.StringFlag{Name: "keywords", Usage: "two or three comma-separated words a later question would use that the text does not (recall searches them; the view never shows them)"},
			&cli.StringFlag{Name: "tier", Value: "2", Usage: "1 (core, importance 4-5, never decays), 2 (active context) or 3 (a pattern: a sentence about the entries with --tags)"},
			&cli.StringFlag{Name: "replaces", Usage: "comma-separated entry IDs the summary replaces (they go to the archive)"},
			&cli.StringFlag{Name: "supersedes", Usage: "comma-separated entry IDs the new entry overrides (they go to the archive as superseded by it; it takes their importance, tags and tier unless given)"},
			&cli.StringFlag{Name: "both-hold", Usage: "answer no to the supersession question: these entries (the new one first) all still hold, and the view stops marking them as possibly superseded"},
			&cli.StringFlag{Name: "promote", Usage: "move this Tier 2 entry (importance 4-5) to Tier 1"},
			global("record in the user's memory across workspaces (~/.claude/bimri-global.md)"),
		},
		Action: func(c *cli.Context) error {
			list := func(name string) []string {
				if !c.IsSet(name) {
					return nil
				}
				return []string{c.String(name)}
			}
			r := record.Request{Text: strings.Join(c.Args().Slice(), " "), Tags: c.String("tags"), Promote: c.String("promote"), Agent: recordingAgent(),
				Replaces: list("replaces"), Supersedes: list("supersedes"), BothHold: list("both-hold"), Keywords: list("keywords")}
			var err error
			if r.Importance, err = wholeNumber(c, "importance", 1, 5); err != nil {
				return err
			}
			if r.Tier, err = wholeNumber(c, "tier", 1, 3); err != nil {
				return err
			}
			// Refused before the store is opened, so nothing is touched.
			if _, err := record.Check(r, record.CLINames); err != nil {
				return err
			}
			return a.in(func(c *cli.Context, ws *workspace.Opened) error {
				names := record.CommandNamesIn(workspace.Binary(), ws.Store.Root(), c.Bool("global"))
				return a.said(record.Remember(ws.Store, ws.Today, ws.Config.Memory, r, names))
			})(c)
		},
	}, {
		Name:  "forget",
		Usage: "delete a wrong or stale entry or pattern: it moves to the archive, and revive brings it back",
		Description: "Find the entry's ID with bimri-hook show (or search WORDS), then bimri-hook forget ID.\n" +
			"The entry leaves bimri.md at once and is kept in bimri-archive.md with the reason; bimri-hook revive ID\n" +
			"puts it back. A wrong entry can also be replaced: bimri-hook remember --supersedes ID -- 'what holds now'.",
		UsageText: "bimri-hook forget [--reason TEXT] [--global] ID",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "reason", Value: record.DefaultForgetReason, Usage: "why, kept in the archive"},
			global("forget from the global memory"),
		},
		Action: a.in(func(c *cli.Context, ws *workspace.Opened) error {
			return a.said(record.Forget(ws.Store, c.Args().First(), c.String("reason"), record.CLINames))
		}),
	}, {
		Name:      "revive",
		Usage:     "bring an archived entry back into Tier 2, dated today (the archive keeps its record)",
		UsageText: "bimri-hook revive ID",
		Action: a.in(func(c *cli.Context, ws *workspace.Opened) error {
			return a.said(record.Revive(ws.Store, ws.Today, ws.Config.Memory, c.Args().First(), record.CLINames))
		}),
	}, {
		Name:  "show",
		Usage: "list every entry and pattern with its weight, and the token budget",
		Flags: []cli.Flag{jsonFlag, global("show the global memory")},
		Action: a.in(func(c *cli.Context, ws *workspace.Opened) error {
			read, err := ws.Store.Read()
			if err != nil {
				return err
			}
			path := ws.Store.Path(ws.Store.Names().Memory)
			if g := c.Bool("global"); !read.Exists && !c.Bool("json") {
				fmt.Fprintf(a.stdout, "no %smemory yet: %s does not exist (%s)\n", inspect.Pick(g, "global ", ""), path,
					inspect.Pick(g, "bimri-hook remember --global creates it", "the first Claude Code session here creates it, or bimri-hook remember"))
				return nil
			}
			snap := inspect.Show(read.File, read.Warnings, ws.Today, ws.Config.Memory)
			if c.Bool("json") {
				return inspect.PrintJSON(a.stdout, snap)
			}
			inspect.PrintShow(a.stdout, snap, path)
			inspect.PrintWorthReviving(a.stdout, inspect.WorthReviving(ws.Store, read.File))
			return nil
		}),
	}, {
		Name:      "why",
		Usage:     "explain one entry's weight and what the rules will do with it",
		UsageText: "bimri-hook why ID",
		Action: func(c *cli.Context) error {
			id := strings.ToLower(strings.TrimSpace(c.Args().First()))
			if id == "" {
				return fmt.Errorf("why: %w: an entry ID (see bimri-hook show)", errNoArgs)
			}
			return a.in(func(c *cli.Context, ws *workspace.Opened) error {
				read, err := ws.Store.Read()
				if err != nil {
					return err
				}
				if p := read.File.FindPattern(id); p != nil {
					inspect.PrintWhyPattern(a.stdout, p)
					return nil
				}
				e, tier := read.File.Find(id)
				if e == nil {
					return fmt.Errorf("no entry with ID %q in %s", id, memfile.MemoryName)
				}
				inspect.PrintWhy(a.stdout, *e, tier, ws.Today, ws.Config.Memory)
				return nil
			})(c)
		},
	}, {
		Name:  "forecast",
		Usage: "list the entries the threshold will archive, and when",
		Flags: []cli.Flag{&cli.IntFlag{Name: "days", Value: 30, Usage: "how far ahead to look"}},
		Action: a.in(func(c *cli.Context, ws *workspace.Opened) error {
			days := c.Int("days")
			if days < 1 || days > 3650 {
				return fmt.Errorf("--days %d is not from 1 to 3650", days)
			}
			read, err := ws.Store.Read()
			if err != nil {
				return err
			}
			inspect.PrintForecast(a.stdout, memfile.Forecast(read.File, ws.Today, ws.Config.Memory, days), days, ws.Config.Memory.Threshold)
			inspect.PrintWorthReviving(a.stdout, inspect.WorthReviving(ws.Store, read.File))
			return nil
		}),
	}, {
		Name:  "maintain",
		Usage: "run the session-end pass now (without counting a session)",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "deep", Usage: "also run deep maintenance"},
			&cli.BoolFlag{Name: "dry-run", Usage: "show what the pass would do; change nothing"},
		},
		Action: a.in(func(c *cli.Context, ws *workspace.Opened) error {
			return hooks.Maintain(a.stdout, hooks.Env{Store: ws.Store, Config: ws.Config.Memory, Today: ws.Today, Binary: workspace.Binary()}, c.Bool("deep"), c.Bool("dry-run"))
		}),
	}, {
		Name:      "search",
		Usage:     "search bimri.md and the archive as recall does (words, times, tags, IDs); exits 1 when nothing matches",
		UsageText: "bimri-hook search [--json] [--since DATE] [--until DATE] QUERY",
		Flags: []cli.Flag{
			jsonFlag,
			&cli.StringFlag{Name: "since", Usage: "only items dated on or after `YYYY-MM-DD`"},
			&cli.StringFlag{Name: "until", Usage: "only items dated on or before `YYYY-MM-DD`"},
			&cli.IntFlag{Name: "limit", Value: 20, Usage: "at most this many items"},
		},
		Action: a.search,
	}, {
		Name:  "restore",
		Usage: "put bimri-backup.md back as bimri.md (the current file becomes the backup)",
		Action: a.in(func(c *cli.Context, ws *workspace.Opened) error {
			res, err := ws.Store.Restore()
			if err != nil {
				return err
			}
			n := ws.Store.Names()
			fmt.Fprintf(a.stdout, "restored %s from %s; the replaced file is now %s\n", n.Memory, n.Backup, n.Backup)
			if res.Notice != "" {
				fmt.Fprintln(a.stdout, res.Notice)
			}
			return nil
		}),
	}, {
		Name:  "version",
		Usage: "print the version",
		Action: func(c *cli.Context) error {
			_, err := fmt.Fprintf(a.stdout, "bimri-hook %s\n", version)
			return err
		},
	}}
}

// wholeNumber reads a flag that must be a whole number from lo to hi; 0 if unset.
func wholeNumber(c *cli.Context, name string, lo, hi int) (int, error) {
	if !c.IsSet(name) {
		return 0, nil
	}
	value := c.String(name)
	n, err := strconv.Atoi(strings.TrimSpace(value))
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("--%s %q is not a whole number from %d to %d", name, value, lo, hi)
	}
	return n, nil
}

func (a *app) search(c *cli.Context) error {
	query := strings.TrimSpace(strings.Join(c.Args().Slice(), " "))
	given := [2]string{c.String("since"), c.String("until")}
	var days [2]time.Time // read as --today is
	for i, name := range []string{"since", "until"} {
		var ok bool
		if days[i], ok = memfile.ParseDate(given[i]); !ok && given[i] != "" {
			return fmt.Errorf("search: --%s %q is not a date (YYYY-MM-DD)", name, given[i])
		}
	}
	switch {
	case !days[1].IsZero() && days[1].Before(days[0]):
		return fmt.Errorf("search: --until %s is before --since %s: no day is in between", given[1], given[0])
	case query == "" && days[0].IsZero() && days[1].IsZero():
		return fmt.Errorf("search: %w: a QUERY", errNoArgs)
	case c.Int("limit") < 1:
		return fmt.Errorf("search: --limit %d is not a positive number", c.Int("limit"))
	}
	return a.in(func(c *cli.Context, ws *workspace.Opened) error {
		found, err := ws.Search(recall.Query{Text: query, Since: days[0], Until: days[1]}, c.Int("limit"))
		if err != nil {
			return err
		}
		// Printed as the MCP recall tool gives them.
		if c.Bool("json") {
			err = inspect.PrintJSON(a.stdout, found)
		} else if len(found) > 0 {
			inspect.PrintRecalled(a.stdout, found, query)
		}
		if err == nil && len(found) == 0 { // as grep does: exit 1
			dated := "is dated from " + cmp.Or(given[0], "the first day") + " to " + cmp.Or(given[1], "today") // days alone
			err = fmt.Errorf("nothing %s in %s or %s", inspect.Pick(query == "", dated, fmt.Sprintf("matches %q", query)), ws.Store.Names().Memory, ws.Store.Names().Archive)
		}
		return err
	})(c)
}
