//go:build !unix

package main

// execMCP runs the server and waits for it: Windows has no exec that
// keeps the process.
func execMCP(bin string, args []string, a *app) error { return a.runCompanion(bin, args) }
