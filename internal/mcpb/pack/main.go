// Command pack writes dist/bimri-hook.mcpb for `make mcpb` (package mcpb).
//
//	go run ./internal/mcpb/pack -version 0.1.0 -bin dist/mcpb -out dist/bimri-hook.mcpb
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/bimri/bimri-hook/internal/mcpb"
)

func main() {
	version := flag.String("version", "", "the release's version")
	bin := flag.String("bin", "", "the folder holding bimri-hook-mcp for each target")
	out := flag.String("out", "", "the bundle to write")
	flag.Parse()
	if err := pack(*version, *bin, *out); err != nil {
		fmt.Fprintln(os.Stderr, "mcpb:", err)
		os.Exit(1)
	}
	fmt.Println("make mcpb: wrote", *out)
}

func pack(version, bin, out string) error {
	if version == "" || bin == "" || out == "" {
		return fmt.Errorf("-version, -bin and -out are all needed")
	}
	tmp, err := os.CreateTemp(filepath.Dir(out), ".mcpb-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := mcpb.Write(tmp, version, bin); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), out)
}
