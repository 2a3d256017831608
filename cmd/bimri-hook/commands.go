//go:build !hookonly

package main

// commands runs every command but the hooks' fast path: the command line.
func (a *app) commands(args []string) error { return a.cli().Run(args) }
