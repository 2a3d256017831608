package main

// install and uninstall --agent: wiring other clients than Claude Code.

import (
	"errors"
	"fmt"
	"os"
	"os/exec"

	"github.com/bimri/bimri-hook/internal/install"
	"github.com/bimri/bimri-hook/wiring"
	"github.com/urfave/cli/v2"
)

// agentClaude is Claude Code's name for --agent, the default.
const agentClaude = "claude"

// agentFlags are install's and uninstall's flags for other clients.
func agentFlags(install bool) []cli.Flag {
	flags := []cli.Flag{&cli.StringFlag{Name: "agent", Value: agentClaude, Usage: "the client to wire: claude (Claude Code), codex (the Codex CLI), gemini (the Gemini CLI), opencode (OpenCode), copilot (the Copilot CLI), cursor (Cursor, unverified), or all: each of them found on PATH"}}
	if install {
		flags = append(flags, &cli.BoolFlag{Name: "no-trust", Usage: "codex: record no trust for the hooks install writes; Codex skips them until you trust them in its /hooks review"})
	}
	return flags
}

// agentAll is --agent all: every client found on PATH.
const agentAll = "all"

// otherClients are the clients besides Claude Code that install wires,
// in the order --agent all does them: the name messages give each, and
// the command whose presence on PATH tells it is installed.
var otherClients = []struct{ agent, name, command string }{
	{wiring.AgentCodex, "Codex", "codex"},
	{wiring.AgentGemini, "Gemini", "gemini"},
	{wiring.AgentOpenCode, "OpenCode", "opencode"},
	{wiring.AgentCopilot, "Copilot", "copilot"},
	{wiring.AgentCursor, "Cursor", "cursor"},
}

// otherAgents runs do, install's or uninstall's work for another client,
// when --agent names one (for all: each found on PATH), and says whether
// Claude Code's wiring is to be done too. Flags that are Claude Code's
// alone are refused for another client.
func (a *app) otherAgents(c *cli.Context, do func(c *cli.Context, agent string) error) (claude bool, err error) {
	agent := c.String("agent")
	if agent != wiring.AgentCodex && c.Bool("no-trust") {
		return false, errors.New("--no-trust is for --agent codex: no other client has hook trust to record")
	}
	switch agent {
	case agentClaude:
		return true, nil
	case wiring.AgentCodex, wiring.AgentGemini, wiring.AgentOpenCode, wiring.AgentCopilot, wiring.AgentCursor:
		if c.Bool("git") || c.Bool("link") {
			return false, errors.New("--git and --link go with Claude Code: run them without --agent")
		}
		return false, do(c, agent)
	case agentAll:
		if c.Bool("link") {
			return false, errors.New("--link goes with Claude Code: run it without --agent")
		}
		for _, o := range otherClients {
			if !onPath(o.command) || c.String("scope") == "local" {
				fmt.Fprintf(a.stdout, "%s: %s is not on PATH (or --scope local, which it has not): skipped\n", o.name, o.command)
				continue
			}
			if err := do(c, o.agent); err != nil {
				return false, err
			}
		}
		if !onPath("claude") {
			fmt.Fprintln(a.stdout, "Claude Code: claude is not on PATH: skipped")
			return false, nil
		}
		return true, nil
	}
	return false, fmt.Errorf("--agent %q is not one of %s, %s, %s, %s, %s, %s, %s", agent, agentClaude, wiring.AgentCodex, wiring.AgentGemini, wiring.AgentOpenCode, wiring.AgentCopilot, wiring.AgentCursor, agentAll)
}

func onPath(command string) bool {
	_, err := exec.LookPath(command)
	return err == nil
}

// codexHooks is the workspace and the Codex hooks.json of --scope.
func codexHooks(c *cli.Context) (root string, file install.SettingsFile, err error) {
	if root, err = resolveRoot(c, ""); err != nil {
		return "", file, err
	}
	file, err = install.CodexHooksFor(c.String("scope"), root)
	return root, file, err
}

// installAgent is install --agent codex, gemini or opencode.
func (a *app) installAgent(c *cli.Context, agent string) error {
	switch agent {
	case wiring.AgentGemini:
		return a.installScoped(c, install.WireGemini)
	case wiring.AgentOpenCode:
		return a.installScoped(c, install.WireOpenCode)
	case wiring.AgentCopilot:
		return a.installScoped(c, install.WireCopilot)
	case wiring.AgentCursor:
		return a.installScoped(c, install.WireCursor)
	}
	root, file, err := codexHooks(c)
	if err != nil {
		return err
	}
	binary, err := install.BinaryFor(file.Scope, c.String("binary"))
	if err != nil {
		return err
	}
	command := wiring.Command{Binary: binary}
	res, err := install.InstallCodex(file, root, command, c.Bool("no-trust"))
	if err != nil {
		return err
	}
	install.PrintCodexInstalled(a.stdout, res)
	return a.projectNotes(root, file, binary)
}

// uninstallAgent is uninstall --agent codex, gemini or opencode.
func (a *app) uninstallAgent(c *cli.Context, agent string) error {
	switch agent {
	case wiring.AgentGemini:
		return a.uninstallScoped(c, install.UnwireGemini)
	case wiring.AgentOpenCode:
		return a.uninstallScoped(c, install.UnwireOpenCode)
	case wiring.AgentCopilot:
		return a.uninstallScoped(c, install.UnwireCopilot)
	case wiring.AgentCursor:
		return a.uninstallScoped(c, install.UnwireCursor)
	}
	root, file, err := codexHooks(c)
	if err != nil {
		return err
	}
	otherScope := install.ScopeUser
	if file.Scope == install.ScopeUser {
		otherScope = install.ScopeProject
	}
	other, err := install.CodexHooksFor(otherScope, root)
	if err != nil {
		return err
	}
	changed, err := install.UninstallCodex(file, other)
	if err != nil {
		return err
	}
	if changed {
		fmt.Fprintf(a.stdout, "Codex: unwired %s, and took bimri-hook's trust and MCP server out of Codex's config.toml where they were\n", file.Path)
	} else {
		fmt.Fprintf(a.stdout, "Codex: nothing of bimri-hook's in %s\n", file.Path)
	}
	return nil
}

// projectNotes, after a project-scope install of another client's file,
// keeps the receipts out of git and says when the shared file names this
// machine's binary.
func (a *app) projectNotes(root string, file install.SettingsFile, binary string) error {
	if file.Scope != install.ScopeProject {
		return nil
	}
	path, changed, err := install.Ignore(root)
	if err != nil {
		return err
	}
	install.PrintIgnored(a.stdout, path, changed)
	if binary != wiring.Name {
		fmt.Fprintf(a.stdout, "note: %s is shared through the repository, and now names this machine's %s.\n  Put bimri-hook on PATH and run install again to write the bare name, or use --scope user.\n", file.Path, binary)
	}
	return nil
}

// recordingAgent is the client whose agent runs this command, for the
// entry it records (memfile.Entry.Agent): Codex gives the commands its
// model runs CODEX_THREAD_ID (measured on 0.171.0), the Copilot CLI
// COPILOT_CLI=1 (1.0.102), Gemini GEMINI_CLI=1 (0.61.0), OpenCode
// OPENCODE=1 (1.18.33); Claude Code, a person or anything else records "".
func recordingAgent() string {
	switch {
	case os.Getenv("CODEX_THREAD_ID") != "":
		return wiring.AgentCodex
	case os.Getenv("COPILOT_CLI") != "":
		return wiring.AgentCopilot
	case os.Getenv("GEMINI_CLI") == "1":
		return wiring.AgentGemini
	case os.Getenv("OPENCODE") == "1":
		return wiring.AgentOpenCode
	}
	return ""
}
