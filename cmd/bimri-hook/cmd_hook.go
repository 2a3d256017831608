package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/bimri/bimri-hook/hooks"
	"github.com/bimri/bimri-hook/memfile"
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
		UsageText: "bimri-hook hook < event.json",
		Action: func(c *cli.Context) error {
			data, err := readBounded(a.stdin, hooks.MaxInput, stdinWait)
			if err != nil {
				return err
			}
			in, err := hooks.Decode(data)
			if err != nil {
				return err
			}
			out, err := a.handle(c, in)
			if err != nil {
				return fmt.Errorf("%s: %w", in.Event, err)
			}
			return writeOutput(a.stdout, out)
		},
	}
}

// handle runs one decoded event through the hooks package: the same path
// for `hook` and `simulate`.
func (a *app) handle(c *cli.Context, in hooks.Input) (hooks.Output, error) {
	switch in.Event {
	case "SessionStart", "UserPromptSubmit", "Stop", "PreCompact", "SessionEnd":
	default:
		return hooks.Output{}, nil // not ours: touch nothing, not even the workspace
	}
	ws, err := a.openWorkspace(c, in.Cwd)
	if err != nil {
		return hooks.Output{}, err
	}
	env := hooks.Env{
		Store:           ws.store,
		Config:          ws.config,
		Settings:        ws.settings,
		Now:             ws.now,
		Binary:          binaryPath(),
		Home:            homeDir(),
		ClaudeConfigDir: os.Getenv("CLAUDE_CONFIG_DIR"),
	}
	if in.Event == "SessionStart" {
		env.Global = readGlobal(ws)
	}
	return hooks.Handle(env, in)
}

func homeDir() string {
	h, _ := os.UserHomeDir()
	return h
}

// readGlobal reads the user's memory across workspaces, if there is one.
func readGlobal(ws *workspace) *memfile.File {
	store, err := globalStore(ws)
	if err != nil {
		return nil
	}
	f, _, exists, err := store.Read()
	if err != nil || !exists {
		return nil
	}
	return f
}

// globalStore is the store of ~/.claude/bimri-global.md.
func globalStore(ws *workspace) (*memfile.Store, error) {
	dir := os.Getenv("BIMRI_GLOBAL_DIR")
	if dir == "" {
		home := homeDir()
		if home == "" {
			return nil, errors.New("no home folder for the global memory")
		}
		dir = filepath.Join(home, ".claude")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("global memory folder: %w", err)
	}
	s, err := memfile.OpenStore(dir, ws.config, ws.settings.LockTimeout)
	if err != nil {
		return nil, err
	}
	s.Names = memfile.GlobalNames
	s.Now = ws.store.Now
	return s, nil
}

// readBounded reads all of r, at most max bytes, waiting at most wait.
func readBounded(r io.Reader, max int64, wait time.Duration) ([]byte, error) {
	if f, ok := r.(*os.File); ok {
		if info, err := f.Stat(); err == nil && info.Mode()&os.ModeCharDevice != 0 {
			return nil, errors.New("hook input must come on stdin as JSON, not from a terminal (try bimri-hook simulate)")
		}
	}
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		data, err := io.ReadAll(io.LimitReader(r, max+1))
		done <- result{data, err}
	}()
	select {
	case res := <-done:
		if res.err != nil {
			return nil, fmt.Errorf("read hook input: %w", res.err)
		}
		if int64(len(res.data)) > max {
			return nil, fmt.Errorf("hook input is larger than %d bytes", max)
		}
		return res.data, nil
	case <-time.After(wait):
		return nil, fmt.Errorf("no hook input on stdin after %s", wait)
	}
}

// writeOutput prints a handler's answer: one JSON object on one line, or
// plain text, or nothing.
func writeOutput(w io.Writer, out hooks.Output) error {
	switch {
	case out.JSON != nil:
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(out.JSON); err != nil {
			return err
		}
		_, err := w.Write(buf.Bytes())
		return err
	case out.Text != "":
		_, err := fmt.Fprintln(w, out.Text)
		return err
	}
	return nil
}
