// Command bimri-hook-mcp is bimri-hook's MCP server: the memory as tools
// on stdin and stdout (internal/mcpserver, on the official MCP Go SDK).
// `bimri-hook mcp` runs it; Claude Desktop's bundle runs it directly. It
// is a binary of its own because Go runs every linked package's init
// before main: in bimri-hook, the SDK (net/http, crypto/tls, jsonschema)
// would start with every hook (docs/mcp.md).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/bimri/bimri-hook/internal/mcpserver"
	"github.com/bimri/bimri-hook/internal/workspace"
)

// version is the release, set like bimri-hook's (-X main.version).
var version = "0.1.0"

func main() {
	if err := serve(os.Args[1:]); err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "bimri-hook: "+strings.TrimPrefix(err.Error(), "bimri-hook: "))
		os.Exit(1)
	}
}

func serve(args []string) error {
	dir, q, err := workspace.CompanionFlags("mcp", args)
	if err != nil {
		return fmt.Errorf("mcp: %w", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return mcpserver.Serve(ctx, mcpserver.Options{Dir: dir, Config: q.Config, Today: q.Today, Clock: time.Now, Version: version}, os.Stdin, os.Stdout)
}
