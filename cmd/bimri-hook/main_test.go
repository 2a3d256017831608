package main

import (
	"flag"
	"github.com/bimri/bimri-hook/store"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite testscript files whose cmp fails")

// TestMain lets scripts run `bimri-hook` as a real process (the test binary
// re-executed), so exit codes, stdin and stdout are the real ones.
func TestMain(m *testing.M) {
	// The user's data folder (provenance, the journal) of every test
	// workspace: one of the tests' own, never the user's.
	os.Setenv(store.DataEnv, filepath.Join(os.TempDir(), "bimri-hook-test-data"))
	testscript.Main(removingBuilt{m}, map[string]func(){
		"bimri-hook": func() { os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr, time.Now())) },
	})
}

// removingBuilt runs the tests, then removes the binaries builtBinary
// made for them: testscript.Main exits once they have run, so no code
// after it would.
type removingBuilt struct{ m *testing.M }

func (r removingBuilt) Run() int {
	code := r.m.Run()
	if builtPath != "" {
		os.RemoveAll(filepath.Dir(builtPath))
	}
	return code
}

// TestScripts runs testdata/script/*.txtar. Each script gets:
//   - $WORK/proj, a workspace, as the current directory and CLAUDE_PROJECT_DIR unset;
//   - $WORK/home as HOME, with the real Claude Code hook payloads copied to
//     $WORK/inputs/*.json, their paths rewritten from /home/dev to $WORK/home
//     and /home/dev/proj to $WORK/proj;
//   - BIMRI_TODAY=2026-11-29, so every date is fixed.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *update,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"subst":   substCmd,
			"linksto": linkstoCmd,
		},
		Setup: func(env *testscript.Env) error {
			work := env.WorkDir
			proj := filepath.Join(work, "proj")
			home := filepath.Join(work, "home")
			for _, d := range []string{proj, home, filepath.Join(work, "inputs")} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					return err
				}
			}
			inputs, err := filepath.Glob("testdata/hook-inputs/*.json")
			if err != nil {
				return err
			}
			for _, in := range inputs {
				data, err := os.ReadFile(in)
				if err != nil {
					return err
				}
				s := strings.ReplaceAll(string(data), "/home/dev/proj", proj)
				s = strings.ReplaceAll(s, "/home/dev", home)
				if err := os.WriteFile(filepath.Join(work, "inputs", filepath.Base(in)), []byte(s), 0o644); err != nil {
					return err
				}
			}
			env.Setenv("HOME", home)
			env.Setenv("BIMRI_TODAY", "2026-11-29")
			env.Setenv("BIMRI_HOOK_BIN", "bimri-hook")
			env.Setenv("CLAUDE_PROJECT_DIR", "")
			env.Setenv("PROJ", proj)
			// The workspace is found by walking up from the current
			// folder (workspace.Root): never above $WORK, whatever the
			// machine holds there.
			env.Setenv("GIT_CEILING_DIRECTORIES", work)
			env.Setenv("TRANSCRIPTS", filepath.Join(home, ".claude", "projects", "-home-dev-proj"))
			env.Cd = proj
			return nil
		},
	})
}

// substCmd implements `subst FILE...`: expand $VAR and ${VAR} in each file
// from the script's environment, so payloads can name $PROJ or $HOME.
func substCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: subst FILE...")
	}
	for _, name := range args {
		data := ts.ReadFile(name)
		out := os.Expand(data, ts.Getenv)
		ts.Check(os.WriteFile(ts.MkAbs(name), []byte(out), 0o644))
	}
}

// linkstoCmd implements `linksto LINK TARGET`: LINK is a symbolic link
// whose own text is TARGET, or, when TARGET is a bare name, the program
// of that name on the script's PATH (links followed on both sides).
func linkstoCmd(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: linksto LINK TARGET")
	}
	got, err := os.Readlink(ts.MkAbs(args[0]))
	ts.Check(err)
	want := args[1]
	if !strings.Contains(want, "/") {
		for _, dir := range filepath.SplitList(ts.Getenv("PATH")) {
			if _, err := os.Stat(filepath.Join(dir, want)); err == nil {
				want = filepath.Join(dir, want)
				break
			}
		}
		if got, err = filepath.EvalSymlinks(got); err == nil {
			want, err = filepath.EvalSymlinks(want)
		}
		ts.Check(err)
	}
	if (got == want) == neg {
		ts.Fatalf("%s links to %s, want %s%s", args[0], got, map[bool]string{true: "not "}[neg], want)
	}
}
