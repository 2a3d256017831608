// Command gofloor is the least a Go process costs here: it starts, runs
// the runtime's own set-up and prints one line. `make bench` times it
// beside cat and bimri-hook, so the start-up a hook cannot avoid (being a
// Go process at all) is measured in the same run as the hooks.
package main

import "os"

func main() {
	os.Stdout.WriteString("gofloor\n")
}
