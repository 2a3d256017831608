package wiring

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

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
			Name   string
			Source struct{ Source, Repo, Ref string }
		}
	}
	is.NoErr(json.Unmarshal(b, &market))
	is.True(market.Name != "")
	is.True(market.Owner.Name != "") // required by Claude Code
	is.Equal(len(market.Plugins), 1)
	p := market.Plugins[0]
	is.Equal(p.Name, Name)
	// The marketplace users add (bimri/bimri-hook) installs the plugin
	// from the release branch, which make plugin's folder is published
	// to: built for every platform, where this checkout needs Go.
	is.Equal(p.Source.Source, "github")
	is.Equal(p.Source.Ref, "release")
	var m struct{ Repository string }
	manifest, err := os.ReadFile(filepath.Join(repoRoot, ".claude-plugin", "plugin.json"))
	is.NoErr(err)
	is.NoErr(json.Unmarshal(manifest, &m))
	is.Equal("https://github.com/"+p.Source.Repo, m.Repository)
}

// pluginCommand and pluginArgs are what every hook of the plugin runs, in
// the exec form, through no shell: the plugin's dispatcher bin/bimri-hook
// (which runs the binary bundled for the platform, or scripts/launch.sh)
// with "hook". Claude Code substitutes ${CLAUDE_PLUGIN_ROOT} in each as
// plain text, so a folder with spaces needs no quotes, and starts the
// program itself (measured, 2.1.332). On Windows, where a program named
// without an extension is looked up with .exe, that is bin/bimri-hook.exe,
// and no POSIX shell is needed.
const pluginCommand = "${CLAUDE_PLUGIN_ROOT}/bin/bimri-hook"

// pluginArgs are pluginCommand's arguments.
var pluginArgs = []string{"hook"}

// pluginHooks is the content of the plugin's hooks/hooks.json, each event
// in the exec form: the client starts pluginCommand with pluginArgs itself,
// through no shell.
func pluginHooks() []byte {
	type handler struct {
		Type    string   `json:"type"`
		Command string   `json:"command"`
		Args    []string `json:"args"`
		Timeout int      `json:"timeout"`
	}
	type group struct {
		Matcher string    `json:"matcher,omitempty"`
		Hooks   []handler `json:"hooks"`
	}
	b := []byte(`{"description":` + jsonString("bimri-hook: load bimri.md at session start, keep it up to date as the session goes") + `,"hooks":{`)
	for i, e := range PluginEvents() {
		if i > 0 {
			b = append(b, ',')
		}
		g := group{Matcher: e.Matcher, Hooks: []handler{{"command", pluginCommand, pluginArgs, e.Timeout}}}
		b = append(b, jsonString(e.Name)+":["+string(marshal(g))+"]"...)
	}
	var buf bytes.Buffer
	_ = json.Indent(&buf, append(b, "}}"...), "", "  ")
	buf.WriteByte('\n')
	return buf.Bytes()
}

// hooks/hooks.json is generated: regenerate it with -update rather than
// edit it, and every command it runs must exist in the plugin.
func TestPluginHooks(t *testing.T) {
	is := is.New(t)
	path := filepath.Join(repoRoot, "hooks", "hooks.json")
	golden(t, path, pluginHooks())

	b, err := os.ReadFile(path)
	is.NoErr(err)
	var file struct {
		Hooks map[string][]struct {
			Hooks []struct {
				Type, Command string
				Args          []string
			}
		}
	}
	is.NoErr(json.Unmarshal(b, &file))
	is.Equal(len(file.Hooks), len(PluginEvents()))
	root, err := filepath.Abs(repoRoot)
	is.NoErr(err)
	for _, groups := range file.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				is.Equal(h.Type, "command")
				// The exec form: the program alone in command, its
				// arguments in args, no shell.
				is.Equal(h.Command, pluginCommand)
				is.Equal(h.Args, pluginArgs)
				script := strings.ReplaceAll(h.Command, "${CLAUDE_PLUGIN_ROOT}", root)
				info, err := os.Stat(script)
				is.NoErr(err) // the hook's program exists
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
	dir    string // the folder the launcher runs in, when not ""
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
	for _, dir := range []string{filepath.Join(l.root, "scripts"), filepath.Join(l.root, "bin"), l.home, l.fakes, l.tools} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"scripts/launch.sh", "bin/bimri-hook"} {
		src, err := os.ReadFile(filepath.Join(repoRoot, f))
		if err != nil {
			t.Fatal(err)
		}
		l.write(filepath.Join(l.root, f), string(src))
	}
	l.write(filepath.Join(l.root, "VERSION"), launcherVersion+"\n")
	// A development checkout, which the launcher may build with Go.
	l.write(filepath.Join(l.root, "go.mod"), "module github.com/bimri/bimri-hook\n")
	// The tools the build path runs; the cached path needs none.
	for _, tool := range []string{"cat", "chmod", "mkdir", "mv", "rm", "sleep"} {
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

// fakeGo puts on PATH a go that logs its arguments, waits until the file
// release exists (so a test holds the build running as long as it
// needs), and writes, as the built binary, a script that prints its
// arguments and BIMRI_HOOK_BIN and copies stdin.
func (l *launcher) fakeGo(fail bool) {
	failure := ""
	if fail {
		failure = "echo 'cmd/bimri-hook/main.go:1: syntax error' >&2; exit 1"
	}
	script := `#!/bin/sh
echo "$PWD|$*" >>"` + l.goLog + `"
while [ ! -e "` + l.release() + `" ]; do sleep 0.05; done
` + failure + `
# -o DIR/ and the packages: one program in DIR for each, named as the
# package's folder.
while [ $# -gt 0 ]; do
	case $1 in
	-o) out=$2 ;;
	./cmd/*)
		mkdir -p "$out"
		printf '#!/bin/sh\necho "built %s: $* bin=$BIMRI_HOOK_BIN"\ncat\n' "${1#./cmd/}" >"$out/${1#./cmd/}"
		chmod +x "$out/${1#./cmd/}"
		;;
	esac
	shift
done
`
	l.write(filepath.Join(l.fakes, "go"), script)
}

func (l *launcher) release() string { return filepath.Join(filepath.Dir(l.goLog), "release") }

// finishBuild lets the fake go finish, and waits for the launcher's
// builder to let go of its lock.
func (l *launcher) finishBuild() {
	l.t.Helper()
	l.write(l.release(), "")
	lock := filepath.Join(l.data, "bin", ".build-"+launcherVersion+".lock")
	for i := 0; ; i++ {
		if _, err := os.Stat(lock); os.IsNotExist(err) {
			return
		}
		if i == 1200 {
			l.t.Fatal("the build never finished")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// fakeOnPath puts a bimri-hook of version on PATH.
func (l *launcher) fakeOnPath(version string) {
	l.write(filepath.Join(l.fakes, Name), `#!/bin/sh
if [ "$1" = version ]; then echo "bimri-hook `+version+`"; exit 0; fi
echo "from PATH: $*"
cat
`)
}

// goRuns are the fake go's runs, "dir|args" each.
func (l *launcher) goRuns() []string {
	b, err := os.ReadFile(l.goLog)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		l.t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// builds are the builds the launcher started: each begins with the hook
// binary's go build.
func (l *launcher) builds() []string {
	var starts []string
	for _, r := range l.goRuns() {
		if strings.HasSuffix(r, " ./cmd/"+Name) {
			starts = append(starts, r)
		}
	}
	return starts
}

// run runs the launcher as Claude Code does, with the event on stdin;
// unset names environment variables to leave out.
func (l *launcher) run(stdin string, unset ...string) (stdout, stderr string, err error) {
	return l.runIn(l.fakes+string(os.PathListSeparator)+l.tools, l.script, []string{"hook"}, stdin, unset...)
}

func (l *launcher) runIn(path, script string, args []string, stdin string, unset ...string) (stdout, stderr string, err error) {
	return l.runWith(nil, path, script, args, stdin, unset...)
}

// runWith is runIn with extra environment variables.
func (l *launcher) runWith(extra map[string]string, path, script string, args []string, stdin string, unset ...string) (stdout, stderr string, err error) {
	env := map[string]string{
		"PATH":               path,
		"HOME":               l.home,
		"CLAUDE_PLUGIN_ROOT": l.root,
		"CLAUDE_PLUGIN_DATA": l.data,
	}
	for k, v := range extra {
		env[k] = v
	}
	for _, name := range unset {
		delete(env, name)
	}
	cmd := exec.Command(script, args...)
	cmd.Dir = l.dir
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

const startEvent = `{"session_id":"s","hook_event_name":"SessionStart","source":"startup"}`

// systemMessage is the launcher's one line for the user, or "".
func systemMessage(t *testing.T, out string) string {
	t.Helper()
	if out == "" {
		return ""
	}
	var m struct{ SystemMessage string }
	if err := json.Unmarshal([]byte(out), &m); err != nil || strings.Count(out, "\n") != 1 {
		t.Fatalf("not one JSON line: %q", out)
	}
	return m.SystemMessage
}

// The first event starts the build and answers at once; the next event
// after the build runs the binary, and no second build starts.
func TestLauncherBuildsInTheBackground(t *testing.T) {
	is := is.New(t)
	l := newLauncher(t)
	l.fakeGo(false)

	out, errOut, err := l.run(startEvent)
	is.NoErr(err) // answered while the build is held running
	is.Equal(errOut, "")
	msg := systemMessage(t, out)
	is.True(strings.Contains(msg, "building"))
	is.True(strings.Contains(msg, "Memory starts"))
	// Other events meanwhile answer nothing and start no second build.
	out, _, err = l.run(`{"hook_event_name":"Stop"}`)
	is.NoErr(err)
	is.Equal(out, "")
	out, _, err = l.run(startEvent)
	is.NoErr(err)
	is.True(strings.Contains(systemMessage(t, out), "building"))
	l.finishBuild()
	builds := l.goRuns()
	// One build for all three events: the hook binary first, then its
	// companions, the MCP server and the terminal UI.
	is.Equal(len(builds), 2)
	for i, suffix := range []string{" ./cmd/bimri-hook", " ./cmd/bimri-hook-mcp ./cmd/bimri-hook-browse"} {
		dir, args, _ := strings.Cut(builds[i], "|")
		is.Equal(dir, l.root) // built from the plugin's source
		is.True(strings.HasPrefix(args, "build "))
		is.True(strings.HasSuffix(args, suffix))
		is.True(strings.Contains(args, "-X main.version="+launcherVersion))
	}
	entries, err := os.ReadDir(filepath.Dir(l.binary()))
	is.NoErr(err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	// The programs, named so that bimri-hook finds its companions beside
	// it; no temporary file, lock or log left behind.
	is.Equal(names, []string{Name + "-" + launcherVersion, Name + "-browse-" + launcherVersion, Name + "-mcp-" + launcherVersion})

	out, _, err = l.run("second")
	is.NoErr(err)
	// Args and stdin pass through; the agent is given the plugin's
	// bin/bimri-hook by its absolute path.
	is.Equal(out, "built bimri-hook: hook bin="+filepath.Join(l.root, "bin", Name)+"\nsecond")
	is.Equal(len(l.goRuns()), 2)
}

// The cached binary runs with nothing on PATH: the path every event takes
// once built starts no other program.
func TestLauncherCachedPathRunsNoTools(t *testing.T) {
	is := is.New(t)
	l := newLauncher(t)
	is.NoErr(os.MkdirAll(filepath.Dir(l.binary()), 0o755))
	l.write(l.binary(), "#!/bin/sh\necho \"cached: $*\"\n")
	// /bin/sh itself is found by its path; PATH holds nothing.
	out, errOut, err := l.runIn(t.TempDir(), l.script, []string{"hook"}, "")
	is.NoErr(err)
	is.Equal(errOut, "")
	is.Equal(out, "cached: hook\n")
}

func TestLauncherConcurrentFirstRuns(t *testing.T) {
	l := newLauncher(t)
	l.fakeGo(false)
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, errOut, err := l.run(startEvent)
			if err != nil || errOut != "" || !strings.Contains(systemMessage(t, out), "building") {
				t.Errorf("run %d: %q %q %v", i, out, errOut, err)
			}
		}()
	}
	wg.Wait()
	l.finishBuild()
	if n := len(l.builds()); n != 1 {
		t.Errorf("%d builds, want 1", n)
	}
}

// A builder that died leaves its lock; the next event takes it over.
func TestLauncherStaleLock(t *testing.T) {
	is := is.New(t)
	l := newLauncher(t)
	l.fakeGo(false)
	lock := filepath.Join(l.data, "bin", ".build-"+launcherVersion+".lock")
	is.NoErr(os.MkdirAll(lock, 0o755))
	dead := exec.Command("true")
	is.NoErr(dead.Run())
	l.write(filepath.Join(lock, "pid"), fmt.Sprintln(dead.Process.Pid))
	_, _, err := l.run(startEvent)
	is.NoErr(err)
	l.finishBuild()
	is.Equal(len(l.builds()), 1)
	_, err = os.Stat(l.binary())
	is.NoErr(err)
}

func TestLauncherDefaultDataDir(t *testing.T) {
	is := is.New(t)
	l := newLauncher(t)
	l.fakeGo(false)
	_, _, err := l.run("", "CLAUDE_PLUGIN_DATA")
	is.NoErr(err)
	data := l.data
	l.data = filepath.Join(l.home, ".cache", Name) // $HOME/.cache/bimri-hook without XDG_CACHE_HOME
	l.finishBuild()
	_, err = os.Stat(l.binary())
	is.NoErr(err)
	l.data = data
}

// Run by hand, the script finds the plugin from its own path.
func TestLauncherDefaultRoot(t *testing.T) {
	is := is.New(t)
	l := newLauncher(t)
	l.fakeGo(false)
	_, _, err := l.run("", "CLAUDE_PLUGIN_ROOT")
	is.NoErr(err)
	l.finishBuild()
	dir, _, _ := strings.Cut(l.builds()[0], "|")
	is.Equal(filepath.Clean(dir), l.root)
	_, err = os.Stat(l.binary())
	is.NoErr(err)
}

// The agent's Bash runs bin/bimri-hook without CLAUDE_PLUGIN_ROOT or
// CLAUDE_PLUGIN_DATA (only hooks get them): it finds the build in the data
// folder the client gave the plugin.
func TestLauncherFromAgentBash(t *testing.T) {
	is := is.New(t)
	l := newLauncher(t)
	l.data = filepath.Join(l.home, ".claude", "plugins", "data", Name+"-inline")
	is.NoErr(os.MkdirAll(filepath.Dir(l.binary()), 0o755))
	l.write(l.binary(), "#!/bin/sh\necho \"cached: $*\"\n")
	out, errOut, err := l.runIn(l.tools, filepath.Join(l.root, "bin", Name), []string{"remember", "--", "x"}, "",
		"CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA")
	is.NoErr(err)
	is.Equal(errOut, "")
	is.Equal(out, "cached: remember -- x\n")
}

// bimri-hook on PATH of the plugin's version is used, and nothing built.
func TestLauncherPrefersPathOfSameVersion(t *testing.T) {
	is := is.New(t)
	l := newLauncher(t)
	l.fakeGo(false)
	l.fakeOnPath(launcherVersion)
	out, errOut, err := l.run("event")
	is.NoErr(err)
	is.Equal(errOut, "")
	is.Equal(out, "from PATH: hook\nevent")
	is.Equal(len(l.builds()), 0)
}

// Another version on PATH answers while this version builds.
func TestLauncherOtherVersionOnPathMeanwhile(t *testing.T) {
	is := is.New(t)
	l := newLauncher(t)
	l.fakeGo(false)
	l.fakeOnPath("0.0.1")
	out, _, err := l.run("event")
	is.NoErr(err)
	is.Equal(out, "from PATH: hook\nevent")
	l.finishBuild()
	is.Equal(len(l.builds()), 1)
	out, _, err = l.run("event")
	is.NoErr(err)
	is.Equal(out, "built bimri-hook: hook bin="+filepath.Join(l.root, "bin", Name)+"\nevent") // the build, once done
}

// A relative entry on PATH (. or an empty one) never finds the
// bimri-hook the launcher falls back to: the workspace the client runs in
// may hold one (issue 34, item 7).
func TestLauncherNeverRunsARelativePathEntry(t *testing.T) {
	is := is.New(t)
	l := newLauncher(t)
	l.dir = t.TempDir()
	l.write(filepath.Join(l.dir, Name), `#!/bin/sh
if [ "$1" = version ]; then echo "bimri-hook `+launcherVersion+`"; exit 0; fi
echo "the workspace's own: $*"
`)
	for _, path := range []string{"." + string(os.PathListSeparator) + l.tools, string(os.PathListSeparator) + l.tools, l.tools + string(os.PathListSeparator)} {
		out, errOut, err := l.runIn(path, l.script, []string{"hook"}, startEvent)
		is.NoErr(err)
		is.Equal(errOut, "")
		is.True(!strings.Contains(out, "the workspace's own")) // PATH=path ran ./bimri-hook
		_, errOut, err = l.runIn(path, filepath.Join(l.root, "bin", Name), []string{"remember", "--", "x"}, "", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA")
		is.True(err != nil)
		is.True(!strings.Contains(errOut, "the workspace's own"))
	}
}

// The plugin's own bin/bimri-hook on PATH is not taken for an installed
// one: it comes back to the launcher.
func TestLauncherSkipsItsOwnBin(t *testing.T) {
	is := is.New(t)
	l := newLauncher(t)
	path := filepath.Join(l.root, "bin") + string(os.PathListSeparator) + l.tools // no go
	out, errOut, err := l.runIn(path, l.script, []string{"hook"}, startEvent)
	is.NoErr(err)
	is.Equal(errOut, "")
	is.True(strings.Contains(systemMessage(t, out), "Go"))
	// The agent's remember through bin/bimri-hook says why it cannot run.
	_, errOut, err = l.runIn(path, filepath.Join(l.root, "bin", Name), []string{"remember", "--", "x"}, "")
	is.True(err != nil)
	is.Equal(strings.Count(errOut, "\n"), 1)
	is.True(strings.Contains(errOut, "Go"))
}

func TestLauncherBuildFails(t *testing.T) {
	is := is.New(t)
	l := newLauncher(t)
	l.fakeGo(true)
	_, _, err := l.run(startEvent)
	is.NoErr(err)
	l.finishBuild()
	_, err = os.Stat(l.binary())
	is.True(os.IsNotExist(err))
	log := filepath.Join(l.data, "bin", "build-"+launcherVersion+".log")
	b, err := os.ReadFile(log)
	is.NoErr(err)
	is.True(strings.Contains(string(b), "syntax error")) // the log keeps go's error

	out, errOut, err := l.run(startEvent)
	is.NoErr(err) // exit 0: the session goes on
	is.Equal(errOut, "")
	msg := systemMessage(t, out)
	is.True(strings.Contains(msg, "last build failed (see "+log+")"))
	l.finishBuild()
	is.Equal(len(l.builds()), 2) // it tried again
}

func TestLauncherNoGo(t *testing.T) {
	is := is.New(t)
	l := newLauncher(t)
	out, errOut, err := l.run(startEvent)
	is.NoErr(err) // exit 0: the session goes on
	is.Equal(errOut, "")
	msg := systemMessage(t, out)
	is.True(strings.Contains(msg, "memory is off"))
	is.True(strings.Contains(msg, "Install Go"))
	out, _, err = l.run(`{"hook_event_name":"Stop"}`)
	is.NoErr(err)
	is.Equal(out, "") // said once, at SessionStart
}
