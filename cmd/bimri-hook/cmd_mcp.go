package main

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"
)

// mcpBinary is the MCP server's binary, which `bimri-hook mcp` runs. It
// is a binary of its own so that the SDK's package inits do not start
// with every hook (see cmd/bimri-hook-mcp).
const mcpBinary = "bimri-hook-mcp"

func (a *app) mcpCommand() *cli.Command {
	return &cli.Command{
		Name:  "mcp",
		Usage: "serve the memory as MCP tools (memory, remember, recall, forget, revive) on stdin and stdout",
		Description: `An MCP server for clients that call tools: Claude Desktop (the bundle), Cowork and
Claude Code (the plugin declares it). The workspace is $CLAUDE_PROJECT_DIR, else --dir,
else the first folder the client gives as a root, else the current folder.
It runs ` + mcpBinary + `, found beside this binary or on PATH.`,
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return fmt.Errorf("mcp takes no arguments, got %q", c.Args().First())
			}
			bin, err := findMCPBinary()
			if err != nil {
				return err
			}
			var args []string
			for _, name := range []string{"dir", "config", "today"} {
				if v := commonFlag(c, name, ""); v != "" {
					args = append(args, "--"+name, v)
				}
			}
			return execMCP(bin, args, a)
		},
	}
}

// findMCPBinary is the server: the companion of this executable.
func findMCPBinary() (string, error) {
	if p, ok := companion(mcpBinary); ok {
		return p, nil
	}
	return "", errors.New("mcp: " + mcpBinary + " is not beside this binary nor on PATH: install it with bimri-hook (make install, or go install github.com/bimri/bimri-hook/cmd/...@latest)")
}
