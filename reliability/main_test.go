// Package reliability proves bimri-hook as a whole process: many processes
// against one workspace, processes killed mid-write, and hostile input. It
// builds the real binary once and runs it the way Claude Code does, so
// what is tested is what ships: the exit code, stdin, stdout, stderr, the
// lock and the files on disk.
package reliability

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
	"github.com/matryer/is"
)

// binary is the bimri-hook built for this test run.
var binary string

// today is the date every run acts on unless a test says otherwise.
const today = "2026-11-29"

func TestMain(m *testing.M) {
	os.Exit(buildAndRun(m))
}

func buildAndRun(m *testing.M) int {
	flag.Parse()
	if list := flag.Lookup("test.list"); list != nil && list.Value.String() != "" {
		return m.Run() // listing tests (as scripts/fuzz.sh does) needs no binary
	}
	// A binary built elsewhere (a release, a cross-check) can be tested
	// instead of a fresh build.
	if bin := os.Getenv("BIMRI_RELIABILITY_BINARY"); bin != "" {
		abs, err := filepath.Abs(bin)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		binary = abs
		return m.Run()
	}
	dir, err := os.MkdirTemp("", "bimri-reliability-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	// Traversable by every user: some cases run the binary as another user
	// (see runAs), because root ignores file permissions.
	if err := os.Chmod(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	binary = filepath.Join(dir, "bimri-hook")
	gobin, err := exec.LookPath("go")
	if err != nil {
		fmt.Fprintln(os.Stderr, "reliability: the go command is needed to build bimri-hook:", err)
		return 1
	}
	// -tags bimritest compiles in the store's test pause, which the
	// crash tests use to kill a write midway (store/testhook_bimritest.go).
	build := exec.Command(gobin, "build", "-tags", "bimritest", "-o", binary, "github.com/bimri/bimri-hook/cmd/bimri-hook")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "reliability: go build: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}

// proc is one run of the binary.
type proc struct {
	args  []string
	stdin []byte
	dir   string            // working directory; the test's temp dir if empty
	env   map[string]string // on top of baseEnv; "" removes a variable
	// openStdin gives the process a stdin that stays open and empty, as a
	// terminal or a stuck client would.
	openStdin bool
	// asOther runs the process as an unprivileged user, for cases where
	// root would ignore permissions (see runAs).
	asOther bool
}

// result is what a run left: its exit code and output.
type result struct {
	code           int // -1 when killed by a signal
	stdout, stderr string
}

// baseEnv is built from scratch: the test may itself run inside Claude
// Code, whose CLAUDE_PROJECT_DIR would point the binary at this repository.
func baseEnv(home string) map[string]string {
	return map[string]string{
		"PATH":        os.Getenv("PATH"),
		"HOME":        home,
		"TMPDIR":      os.TempDir(),
		"BIMRI_TODAY": today,
	}
}

func (p proc) command(ctx context.Context, home string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, binary, p.args...)
	env := baseEnv(home)
	for k, v := range p.env {
		env[k] = v
	}
	for k, v := range env {
		if v != "" {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}
	sort.Strings(cmd.Env)
	cmd.Dir = p.dir
	if p.stdin != nil {
		cmd.Stdin = bytes.NewReader(p.stdin)
	}
	if p.asOther {
		runAs(cmd)
	}
	return cmd
}

// runTimeout bounds any single run: nothing bimri-hook does should come
// near it, so hitting it means a hang.
const runTimeout = 60 * time.Second

// run runs the binary to the end and checks what must hold for every run:
// (It reports with t.Errorf, never t.Fatalf, so goroutines may call it.)
// it finished, it never exited 2 (Claude Code's "block"), it never
// panicked, and a failure says so in exactly one prefixed stderr line.
func run(t *testing.T, home string, p proc) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := p.command(ctx, home)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if p.openStdin {
		r, w, err := os.Pipe()
		if err != nil {
			t.Errorf("pipe: %v", err)
			return result{code: -1}
		}
		defer r.Close()
		defer w.Close() // only once the process is gone
		cmd.Stdin = r
	}
	err := cmd.Run()
	res := result{stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Errorf("bimri-hook %s did not finish within %s (a hang)", strings.Join(p.args, " "), runTimeout)
		res.code = -1
		return res
	case errors.As(err, &exit):
		res.code = exit.ExitCode()
	case err != nil:
		t.Errorf("start bimri-hook: %v", err)
		res.code = -1
		return res
	}
	checkResult(t, p, res)
	return res
}

func checkResult(t *testing.T, p proc, res result) {
	t.Helper()
	what := "bimri-hook " + strings.Join(p.args, " ")
	if strings.Contains(res.stderr, "panic:") || strings.Contains(res.stderr, "goroutine ") || strings.Contains(res.stderr, "internal error") {
		t.Errorf("%s panicked:\n%s", what, res.stderr)
	}
	switch res.code {
	case 0:
	case 1:
		lines := strings.Split(strings.TrimSuffix(res.stderr, "\n"), "\n")
		if len(lines) != 1 || !strings.HasPrefix(lines[0], "bimri-hook: ") || strings.Count(lines[0], "bimri-hook: ") != 1 {
			t.Errorf("%s failed without one prefixed stderr line:\n%s", what, res.stderr)
		}
		if res.stdout != "" {
			t.Errorf("%s failed but wrote to stdout: %q", what, res.stdout)
		}
	default:
		t.Errorf("%s exited %d (only 0 and 1 are allowed; 2 blocks Claude Code)\nstderr: %s", what, res.code, res.stderr)
	}
}

// event is one hook input as Claude Code sends it.
func event(name string, fields map[string]any) []byte {
	m := map[string]any{"hook_event_name": name}
	for k, v := range fields {
		m[k] = v
	}
	data, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return data
}

// readMemory reads and parses a workspace's bimri.md.
func readMemory(t *testing.T, root string) (*memfile.File, []byte) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, memfile.MemoryName))
	if err != nil {
		t.Fatalf("read bimri.md: %v", err)
	}
	f, _, err := memfile.Parse(data)
	if err != nil {
		t.Fatalf("bimri.md does not parse: %v\n%s", err, data)
	}
	return f, data
}

// readArchive parses a workspace's archive; a missing one is empty.
func readArchive(t *testing.T, root string) []memfile.ArchiveRecord {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, memfile.ArchiveName))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatalf("read archive: %v", err)
	}
	recs, _ := memfile.ParseArchive(data)
	return recs
}

// entries lists a file's entries in Tier 1 then Tier 2.
func entries(f *memfile.File) []*memfile.Entry {
	return append(f.Entries(1), f.Entries(2)...)
}

// hashTree fingerprints a folder: every path, its type, permissions and
// content (or link target). Paths under any of skip are left out.
func hashTree(t *testing.T, root string, skip ...string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		for _, s := range skip {
			if rel == s || strings.HasPrefix(rel, s+"/") {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		line := fmt.Sprintf("%s %s", rel, info.Mode())
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			line += " -> " + target
		case info.Mode().IsRegular():
			data, err := readAsRoot(path, info)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(data)
			line += " " + hex.EncodeToString(sum[:8])
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		t.Fatalf("hash %s: %v", root, err)
	}
	return strings.Join(lines, "\n")
}

// readAsRoot reads a file even when a case made it unreadable, by lending
// itself the read bit for the moment of the read.
func readAsRoot(path string, info fs.FileInfo) ([]byte, error) {
	data, err := os.ReadFile(path)
	if !errors.Is(err, fs.ErrPermission) {
		return data, err
	}
	if err := os.Chmod(path, info.Mode().Perm()|0o400); err != nil {
		return nil, err
	}
	defer os.Chmod(path, info.Mode().Perm())
	return os.ReadFile(path)
}

// tempFiles lists the store's temporary files left in a workspace.
func tempFiles(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	for _, dir := range []string{root, filepath.Join(root, filepath.FromSlash(store.StateDir))} {
		matches, err := filepath.Glob(filepath.Join(dir, ".bimri-tmp-*"))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, matches...)
	}
	return out
}

// brokenCopies lists the copies the store set aside as unreadable.
func brokenCopies(t *testing.T, root string) []string {
	t.Helper()
	matches, err := filepath.Glob(filepath.Join(root, memfile.MemoryName+".broken-*"))
	if err != nil {
		t.Fatal(err)
	}
	return matches
}

// writeConfig writes a workspace's .claude/bimri.json.
func writeConfig(t *testing.T, root, json string) {
	t.Helper()
	is := is.New(t)
	is.NoErr(os.MkdirAll(filepath.Join(root, ".claude"), 0o755))
	is.NoErr(os.WriteFile(filepath.Join(root, ".claude", "bimri.json"), []byte(json), 0o644))
}
