package wiring

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/matryer/is"
	"github.com/tidwall/sjson"
)

// repoRoot is the plugin's folder: the repository root.
const repoRoot = ".."

func readVersion(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, "VERSION"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

func TestPluginManifest(t *testing.T) {
	is := is.New(t)
	path := filepath.Join(repoRoot, ".claude-plugin", "plugin.json")
	b, err := os.ReadFile(path)
	is.NoErr(err)
	version := readVersion(t)
	if *update {
		b, err = sjson.SetBytes(b, "version", version)
		is.NoErr(err)
		is.NoErr(os.WriteFile(path, b, 0o644))
	}
	var manifest struct {
		Name, Version, Description string
	}
	is.NoErr(json.Unmarshal(b, &manifest))
	is.Equal(manifest.Name, Name)
	is.Equal(manifest.Version, version) // run go test ./wiring -update after changing VERSION
	is.True(manifest.Description != "")
}

func TestMarketplace(t *testing.T) {
	is := is.New(t)
	b, err := os.ReadFile(filepath.Join(repoRoot, ".claude-plugin", "marketplace.json"))
	is.NoErr(err)
	var market struct {
		Name    string
		Owner   struct{ Name string }
		Plugins []struct {
			Name, Source, Version string
		}
	}
	is.NoErr(json.Unmarshal(b, &market))
	is.True(market.Name != "")
	is.True(market.Owner.Name != "") // required by Claude Code
	is.Equal(len(market.Plugins), 1)
	p := market.Plugins[0]
	is.Equal(p.Name, Name)
	// Relative sources must start with "./"; they resolve from the folder
	// holding .claude-plugin, here the repository root.
	is.True(strings.HasPrefix(p.Source, "./"))
	manifest, err := os.ReadFile(filepath.Join(repoRoot, p.Source, ".claude-plugin", "plugin.json"))
	is.NoErr(err)
	var m struct{ Name string }
	is.NoErr(json.Unmarshal(manifest, &m))
	is.Equal(m.Name, p.Name)
	if p.Version != "" {
		is.Equal(p.Version, readVersion(t))
	}
}

// hooks/hooks.json is generated: regenerate it with -update rather than
// edit it, and every command it runs must exist in the plugin.
func TestPluginHooks(t *testing.T) {
	is := is.New(t)
	path := filepath.Join(repoRoot, "hooks", "hooks.json")
	golden(t, path, PluginHooks())

	b, err := os.ReadFile(path)
	is.NoErr(err)
	var file struct {
		Hooks map[string][]struct {
			Hooks []struct{ Type, Command string }
		}
	}
	is.NoErr(json.Unmarshal(b, &file))
	is.Equal(len(file.Hooks), len(Events()))
	root, err := filepath.Abs(repoRoot)
	is.NoErr(err)
	for _, groups := range file.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				is.Equal(h.Type, "command")
				quoted, args, ok := strings.Cut(h.Command, `" `)
				is.True(ok && strings.HasPrefix(quoted, `"`)) // the script path is quoted
				is.Equal(args, "hook")
				script := strings.ReplaceAll(quoted[1:], "${CLAUDE_PLUGIN_ROOT}", root)
				info, err := os.Stat(script)
				is.NoErr(err) // the hook's script exists
				if runtime.GOOS != "windows" {
					is.True(info.Mode()&0o111 != 0) // and is executable
				}
			}
		}
	}
}

// launcher is a throwaway plugin install for scripts/launch.sh, with a
// PATH that holds only the tools the script needs plus whatever fakes a
// test puts in fakes.
type launcher struct {
	t      *testing.T
	root   string // CLAUDE_PLUGIN_ROOT
	data   string // CLAUDE_PLUGIN_DATA
	home   string
	fakes  string // a PATH folder for a fake go and a fake bimri-hook
	tools  string // a PATH folder with the real tools the script runs
	goLog  string // the fake go writes a line here for each build
	script string
}

const launcherVersion = "9.8.7"

func newLauncher(t *testing.T) *launcher {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the launcher is a POSIX shell script")
	}
	// Spaces in every path: the script must quote them all.
	base := filepath.Join(t.TempDir(), "with space")
	l := &launcher{
		t:     t,
		root:  filepath.Join(base, "plugin root"),
		data:  filepath.Join(base, "plugin data"),
		home:  filepath.Join(base, "home"),
		fakes: filepath.Join(base, "fakes"),
		tools: filepath.Join(base, "tools"),
		goLog: filepath.Join(base, "go.log"),
	}
	l.script = filepath.Join(l.root, "scripts", "launch.sh")
	for _, dir := range []string{filepath.Join(l.root, "scripts"), l.home, l.fakes, l.tools} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	src, err := os.ReadFile(filepath.Join(repoRoot, "scripts", "launch.sh"))
	if err != nil {
		t.Fatal(err)
	}
	l.write(l.script, string(src))
	l.write(filepath.Join(l.root, "VERSION"), launcherVersion+"\n")
	for _, tool := range []string{"cat", "chmod", "dirname", "mkdir", "mv", "rm", "sleep", "tr", "uname"} {
		path, err := exec.LookPath(tool)
		if err != nil {
			t.Skipf("no %s: %v", tool, err)
		}
		if err := os.Symlink(path, filepath.Join(l.tools, tool)); err != nil {
			t.Fatal(err)
		}
	}
	return l
}

func (l *launcher) write(path, content string) {
	l.t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o755); err != nil {
		l.t.Fatal(err)
	}
}

// fakeGo puts on PATH a go that logs its arguments and writes, as the
// built binary, a script that prints its arguments and copies stdin.
func (l *launcher) fakeGo(fail bool) {
	failure := ""
	if fail {
		failure = "echo 'cmd/bimri-hook/main.go:1: syntax error' >&2; exit 1"
	}
	script := `#!/bin/sh
echo "$PWD|$*" >>"` + l.goLog + `"
sleep 0.2
` + failure + `
while [ $# -gt 0 ]; do
	if [ "$1" = -o ]; then out=$2; fi
	shift
done
printf '#!/bin/sh\necho "built: $*"\ncat\n' >"$out"
chmod +x "$out"
`
	l.write(filepath.Join(l.fakes, "go"), script)
}

// fakeOnPath puts a bimri-hook on PATH.
func (l *launcher) fakeOnPath() {
	l.write(filepath.Join(l.fakes, Name), "#!/bin/sh\necho \"from PATH: $*\"\ncat\n")
}

func (l *launcher) builds() []string {
	b, err := os.ReadFile(l.goLog)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		l.t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// run runs the launcher as Claude Code does, with the event on stdin;
// unset names environment variables to leave out.
func (l *launcher) run(stdin string, unset ...string) (stdout, stderr string, err error) {
	env := map[string]string{
		"PATH":               l.fakes + string(os.PathListSeparator) + l.tools,
		"HOME":               l.home,
		"CLAUDE_PLUGIN_ROOT": l.root,
		"CLAUDE_PLUGIN_DATA": l.data,
	}
	for _, name := range unset {
		delete(env, name)
	}
	cmd := exec.Command(l.script, "hook")
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.String(), errOut.String(), err
}

func (l *launcher) binary() string {
	return filepath.Join(l.data, "bin", Name+"-"+launcherVersion)
}

func TestLauncherBuildsThenCaches(t *testing.T) {
	is := is.New(t)
	l := newLauncher(t)
	l.fakeGo(false)
	l.fakeOnPath() // a build wins over PATH

	out, errOut, err := l.run(`{"hook_event_name":"SessionStart"}`)
	is.NoErr(err)
	is.Equal(errOut, "")
	is.Equal(out, "built: hook\n{\"hook_event_name\":\"SessionStart\"}") // args and stdin pass through
	builds := l.builds()
	is.Equal(len(builds), 1)
	dir, args, _ := strings.Cut(builds[0], "|")
	is.Equal(dir, l.root) // built from the plugin's source
	is.True(strings.HasPrefix(args, "build "))
	is.True(strings.HasSuffix(args, " ./cmd/bimri-hook"))
	is.True(strings.Contains(args, "-X main.version="+launcherVersion))
	_, err = os.Stat(l.binary())
	is.NoErr(err)
	entries, err := os.ReadDir(filepath.Dir(l.binary()))
	is.NoErr(err)
	is.Equal(len(entries), 1) // no temporary file or build log left behind

	out, _, err = l.run("second")
	is.NoErr(err)
	is.Equal(out, "built: hook\nsecond")
	is.Equal(len(l.builds()), 1) // the cached build ran, no second build
}

func TestLauncherConcurrentFirstRuns(t *testing.T) {
	l := newLauncher(t)
	l.fakeGo(false)
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stdin := strings.Repeat("x", i+1)
			out, errOut, err := l.run(stdin)
			if err != nil || out != "built: hook\n"+stdin || errOut != "" {
				t.Errorf("run %d: %q %q %v", i, out, errOut, err)
			}
		}()
	}
	wg.Wait()
	entries, err := os.ReadDir(filepath.Dir(l.binary()))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("left in bin: %v", entries)
	}
}

func TestLauncherDefaultDataDir(t *testing.T) {
	is := is.New(t)
	l := newLauncher(t)
	l.fakeGo(false)
	_, _, err := l.run("", "CLAUDE_PLUGIN_DATA")
	is.NoErr(err)
	_, err = os.Stat(filepath.Join(l.home, ".cache", Name, "bin", Name+"-"+launcherVersion))
	is.NoErr(err) // $HOME/.cache/bimri-hook without XDG_CACHE_HOME
}

// Run by hand, the script finds the plugin from its own path.
func TestLauncherDefaultRoot(t *testing.T) {
	is := is.New(t)
	l := newLauncher(t)
	l.fakeGo(false)
	_, _, err := l.run("", "CLAUDE_PLUGIN_ROOT")
	is.NoErr(err)
	dir, _, _ := strings.Cut(l.builds()[0], "|")
	is.Equal(dir, l.root)
	_, err = os.Stat(l.binary())
	is.NoErr(err)
}

func TestLauncherFallsBackToPath(t *testing.T) {
	is := is.New(t)
	l := newLauncher(t)
	l.fakeOnPath()
	out, errOut, err := l.run("event")
	is.NoErr(err)
	is.Equal(errOut, "")
	is.Equal(out, "from PATH: hook\nevent")
}

func TestLauncherBuildFails(t *testing.T) {
	is := is.New(t)
	l := newLauncher(t)
	l.fakeGo(true)
	l.fakeOnPath()
	out, _, err := l.run("event")
	is.NoErr(err)
	is.Equal(out, "from PATH: hook\nevent")

	is.NoErr(os.Remove(filepath.Join(l.fakes, Name)))
	out, errOut, err := l.run("event")
	is.NoErr(err) // exit 0: the session goes on
	is.Equal(out, "")
	is.Equal(strings.Count(errOut, "\n"), 1)
	is.True(strings.HasPrefix(errOut, "bimri-hook: go build failed (see "))
	entries, err := os.ReadDir(filepath.Dir(l.binary()))
	is.NoErr(err)
	is.Equal(len(entries), 1) // only the build log
	is.Equal(entries[0].Name(), "build-"+launcherVersion+".log")
}

func TestLauncherNothingAvailable(t *testing.T) {
	is := is.New(t)
	l := newLauncher(t)
	out, errOut, err := l.run("event")
	is.NoErr(err) // exit 0: the session goes on
	is.Equal(out, "")
	is.Equal(errOut, "bimri-hook: no binary: install Go or put bimri-hook on PATH\n")
}
