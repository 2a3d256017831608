//go:build linux || darwin

package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/internal/slowtest"
	"github.com/gofrs/flock"
)

// npmPackage is a package of the npm registry that the slow tests run, at
// a pinned version: the Claude Code client, and the official MCP tools
// that check bimri-hook's server and bundle.
type npmPackage struct {
	Name    string // @anthropic-ai/claude-code
	Version string
	Cache   string // the cache folder's name before -<version>: claude-code
	// Find returns, relative to the install prefix, the file to run.
	Find func(prefix string) (string, error)
	// Check, when set, runs the file Find found once, proving the install.
	Check func(ctx context.Context, bin string) error
}

// npmCacheDir is where the npm install of p lives between test runs:
// $BIMRI_E2E_CACHE/<cache>-<version> when BIMRI_E2E_CACHE is set, else
// in the user cache dir. The version is always part of the name so
// bumping a pin never reuses an install of another release.
func npmCacheDir(p npmPackage) (string, error) {
	base := os.Getenv("BIMRI_E2E_CACHE")
	if base == "" {
		uc, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("find a cache folder (set BIMRI_E2E_CACHE): %w", err)
		}
		base = filepath.Join(uc, "bimri-hook-e2e")
	}
	return filepath.Join(base, p.Cache+"-"+p.Version), nil
}

// installMarker names the file, written last, that says an install folder is
// complete and which file in it to run.
const installMarker = ".bimri-e2e-installed"

// npmInstall returns the file to run of package p, installing p with npm
// into its cache folder the first time. A missing npm or a failed install
// is an error, never a skip.
func npmInstall(p npmPackage) (string, error) {
	dir, err := npmCacheDir(p)
	if err != nil {
		return "", err
	}
	if bin, ok := installedIn(dir); ok {
		return bin, nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", fmt.Errorf("npm is not on PATH; install Node.js and npm so the tests can fetch %s@%s: %w", p.Name, p.Version, err)
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", fmt.Errorf("create cache folder: %w", err)
	}
	// Another test binary (go test ./... runs packages in parallel, and CI
	// may run several jobs) can be installing into the same cache; the file
	// lock makes the second one wait and then reuse the first one's install.
	lock := flock.New(dir + ".lock")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	locked, err := lock.TryLockContext(ctx, 250*time.Millisecond)
	if err != nil || !locked {
		return "", fmt.Errorf("lock %s: %v", lock.Path(), err)
	}
	defer lock.Unlock()
	if bin, ok := installedIn(dir); ok {
		return bin, nil
	}

	// Install beside the final folder and rename it into place, so a run
	// killed halfway leaves a stray temp folder, never a half-installed
	// cache that the next run would trust.
	tmp, err := os.MkdirTemp(parent, filepath.Base(dir)+".tmp-*")
	if err != nil {
		return "", fmt.Errorf("create temp install folder: %w", err)
	}
	defer os.RemoveAll(tmp) // a no-op after a successful rename
	// MkdirTemp makes the folder private; the cache is meant to be reused.
	if err := os.Chmod(tmp, 0o755); err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, npm, "install", "--no-audit", "--no-fund", "--prefix", tmp, p.Name+"@"+p.Version)
	cmd.Dir = tmp
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("npm install %s@%s failed: %v\n%s", p.Name, p.Version, err, out)
	}
	rel, err := p.Find(tmp)
	if err != nil {
		return "", fmt.Errorf("%w\nnpm output:\n%s", err, out)
	}
	if p.Check != nil {
		if err := p.Check(ctx, filepath.Join(tmp, rel)); err != nil {
			return "", fmt.Errorf("installed %s@%s: %w", p.Name, p.Version, err)
		}
	}
	if err := os.WriteFile(filepath.Join(tmp, installMarker), []byte(rel+"\n"), 0o644); err != nil {
		return "", fmt.Errorf("write install marker: %w", err)
	}
	// A folder without the marker is a leftover of an interrupted install
	// from before this lock existed; replace it.
	if err := os.RemoveAll(dir); err != nil {
		return "", fmt.Errorf("remove incomplete install %s: %w", dir, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		return "", fmt.Errorf("move install into place: %w", err)
	}
	bin, ok := installedIn(dir)
	if !ok {
		return "", fmt.Errorf("install in %s vanished after rename", dir)
	}
	return bin, nil
}

// installedIn reports the file to run of a complete install in dir.
func installedIn(dir string) (string, bool) {
	rel, err := os.ReadFile(filepath.Join(dir, installMarker))
	if err != nil {
		return "", false
	}
	bin := filepath.Join(dir, strings.TrimSpace(string(rel)))
	if fi, err := os.Stat(bin); err != nil || fi.IsDir() {
		return "", false
	}
	return bin, true
}

// nodeCLI is an npm package whose command is a Node.js script: bin names
// it in node_modules/.bin, and the script must say version to --version.
func nodeCLI(name, version, cache, bin string) npmPackage {
	p := npmPackage{Name: name, Version: version, Cache: cache}
	p.Find = func(prefix string) (string, error) {
		rel := filepath.Join("node_modules", ".bin", bin)
		if _, err := os.Stat(filepath.Join(prefix, rel)); err != nil {
			return "", fmt.Errorf("%s@%s installed no %s: %w", name, version, bin, err)
		}
		return rel, nil
	}
	p.Check = func(ctx context.Context, script string) error {
		out, err := nodeCommand(ctx, script, "--version").CombinedOutput()
		if err != nil || !strings.Contains(string(out), version) {
			return fmt.Errorf("%s --version: %v: %s", bin, err, out)
		}
		return nil
	}
	return p
}

// npmArch is npm's name of a GOARCH, as the clients' per-platform
// packages (@openai/codex-linux-x64, ...) carry it.
var npmArch = map[string]string{"amd64": "x64", "arm64": "arm64"}

// nativeVersion is the Check of a package whose command is a native
// binary: it must say version to --version.
func nativeVersion(version string) func(ctx context.Context, bin string) error {
	return func(ctx context.Context, bin string) error {
		out, err := exec.CommandContext(ctx, bin, "--version").CombinedOutput()
		if err != nil || !strings.Contains(string(out), version) {
			return fmt.Errorf("%s --version: %v: %s", bin, err, out)
		}
		return nil
	}
}

// The official MCP tools the tests check bimri-hook-mcp and the Claude
// Desktop bundle with.
var (
	mcpInspector = nodeCLI("@modelcontextprotocol/inspector", "2.12.0", "mcp-inspector", "mcp-inspector")
	mcpbCLI      = nodeCLI("@anthropic-ai/mcpb", "2.1.2", "mcpb", "mcpb")
)

// nodeCommand runs a Node.js script with node from PATH. With no node,
// it runs a command that fails saying so.
func nodeCommand(ctx context.Context, script string, args ...string) *exec.Cmd {
	node, err := exec.LookPath("node")
	if err != nil {
		return exec.CommandContext(ctx, "/bin/sh", "-c", `echo "node is not on PATH; install Node.js (npm installed $0 but cannot run it)" >&2; exit 1`, script)
	}
	return exec.CommandContext(ctx, node, append([]string{script}, args...)...)
}

var (
	npmToolsMu sync.Mutex
	npmTools   = map[string]*onceResult{}
)

// installNPM returns the file to run of package p, installed once per
// test binary, and once per machine, in the cache (npmInstall). A test
// that needs a package from npm is a slow one: `go test ./...` skips it,
// and BIMRI_SLOW=1 (make test) runs it (slowtest.Gate). Once asked for, a
// missing npm or a failed install fails the test: a suite that silently
// skipped would report green while testing nothing.
func installNPM(t testing.TB, p npmPackage) string {
	t.Helper()
	slowtest.Gate(t)
	npmToolsMu.Lock()
	once := npmTools[p.Name]
	if once == nil {
		once = &onceResult{}
		npmTools[p.Name] = once
	}
	npmToolsMu.Unlock()
	once.mu.Lock()
	defer once.mu.Unlock()
	if !once.done {
		start := time.Now()
		once.path, once.err = npmInstall(p)
		once.done = true
		if once.err == nil {
			t.Logf("%s %s ready at %s (%v)", p.Name, p.Version, once.path, time.Since(start).Round(time.Millisecond))
		}
	}
	if once.err != nil {
		t.Fatalf("cannot run this test without %s@%s: %v", p.Name, p.Version, once.err)
	}
	return once.path
}
