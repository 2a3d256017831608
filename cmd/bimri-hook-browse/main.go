// Command bimri-hook-browse is `bimri-hook browse`, the terminal UI of
// package browse: a program of its own so that the hook binary, started on
// every event, never runs its terminal library's package initialisation.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/bimri/bimri-hook/internal/browse"
	"github.com/bimri/bimri-hook/internal/config"
	"github.com/bimri/bimri-hook/internal/workspace"
	"github.com/charmbracelet/x/term"
)

func main() {
	if err := run(os.Args[1:], time.Now()); err != nil {
		fmt.Fprintln(os.Stderr, "bimri-hook: browse: "+err.Error())
		os.Exit(1)
	}
}

func run(args []string, now time.Time) error {
	fs := flag.NewFlagSet("bimri-hook browse", flag.ContinueOnError)
	dir := fs.String("dir", "", "workspace `FOLDER` (default: found from the current folder, as bimri-hook finds it)")
	cfgPath := fs.String("config", os.Getenv(config.EnvVar), "config `FILE`")
	today := fs.String("today", os.Getenv("BIMRI_TODAY"), "the date to act as today, `YYYY-MM-DD`")
	global := fs.Bool("global", false, "browse the global memory")
	if err := fs.Parse(args); err != nil {
		return err
	} else if fs.NArg() > 0 {
		return fmt.Errorf("takes no arguments, got %q", fs.Arg(0))
	}
	if !term.IsTerminal(os.Stdin.Fd()) || !term.IsTerminal(os.Stdout.Fd()) {
		return errors.New("needs a terminal (show, search and why give the same facts as text)")
	}
	root, err := workspace.Root(*dir)
	if err != nil {
		return err
	}
	day, err := workspace.Today(*today)
	if err != nil {
		return err
	}
	// The commands' lock wait: the user may browse while a session writes.
	q := workspace.Request{Root: root, Config: *cfgPath, Today: day, LockWait: 10 * time.Second, Global: *global}
	ws, err := workspace.Open(q, func() time.Time { return now })
	if err != nil {
		return err
	}
	return browse.Run(ws, os.Stdin, os.Stdout)
}
