package main

import (
	"fmt"
	"github.com/bimri/bimri-hook/internal/approve"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/hooks"
	"github.com/bimri/bimri-hook/internal/event"
	"github.com/bimri/bimri-hook/internal/install"
	"github.com/bimri/bimri-hook/internal/workspace"
	"github.com/bimri/bimri-hook/wiring"
	"github.com/urfave/cli/v2"
)

// stdinWait bounds how long `hook` waits for its input. Claude Code writes
// the event and closes stdin at once; a person typing `bimri-hook hook` in
// a terminal gets an answer instead of a hang.
const stdinWait = 5 * time.Second

func (a *app) hookCommand() *cli.Command {
	return &cli.Command{
		Name:      "hook",
		Usage:     "handle one Claude Code hook event read as JSON from stdin",
		UsageText: "bimri-hook hook [codex|gemini|opencode|copilot|cursor] < event.json",
		Action: func(c *cli.Context) error {
			if agent := c.Args().First(); agent != "" {
				if !slices.Contains(hooks.Agents, hooks.Agent(agent)) || c.NArg() > 1 {
					return fmt.Errorf("hook takes one client's name, %s, or none for Claude Code; not %q", hooks.Agents, strings.Join(c.Args().Slice(), " "))
				}
				a.hookAgent = hooks.Agent(agent)
			}
			return a.hook(c)
		},
	}
}

// hook handles one event from stdin. c is nil when run dispatched
// `bimri-hook hook` without building the CLI: then no flag was given,
// and commonFlag reads the environment alone.
func (a *app) hook(c *cli.Context) error {
	data, err := hooks.ReadInput(a.stdin, stdinWait)
	if err != nil {
		return err
	}
	in, err := hooks.Decode(data)
	if err != nil {
		return err
	}
	in = in.FromAgent(a.hookAgent)
	a.hookRun = true
	if in.Event == event.SessionStart {
		install.KeepPluginLink()
	}
	out, err := a.handle(c, in)
	if err != nil {
		return fmt.Errorf("%s: %w", in.Event, err)
	}
	return out.ForAgent(in).Write(a.stdout)
}

// handle runs one decoded event through the hooks package: the same path
// for `hook` and `simulate`.
func (a *app) handle(c *cli.Context, in hooks.Input) (hooks.Output, error) {
	if in.Event != event.PreToolUse && !slices.Contains(event.Answered, in.Event) {
		return hooks.Output{}, nil // not ours: touch nothing, not even the workspace
	}
	root, err := resolveRoot(c, in.Cwd)
	// The one switch every route and every agent's hooks pass through:
	// in a workspace turned off (bimri-hook off), every hook answers
	// nothing, the plugin's approval included.
	if err == nil && workspace.IsOff(root) {
		return hooks.Output{}, nil
	}
	if in.Event == event.PreToolUse {
		// Before every tool call the plugin wires it for: no config or
		// file, only the command and the workspace the other hooks
		// teach (--dir), found as they find it.
		taught, _ := workspace.Root(in.Cwd)
		return hooks.PreToolUse(approve.Session{Binary: workspace.Binary(), Workspace: taught}, in), nil
	}
	if err != nil {
		return hooks.Output{}, err
	}
	if in.Event == event.SessionStart {
		// The plugin has no install step: its first session gives the
		// side files their ignore rules. Failing costs the session
		// nothing; doctor reports what is not ignored.
		_, _ = install.IgnoreLocally(root)
	}
	ws, cfgErr, err := a.openAt(c, root, root)
	if err != nil {
		return hooks.Output{}, err
	}
	return a.answer(ws, cfgErr, in)
}

// answer runs one event in an opened workspace; cfgErr is why its config
// did not load, if it did not.
func (a *app) answer(ws *openedWorkspace, cfgErr error, in hooks.Input) (hooks.Output, error) {
	if cfgErr != nil && in.Event != event.SessionStart {
		return hooks.Output{}, cfgErr
	}
	env := hooks.Env{
		Store:     ws.store,
		Config:    ws.config.Memory,
		Settings:  ws.config.Hooks,
		Today:     ws.now,
		Binary:    workspace.Binary(),
		ClaudeDir: workspace.ClaudeDir(),
		Tools:     agentTools(),
		ConfigErr: cfgErr,
	}
	if a.hookRun && a.now != a.now.Round(0) {
		// a.now is main's reading of the clock as the process started
		// (it carries the monotonic reading; a fixed day a test passes
		// does not): the client's budgets count from about then.
		env.Elapsed = func() time.Duration { return time.Since(a.now) }
	}
	if hooks.NeedsGlobal(env, in) {
		env.Global = workspace.ReadGlobal(ws.config, a.clock)
	}
	return hooks.Handle(env, in)
}

// agentTools says whether the agent has bimri-hook's MCP tools, and how
// its client names them: it does when this hook runs in the plugin
// ($CLAUDE_PLUGIN_ROOT, which Claude Code gives plugin hooks alone), the
// plugin declares its server ($CLAUDE_PLUGIN_ROOT/.mcp.json) and the
// server's program is where `bimri-hook mcp`, the command .mcp.json
// runs, finds it. Claude Code then gives the agent the tools by these
// names (measured, e2e/TestMeasureMCPTools), so the hooks ask for tool
// calls, whose text no shell reads. The settings route runs no plugin:
// its hooks keep the shell commands, which its permission rule allows.
// A few stats, no fork.
func agentTools() hooks.Tools {
	root := os.Getenv("CLAUDE_PLUGIN_ROOT")
	if root == "" {
		return hooks.Tools{}
	}
	if _, err := os.Stat(filepath.Join(root, ".mcp.json")); err != nil {
		return hooks.Tools{}
	}
	if _, err := findMCPBinary(); err != nil {
		return hooks.Tools{}
	}
	return hooks.Tools{On: true, Prefix: wiring.MCPToolName(wiring.MCPServer, "")}
}
