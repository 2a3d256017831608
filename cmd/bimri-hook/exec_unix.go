//go:build unix

package main

import (
	"fmt"
	"os"
	"syscall"
)

// replaceWith runs bin in this process, with argv and this environment,
// so the caller's stdin, stdout, signals and exit status are bin's own.
func (a *app) replaceWith(bin string, argv []string) error {
	if err := syscall.Exec(bin, argv, os.Environ()); err != nil {
		return fmt.Errorf("run %s: %w", bin, err)
	}
	return nil
}
