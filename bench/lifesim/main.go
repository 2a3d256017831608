//go:build bench

// Command lifesim is `make simulate`: it lives many sessions in a
// throwaway workspace through the same handlers as the hook and charts
// the memory's tokens per tier against the budgets.
//
//	go run -tags bench ./bench/lifesim -sessions 1000 -seed 1
//
// It never touches a workspace of the user's: the sessions are lived in a
// temporary folder it removes afterwards. Each session is SessionStart,
// 1-3 remember calls, Stop, SessionEnd; K sessions a day (-per-day), the
// first on -today (BIMRI_TODAY), else 2026-01-01. The mix: importance 1-5
// at 15/30/30/18/7 percent; the first session records 4 intake answers in
// Tier 1; later an importance-5 entry goes to Tier 1 3% of the time, while
// Tier 1 holds fewer than 12 (real Tier 1s grow slowly); 1-2 tags from 12
// topics, the first topics most often. The same seed gives the same
// output, byte for byte.
//
// Each line: the file's estimated tokens per tier after SessionEnd, what
// the session archived, and a bar of the total against the total budget.
// The summary gives the largest total after any pass, the largest
// SessionStart context against its cap, and everything archived; the last
// lines say, one thing a line, how the memory serves the next session.
// docs/reliability.md quotes the figures of seed 1.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/hooks"
	"github.com/bimri/bimri-hook/internal/config"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/wiring"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the command without the process: it returns the exit code, 2 for
// a flag it cannot read, 1 for anything else that went wrong.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("lifesim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sessions := fs.Int("sessions", 1000, "live `N` sessions")
	perDay := fs.Int("per-day", 2, "sessions per simulated day")
	seed := fs.Uint64("seed", 1, "seed of the entry mix")
	profile := fs.String("profile", "", "config profile: "+strings.Join(memfile.ProfileNames, ", ")+" (default: -config, else claude-code)")
	configFile := fs.String("config", os.Getenv(config.EnvVar), "config `FILE` (default: $"+config.EnvVar+")")
	today := fs.String("today", os.Getenv("BIMRI_TODAY"), "the first simulated day, `YYYY-MM-DD` (default: $BIMRI_TODAY, else "+Start+")")
	binary := fs.String("binary", wiring.Name, "the `command` SessionStart's context tells the agent to run; its length moves what fits in the context")
	verbose := fs.Bool("verbose", false, "say on stderr how fast the run was")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "lifesim: unexpected argument %q (see -help)\n", fs.Arg(0))
		return 2
	}
	sim := Simulation{Sessions: *sessions, PerDay: *perDay, Seed: *seed, Binary: *binary}
	if err := configure(&sim, *profile, *configFile, *today); err != nil {
		fmt.Fprintf(stderr, "lifesim: %v\n", err)
		return 1
	}
	if err := live(sim, stdout, stderr, *verbose); err != nil {
		fmt.Fprintf(stderr, "lifesim: %v\n", err)
		return 1
	}
	return 0
}

// configure checks the flags and fills in the simulation's config, from a
// built-in profile, a config file or the defaults, and its first day.
func configure(sim *Simulation, profile, configFile, today string) error {
	if sim.Sessions < 1 || sim.Sessions > 1_000_000 {
		return fmt.Errorf("-sessions %d is not from 1 to 1000000", sim.Sessions)
	}
	if sim.PerDay < 1 || sim.PerDay > 1000 {
		return fmt.Errorf("-per-day %d is not from 1 to 1000", sim.PerDay)
	}
	var err error
	switch {
	case profile != "":
		if sim.Config, err = memfile.Profile(profile); err != nil {
			return err
		}
		sim.Settings = hooks.DefaultSettings()
	case configFile != "":
		cfg, err := config.Load(configFile, "")
		if err != nil {
			return err
		}
		sim.Config, sim.Settings = cfg.Memory, cfg.Hooks
	default:
		sim.Config, sim.Settings = memfile.DefaultConfig(), hooks.DefaultSettings()
	}
	if today == "" {
		today = Start
	}
	var ok bool
	if sim.Start, ok = memfile.ParseDate(today); !ok {
		return fmt.Errorf("-today %q is not a date (YYYY-MM-DD)", today)
	}
	return nil
}

// live runs the simulation, printing a line for each session as it ends,
// then the summary and how the memory serves the next session.
func live(sim Simulation, stdout, stderr io.Writer, verbose bool) error {
	// Ctrl-C stops the run between sessions, so the temporary workspace is
	// still removed.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	began := time.Now() // only for -verbose: the run's speed, never its results
	var werr error
	stats, serving, err := Serve(ctx, sim, func(st SessionStats) {
		if werr == nil {
			werr = PrintSession(stdout, st, sim.Config)
		}
	})
	if err != nil {
		return err
	}
	if werr != nil {
		return werr
	}
	if verbose {
		PrintTime(stderr, len(stats), time.Since(began))
	}
	if err := PrintSummary(stdout, stats, sim); err != nil {
		return err
	}
	return PrintServing(stdout, serving, sim)
}
