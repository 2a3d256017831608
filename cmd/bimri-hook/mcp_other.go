//go:build !unix

package main

import (
	"errors"
	"fmt"
	"os/exec"
)

// execMCP runs the server with this process's streams and waits for it:
// Windows has no exec that keeps the process.
func execMCP(bin string, args []string, a *app) error {
	cmd := exec.Command(bin, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = a.stdin, a.stdout, a.stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return fmt.Errorf("mcp: %s exited with %d", bin, exit.ExitCode())
	}
	return err
}
