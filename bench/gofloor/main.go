//go:build bench

// Command gofloor is the least a Go process costs here: it starts, runs
// the runtime's own set-up and prints one line. `make bench` times it
// beside cat and bimri-hook, so the start-up a hook cannot avoid (being a
// Go process at all) is measured in the same run as the hooks.
//
// `gofloor -touch N` also writes one byte in each of N fresh 4 KiB pages
// of heap: against plain gofloor in the same run, that prices one page
// fault, the cost that most of a short process's memory work comes down
// to here.
package main

import (
	"os"
	"strconv"
)

func main() {
	if len(os.Args) == 3 && os.Args[1] == "-touch" {
		n, err := strconv.Atoi(os.Args[2])
		if err != nil {
			os.Stderr.WriteString("gofloor: -touch wants a number of pages\n")
			os.Exit(2)
		}
		// A large object comes fresh from the OS and is not cleared
		// (the kernel gives zero pages), so each page's first write is
		// its first touch.
		pages := make([]byte, n*4096)
		for i := 0; i < len(pages); i += 4096 {
			pages[i] = 1
		}
	}
	os.Stdout.WriteString("gofloor\n")
}
