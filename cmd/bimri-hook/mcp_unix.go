//go:build unix

package main

import (
	"fmt"
	"os"
	"syscall"
)

// execMCP replaces this process with the server, so the client's stdin,
// stdout and signals reach it directly.
func execMCP(_ *app, bin string, args []string) error {
	if err := syscall.Exec(bin, append([]string{bin}, args...), os.Environ()); err != nil {
		return fmt.Errorf("mcp: run %s: %w", bin, err)
	}
	return nil
}
