// Command mcpb writes bimri-hook's MCP bundle for Claude Desktop for
// `make mcpb`, from the servers `make release` built into dist/build. A
// release tool, like scripts/release: no product binary links it.
//
//	go run ./scripts/mcpb -version 0.1.0 -build dist/build -out dist/bimri-hook.mcpb
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	version := flag.String("version", "", "the release's version")
	build := flag.String("build", "", "the release's build folder, holding <os>-<arch>/bimri-hook-mcp for each target")
	out := flag.String("out", "", "the bundle to write")
	flag.Parse()
	if err := pack(*version, *build, *out); err != nil {
		fmt.Fprintln(os.Stderr, "mcpb:", err)
		os.Exit(1)
	}
	fmt.Println("make mcpb: wrote", *out)
}

func pack(version, build, out string) error {
	if version == "" || build == "" || out == "" {
		return fmt.Errorf("-version, -build and -out are all needed")
	}
	tmp, err := os.CreateTemp(filepath.Dir(out), ".mcpb-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp, version, build); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), out)
}
