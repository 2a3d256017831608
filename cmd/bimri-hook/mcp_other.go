//go:build !unix

package main

// execMCP runs the server and waits for it: Windows has no exec that
// keeps the process.
func execMCP(a *app, bin string, args []string) error { return a.runCompanion(bin, args) }
