//go:build !unix

package main

// replaceWith runs bin and waits: Windows has no exec that keeps the process.
func (a *app) replaceWith(bin string, argv []string) error { return a.runCompanion(bin, argv) }
