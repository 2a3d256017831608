package wiring

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// bundle puts in the plugin a stand-in for the binary of platform (a
// script that says which it is), at the path make plugin writes it to.
func (l *launcher) bundle(platform string) {
	l.t.Helper()
	path := filepath.Join(l.root, "libexec", Name+"-"+platform)
	if strings.HasPrefix(platform, "windows-") {
		path += ".exe"
	}
	if platform == "windows-amd64" {
		path = filepath.Join(l.root, "bin", Name+".exe")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		l.t.Fatal(err)
	}
	// Builtins only: the dispatcher's PATH may hold nothing.
	l.write(path, "#!/bin/sh\nread -r in\necho \""+platform+": $* bin=$BIMRI_HOOK_BIN in=$in\"\n")
}

// The plugin as released: the dispatcher execs the binary bundled for
// this machine with nothing on PATH, so it starts no other program, and
// builds nothing though Go is there.
func TestDispatcherRunsTheBundledBinary(t *testing.T) {
	is := is.New(t)
	if runtime.GOOS != "linux" {
		t.Skip("reads the platform from /proc")
	}
	l := newLauncher(t)
	l.fakeGo(false)
	platform := "linux-" + runtime.GOARCH
	l.bundle(platform)
	l.bundle("linux-arm64x") // a name no platform has, which must not be taken
	dispatcher := filepath.Join(l.root, "bin", Name)
	out, errOut, err := l.runIn(t.TempDir(), dispatcher, []string{"hook"}, "event")
	is.NoErr(err)
	is.Equal(errOut, "")
	is.Equal(out, platform+": hook bin="+dispatcher+" in=event\n") // a hook: the agent is told this script's absolute path
	is.Equal(len(l.builds()), 0)
	// The agent's Bash: no CLAUDE_PLUGIN_ROOT, the same binary.
	out, _, err = l.runIn(t.TempDir(), dispatcher, []string{"remember", "--", "x"}, "", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA")
	is.NoErr(err)
	is.Equal(out, platform+": remember -- x bin= in=\n")
}

// On Windows the system says the platform in the environment: the
// dispatcher (run by Git Bash) picks the .exe of the processor's
// architecture, the amd64 one being bin/bimri-hook.exe, which Windows
// runs itself for the hooks' exec form.
func TestDispatcherPicksTheWindowsExe(t *testing.T) {
	is := is.New(t)
	l := newLauncher(t)
	l.bundle("windows-amd64")
	l.bundle("windows-arm64")
	dispatcher := filepath.Join(l.root, "bin", Name)
	for arch, want := range map[string]string{"AMD64": "windows-amd64", "ARM64": "windows-arm64"} {
		out, errOut, err := l.runWith(map[string]string{"OS": "Windows_NT", "PROCESSOR_ARCHITECTURE": arch}, t.TempDir(), dispatcher, []string{"hook"}, "")
		is.NoErr(err)
		is.Equal(errOut, "")
		is.Equal(out, want+": hook bin="+dispatcher+" in=\n")
	}
	// A 32-bit process on 64-bit Windows sees its own architecture in
	// PROCESSOR_ARCHITECTURE and the machine's in PROCESSOR_ARCHITEW6432.
	out, _, err := l.runWith(map[string]string{"OS": "Windows_NT", "PROCESSOR_ARCHITECTURE": "x86", "PROCESSOR_ARCHITEW6432": "ARM64"}, t.TempDir(), dispatcher, []string{"hook"}, "")
	is.NoErr(err)
	is.Equal(out, "windows-arm64: hook bin="+dispatcher+" in=\n")
}

// With nothing bundled and no go.mod (not a development checkout), the
// plugin neither builds nor fails the session: SessionStart says in one
// line what is missing and how to fix it.
func TestDispatcherNoBinaryForThisPlatform(t *testing.T) {
	is := is.New(t)
	l := newLauncher(t)
	l.fakeGo(false)
	is.NoErr(os.Remove(filepath.Join(l.root, "go.mod")))
	dispatcher := filepath.Join(l.root, "bin", Name)
	out, errOut, err := l.runIn(l.fakes+string(os.PathListSeparator)+l.tools, dispatcher, []string{"hook"}, startEvent)
	is.NoErr(err) // exit 0: the session goes on
	is.Equal(errOut, "")
	msg := systemMessage(t, out)
	is.True(strings.Contains(msg, "memory is off"))
	is.True(strings.Contains(msg, "no binary for "+runtime.GOOS+"-"+runtime.GOARCH))
	is.True(strings.Contains(msg, "on PATH"))
	is.Equal(len(l.builds()), 0) // Go is there, but this is no checkout to build
	out, _, err = l.runIn(l.fakes+string(os.PathListSeparator)+l.tools, dispatcher, []string{"hook"}, `{"hook_event_name":"Stop"}`)
	is.NoErr(err)
	is.Equal(out, "") // said once, at SessionStart
}
