// Command bimri-hook-mcp is bimri-hook's MCP server: the memory as tools
// (memory, remember, recall, forget, revive) on stdin and stdout, built
// on the official MCP Go SDK (package internal/mcpserver). `bimri-hook
// mcp` runs it; Claude Desktop's bundle runs it directly.
//
// It is a binary of its own because Go runs every linked package's init
// before main: linked into bimri-hook, the SDK (net/http, crypto/tls,
// jsonschema) would start with every hook (docs/mcp.md).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/bimri/bimri-hook/internal/config"
	"github.com/bimri/bimri-hook/internal/mcpserver"
	"github.com/bimri/bimri-hook/internal/workspace"
)

// version is the release, set like bimri-hook's (-X main.version).
var version = "0.1.0"

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

// run serves one client on stdin and stdout and returns the exit code.
func run(args []string, stderr io.Writer) int {
	if err := serve(args, stderr); err != nil {
		fmt.Fprintln(stderr, "bimri-hook: "+strings.TrimPrefix(err.Error(), "bimri-hook: "))
		return 1
	}
	return 0
}

func serve(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("bimri-hook mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "", "workspace `FOLDER`, used when CLAUDE_PROJECT_DIR is unset")
	cfg := fs.String("config", "", "config `FILE` (default: $BIMRI_CONFIG, else <workspace>/.claude/bimri.json if present)")
	today := fs.String("today", os.Getenv("BIMRI_TODAY"), "the date to act as today, `YYYY-MM-DD` (default: the clock)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return fmt.Errorf("mcp: %w", err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("mcp takes no arguments, got %q", fs.Arg(0))
	}
	day, err := workspace.Today(*today)
	if err != nil {
		return err
	}
	opt := mcpserver.Options{Dir: *dir, Config: *cfg, Today: day, Clock: time.Now, Version: version}
	if opt.Config == "" {
		opt.Config = os.Getenv(config.EnvVar)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return mcpserver.Run(ctx, opt)
}
