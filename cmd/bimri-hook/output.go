package main

// What show prints of a memory not made yet, and what restore prints. Other commands' reports are printed by the
// package that computes them (report.go in internal/record,
// internal/inspect, internal/install, internal/mergedriver; simulate's
// lines in internal/simulate; doctor's checks); the rest is a line passed through as it is (version, a store's
// Notice). Errors are worded where they arise and printed once by run.
// What the model reads is in hooks/messages.go and memfile/context.go.

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/bimri/bimri-hook/store"
)

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// printNoMemory says that a workspace has no memory yet, for show.
func printNoMemory(w io.Writer, path string, global bool) {
	if global {
		fmt.Fprintf(w, "no global memory yet: %s does not exist (bimri-hook remember --global creates it)\n", path)
		return
	}
	fmt.Fprintf(w, "no memory yet: %s does not exist (the first Claude Code session here creates it, or bimri-hook remember)\n", path)
}

func printRestored(w io.Writer, s *store.Store, notice string) {
	fmt.Fprintf(w, "restored %s from %s; the replaced file is now %s\n", s.Names().Memory, s.Names().Backup, s.Names().Backup)
	if notice != "" {
		fmt.Fprintln(w, notice)
	}
}
