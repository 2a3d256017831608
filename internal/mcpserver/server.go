// Package mcpserver is `bimri-hook mcp`: the memory as MCP tools, on the
// official Go SDK, for clients that call tools rather than run commands.
// Every tool calls what the CLI calls (record, inspect, hooks.MemoryView);
// this package maps arguments and results and finds the workspace.
package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/bimri/bimri-hook/internal/record"
	"github.com/bimri/bimri-hook/internal/workspace"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options are what `bimri-hook mcp` was started with.
type Options struct {
	Dir     string    // --dir: the workspace when CLAUDE_PROJECT_DIR is unset
	Config  string    // --config, else $BIMRI_CONFIG; "" for the workspace's own
	Today   time.Time // --today, $BIMRI_TODAY; else each call reads Clock
	Clock   func() time.Time
	Version string
}

// Serve serves one client on in and out until in ends; a bad frame is
// answered and skipped (frames.go), never ends the session.
func Serve(ctx context.Context, opt Options, in io.Reader, out io.Writer) error {
	if opt.Clock == nil {
		opt.Clock = time.Now
	}
	s := &server{opt: opt, session: fmt.Sprintf("mcp-%d", opt.Clock().UnixNano())}
	srv := mcp.NewServer(&mcp.Implementation{Name: "bimri-hook", Title: "BIMRI memory", Version: opt.Version}, &mcp.ServerOptions{
		Instructions:            instructions,
		RootsListChangedHandler: s.rootsChanged,
	})
	s.addTools(srv)
	r, w := filterFrames(in, out)
	err := srv.Run(ctx, &mcp.IOTransport{Reader: r, Writer: w, MaxLineLength: -1})
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

type server struct {
	opt     Options
	session string // keys the memory tool's per-session state

	mu         sync.Mutex
	rootsKnown bool   // the client gave its roots
	rootDir    string // the folder of its first file root, if any
}

// open finds the workspace (CLAUDE_PROJECT_DIR, else Dir, else the
// client's first root, else the current folder) and opens its store, each
// call anew, so changed roots and a turning day are followed.
func (s *server) open(ctx context.Context) (*workspace.Opened, error) {
	s.mu.Lock()
	dir := s.rootDir
	s.mu.Unlock()
	root, err := workspace.Root(s.opt.Dir, dir)
	if err != nil {
		return nil, err
	}
	return workspace.Open(workspace.Request{Root: root, Config: s.opt.Config, Today: s.opt.Today, LockWait: record.AgentLockWait}, s.opt.Clock)
}

// rootsRequest keys the request for the client's roots in a call's input
// requests: under protocol 2026-07-28 a tool call's first answer asks, and
// the client calls again with them (the SDK does that round trip itself
// with older clients).
const rootsRequest = "roots"

// askRoots says whether a call must first ask the client for its roots
// (once, again after they change, only when nothing else names the
// workspace), and takes them when the call brings them.
func (s *server) askRoots(req *mcp.CallToolRequest) bool {
	if os.Getenv("CLAUDE_PROJECT_DIR") != "" || s.opt.Dir != "" {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if res, ok := req.Params.InputResponses[rootsRequest].(*mcp.ListRootsResult); ok {
		s.rootsKnown, s.rootDir = true, ""
		for _, r := range res.Roots {
			if dir := filePath(r.URI); dir != "" {
				s.rootDir = dir
				break
			}
		}
		return false
	}
	if s.rootsKnown || req.Session == nil {
		return false
	}
	p := req.Session.InitializeParams()
	return p != nil && p.Capabilities != nil && p.Capabilities.RootsV2 != nil
}

// rootsChanged makes the next call ask for the roots again.
func (s *server) rootsChanged(context.Context, *mcp.RootsListChangedRequest) {
	s.mu.Lock()
	s.rootsKnown, s.rootDir = false, ""
	s.mu.Unlock()
}

// filePath is the folder a file:// URI names, or "".
func filePath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || (u.Host != "" && u.Host != "localhost") {
		return ""
	}
	p := u.Path
	// file:///C:/work on Windows is the path C:/work.
	if runtime.GOOS == "windows" && len(p) > 2 && p[0] == '/' && p[2] == ':' {
		p = p[1:]
	}
	return filepath.FromSlash(p) // "" for none
}

// instructions may be shown to the model before any call.
const instructions = "bimri-hook keeps this workspace's long-term memory in bimri.md (scored, decayed and pruned by the tools, never by hand). " +
	"At the start of a session call memory and read it before other work. " +
	"Record what matters with remember as you go (a finished task, a decision, a preference or constraint), and search older memory with recall. " +
	"Never edit bimri.md or its backup by hand."

// clientAgent is the coding agent an MCP client is, for the entries it
// records (memfile.Entry.Agent), as its client's name says (Codex,
// gemini-cli-mcp-client, copilot-cli, opencode); "" for Claude Code and
// every other client.
func clientAgent(req *mcp.CallToolRequest) string {
	if req == nil || req.ClientInfo() == nil {
		return ""
	}
	name := strings.ToLower(req.ClientInfo().Name)
	for _, agent := range []string{"codex", "gemini", "copilot", "opencode"} {
		if strings.Contains(name, agent) {
			return agent
		}
	}
	return ""
}
