package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/hooks"
	"github.com/bimri/bimri-hook/internal/approve"
	"github.com/bimri/bimri-hook/internal/event"
	"github.com/bimri/bimri-hook/internal/install"
	"github.com/bimri/bimri-hook/internal/workspace"
	"github.com/bimri/bimri-hook/wiring"
	"github.com/urfave/cli/v2"
)

// stdinWait bounds the wait for the event: the client writes it at once;
// a person typing `bimri-hook hook` gets an answer instead of a hang.
const stdinWait = 5 * time.Second

func (a *app) hookCommand() *cli.Command {
	return &cli.Command{
		Name:      "hook",
		Usage:     "handle one Claude Code hook event read as JSON from stdin",
		UsageText: "bimri-hook hook [codex|gemini|opencode|copilot|cursor] < event.json",
		Action: func(c *cli.Context) error {
			agent := hooks.Agent(c.Args().First())
			if agent != "" && (!slices.Contains(hooks.Agents, agent) || c.NArg() > 1) {
				return fmt.Errorf("hook takes one client's name, %s, or none for Claude Code; not %q", hooks.Agents, strings.Join(c.Args().Slice(), " "))
			}
			return a.hook(c, agent)
		},
	}
}

// hook handles one event from stdin, in the payload of agent's client.
// c is nil on the hot path (run), with no flag given.
func (a *app) hook(c *cli.Context, agent hooks.Agent) error {
	data, err := hooks.ReadInput(a.stdin, stdinWait)
	if err != nil {
		return err
	}
	in, err := hooks.Decode(data)
	if err != nil {
		return err
	}
	in = in.FromAgent(agent)
	if in.Event == event.SessionStart {
		install.KeepPluginLink()
	}
	out, err := a.handle(c, in)
	if err != nil {
		return fmt.Errorf("%s: %w", in.Event, err)
	}
	return out.ForAgent(in).Write(a.stdout)
}

func (a *app) handle(c *cli.Context, in hooks.Input) (hooks.Output, error) {
	if in.Event != event.PreToolUse && !slices.Contains(event.Answered, in.Event) {
		return hooks.Output{}, nil // not ours: touch nothing, not even the workspace
	}
	root, err := resolveRoot(c, in.Cwd)
	if err == nil && workspace.IsOff(root) { // bimri-hook off
		return hooks.Output{}, nil
	}
	if in.Event == event.PreToolUse {
		// Before every tool call: no config or file, only what the hooks teach.
		taught, _ := workspace.Root(in.Cwd)
		return hooks.PreToolUse(approve.Session{Binary: workspace.Binary(), Workspace: taught}, in), nil
	}
	if err != nil {
		return hooks.Output{}, err
	}
	if in.Event == event.SessionStart {
		// The plugin has no install step; doctor reports a failure.
		_ = install.IgnoreLocally(root)
	}
	ws, err := a.openAt(c, root, root)
	if err != nil {
		return hooks.Output{}, err
	}
	return a.answer(ws, in, true)
}

// answer runs one event in an opened workspace. live: the client's
// budgets run from the process's start.
func (a *app) answer(ws *workspace.Opened, in hooks.Input, live bool) (hooks.Output, error) {
	if ws.ConfigErr != nil && in.Event != event.SessionStart {
		return hooks.Output{}, ws.ConfigErr
	}
	env := hooks.Env{Store: ws.Store, Config: ws.Config.Memory, Settings: ws.Config.Hooks, Today: ws.Today,
		Binary: workspace.Binary(), ClaudeDir: workspace.ClaudeDir(), Tools: agentTools(), ConfigErr: ws.ConfigErr}
	if live && a.now != a.now.Round(0) {
		// main's clock reading, monotonic unlike a test's fixed day.
		env.Elapsed = func() time.Duration { return time.Since(a.now) }
	}
	if hooks.NeedsGlobal(env, in) {
		env.Global = workspace.ReadGlobal(ws.Config, a.clock)
	}
	return hooks.Handle(env, in)
}

// agentTools says whether the agent has bimri-hook's MCP tools: in the
// plugin ($CLAUDE_PLUGIN_ROOT), which declares the server (.mcp.json),
// when its program is there. The hooks then teach tool calls; the settings
// route keeps the shell commands its permission rule allows.
func agentTools() hooks.Tools {
	root := os.Getenv("CLAUDE_PLUGIN_ROOT")
	if _, err := os.Stat(filepath.Join(root, ".mcp.json")); root == "" || err != nil {
		return hooks.Tools{}
	}
	if _, err := companion("mcp", mcpProgram); err != nil {
		return hooks.Tools{}
	}
	return hooks.Tools{On: true, Prefix: wiring.MCPToolName(wiring.MCPServer, "")}
}
