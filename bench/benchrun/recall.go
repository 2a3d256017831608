//go:build bench && unix

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
)

// recallPrompt matches many archived entries of a genfull archive (its
// sentences share objects and outcomes), so the ranking walks long
// postings lists: a hard case, not an easy one.
const recallPrompt = "How did we fix the session cache latency in the billing webhook handler?"

// recallBenches are UserPromptSubmit with recall on a workspace whose
// archive holds 10,000 records (genfull -days 125 -per-day 81), and cat
// of its bimri.md and archive, which the hook's ratio is to. The
// workspace is saved after a SessionStart and one prompt of another
// session, so the recall index exists, as it does from a session's
// second prompt on (the first prompt after the archive changes builds
// it); every timed prompt then ranks and recalls the same items.
func recallBenches(ws *workspace, hook []string, event func(*workspace, string, map[string]any) []byte) ([]*bench, error) {
	prompt := map[string]any{"prompt": recallPrompt}
	if _, err := runOnce(&bench{name: "prime recall", ws: ws, args: hook, stdin: event(ws, "SessionStart", map[string]any{"source": "startup"})}); err != nil {
		return nil, err
	}
	if err := primeRecallIndex(ws, hook, event(ws, "UserPromptSubmit", prompt)); err != nil {
		return nil, err
	}
	if err := ws.save(); err != nil {
		return nil, err
	}
	ask := &bench{name: "recall UserPrompt", ws: ws, args: hook, stdin: event(ws, "UserPromptSubmit", prompt)}
	// A benchmark of a recall that finds nothing measures the wrong thing.
	if err := ws.reset(); err != nil {
		return nil, err
	}
	if err := checkRecalls(ask); err != nil {
		return nil, err
	}
	cat := &bench{name: "cat memory+archive", ws: ws, args: []string{"cat", filepath.Join(ws.root, memfile.MemoryName), filepath.Join(ws.root, memfile.ArchiveName)}}
	ask.cat = cat
	return []*bench{cat, ask}, nil
}

// primeRecallIndex runs a prompt as another session ("prime") so the
// workspace holds the recall index, without recording recalls for the
// session the benchmark runs as.
func primeRecallIndex(ws *workspace, hook []string, ev []byte) error {
	ev = bytes.Replace(ev, []byte(`"session_id":"bench"`), []byte(`"session_id":"prime"`), 1)
	if _, err := runOnce(&bench{name: "prime recall index", ws: ws, args: hook, stdin: ev}); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(ws.root, filepath.FromSlash(store.StateDir), "recall-index.bin")); err != nil {
		return fmt.Errorf("a prompt built no recall index: %w", err)
	}
	return nil
}

// checkRecalls runs the prompt once and fails unless it added context.
func checkRecalls(b *bench) error {
	cmd := exec.Command(b.args[0], b.args[1:]...)
	cmd.Env = b.ws.env
	cmd.Stdin = bytes.NewReader(b.stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %v: %s", b.name, err, stderr.String())
	}
	var out struct {
		HookSpecificOutput struct {
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil || out.HookSpecificOutput.AdditionalContext == "" {
		return fmt.Errorf("%s recalled nothing for %q: %s", b.name, recallPrompt, stdout.Bytes())
	}
	return nil
}
