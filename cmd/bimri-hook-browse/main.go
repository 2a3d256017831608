// Command bimri-hook-browse is `bimri-hook browse`, the terminal UI of
// package browse: a program of its own so that the hook binary, started on
// every event, never runs its terminal library's package initialisation.
package main

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/bimri/bimri-hook/internal/browse"
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
	dir, q, err := workspace.CompanionFlags("browse", args)
	if err != nil {
		return err
	}
	if !term.IsTerminal(os.Stdin.Fd()) || !term.IsTerminal(os.Stdout.Fd()) {
		return errors.New("needs a terminal (show, search and why give the same facts as text)")
	}
	if q.Root, err = workspace.Root(dir); err != nil {
		return err
	}
	q.LockWait = 10 * time.Second // the commands' wait: the user may browse while a session writes
	ws, err := workspace.Open(q, func() time.Time { return now })
	if err != nil {
		return err
	}
	return browse.Run(ws, os.Stdin, os.Stdout)
}
