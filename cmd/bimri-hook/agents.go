package main

// install and uninstall --agent: wiring other clients than Claude Code.

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/bimri/bimri-hook/internal/install"
	"github.com/bimri/bimri-hook/wiring"
	"github.com/urfave/cli/v2"
)

// agentFlags are install's and uninstall's flags for other clients.
func agentFlags(install bool) []cli.Flag {
	flags := []cli.Flag{&cli.StringFlag{Name: "agent", Value: wiring.Claude.Agent, Usage: "the client to wire: claude (Claude Code), codex (the Codex CLI), gemini (the Gemini CLI), opencode (OpenCode), copilot (the Copilot CLI), cursor (Cursor, unverified), or all: each of them found on PATH"}}
	if install {
		flags = append(flags, &cli.BoolFlag{Name: "no-trust", Usage: "codex: record no trust for the hooks install writes; Codex skips them until you trust them in its /hooks review"})
	}
	return flags
}

// agentAll is --agent all: every client found on PATH.
const agentAll = "all"

// otherAgents wires (or unwires) another client when --agent names one
// (all: each found on PATH), and says whether Claude Code's wiring is to
// be done too. Flags that are Claude Code's alone are refused for another.
func (a *app) otherAgents(c *cli.Context, wire bool) (claude bool, err error) {
	do := func(agent string) error {
		root, err := resolveRoot(c, "")
		if err != nil {
			return err
		}
		cl, _ := wiring.ClientNamed(agent)
		q := install.Request{Client: cl, Root: root, Scope: c.String("scope"), Binary: c.String("binary"), NoTrust: c.Bool("no-trust")}
		if wire {
			return install.Install(a.stdout, q)
		}
		return install.Uninstall(a.stdout, q)
	}
	agent := c.String("agent")
	if agent != wiring.Codex.Agent && c.Bool("no-trust") {
		return false, errors.New("--no-trust is for --agent codex: no other client has hook trust to record")
	}
	_, other := wiring.ClientNamed(agent)
	switch {
	case agent == wiring.Claude.Agent:
		return true, nil
	case other:
		if c.Bool("git") || c.Bool("link") {
			return false, errors.New("--git and --link go with Claude Code: run them without --agent")
		}
		return false, do(agent)
	case agent == agentAll:
		if c.Bool("link") {
			return false, errors.New("--link goes with Claude Code: run it without --agent")
		}
		for _, o := range wiring.Clients {
			if !onPath(o.Agent) || c.String("scope") == "local" {
				fmt.Fprintf(a.stdout, "%s: %s is not on PATH (or --scope local, which it has not): skipped\n", o.Name, o.Agent)
				continue
			}
			if err := do(o.Agent); err != nil {
				return false, err
			}
		}
		if !onPath("claude") {
			fmt.Fprintln(a.stdout, "Claude Code: claude is not on PATH: skipped")
			return false, nil
		}
		return true, nil
	}
	names := []string{wiring.Claude.Agent}
	for _, o := range wiring.Clients {
		names = append(names, o.Agent)
	}
	return false, fmt.Errorf("--agent %q is not one of %s, %s", agent, strings.Join(names, ", "), agentAll)
}

func onPath(command string) bool {
	_, err := exec.LookPath(command)
	return err == nil
}

// recordingAgent is the client whose agent runs this command, for the
// entry it records (memfile.Entry.Agent): Codex gives the commands its
// model runs CODEX_THREAD_ID (measured on 0.171.0), the Copilot CLI
// COPILOT_CLI=1 (1.0.102), Gemini GEMINI_CLI=1 (0.61.0), OpenCode
// OPENCODE=1 (1.18.33); Claude Code, a person or anything else records "".
func recordingAgent() string {
	switch {
	case os.Getenv("CODEX_THREAD_ID") != "":
		return wiring.Codex.Agent
	case os.Getenv("COPILOT_CLI") != "":
		return wiring.Copilot.Agent
	case os.Getenv("GEMINI_CLI") == "1":
		return wiring.Gemini.Agent
	case os.Getenv("OPENCODE") == "1":
		return wiring.OpenCode.Agent
	}
	return ""
}
