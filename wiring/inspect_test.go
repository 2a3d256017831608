package wiring

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/matryer/is"
)

func TestInspect(t *testing.T) {
	is := is.New(t)
	c := Command{Binary: "/opt/my tools/bimri-hook"}
	in, err := os.ReadFile(filepath.Join("testdata", "settings", "others-hooks.json"))
	is.NoErr(err)

	w, err := Claude.Inspect(in)
	is.NoErr(err)
	is.Equal(len(w.Handlers), 0) // others' hooks are not ours
	is.Equal(len(w.Rules), 0)
	_, missing := w.Events(Events())
	is.Equal(missing, []string{"SessionStart", "UserPromptSubmit", "Stop", "PreCompact", "SessionEnd", "SubagentStart"})

	installed, _, err := install(in, c)
	is.NoErr(err)
	w, err = Claude.Inspect(installed)
	is.NoErr(err)
	is.Equal(len(w.Handlers), len(Events()))
	for _, h := range w.Handlers {
		is.Equal(h.Command, c.Hook())
		is.True(h.Timeout > 0)
	}
	wired, missing := w.Events(Events())
	is.Equal(len(missing), 0)
	is.Equal(w.Rules, c.Rules())
	is.True(slices.Contains(wired, "SessionEnd"))

	// Events come in session order, whatever the order in the file.
	w = Wiring{Handlers: []Handler{{Event: "Notification"}, {Event: "Stop"}, {Event: "SessionStart"}, {Event: "Stop"}}}
	wired, _ = w.Events(Events())
	is.Equal(wired, []string{"SessionStart", "Stop", "Notification"})

	nothing, err := Claude.Inspect(nil)
	is.NoErr(err)
	is.Equal(len(nothing.Handlers)+len(nothing.Rules)+len(nothing.Plugins), 0)

	_, err = Claude.Inspect([]byte(`{"hooks": []}`))
	is.True(err != nil) // what Install refuses, Inspect refuses too
}

func TestInspectPlugins(t *testing.T) {
	is := is.New(t)
	w, err := Claude.Inspect([]byte(`{"enabledPlugins": {"bimri-hook@bimri": true, "bimri-hook@old": false, "other@x": true, "bimri-hooks@y": true}}`))
	is.NoErr(err)
	is.Equal(w.Plugins, []string{"bimri-hook@bimri"})
}

func TestHookBinary(t *testing.T) {
	// Whatever Hook quotes, HookBinary reads back.
	for _, binary := range []string{
		"/usr/local/bin/bimri-hook",
		"bimri-hook",
		"/home/me/my tools/bimri-hook",
		`C:\Program Files\bimri\bimri-hook.exe`,
		`C:\odd\`,
		"/a/$HOME/`x`/\"q\"/bimri-hook",
	} {
		got, ok := HookBinary(Command{Binary: binary}.Hook())
		if !ok || got != binary {
			t.Errorf("HookBinary(Hook(%q)) = %q, %v", binary, got, ok)
		}
	}
	cases := []struct {
		command, binary string
		ok              bool
	}{
		{command: "bimri-hook hook", binary: "bimri-hook", ok: true},
		{command: "/usr/bin/bimri-hook hook ", binary: "/usr/bin/bimri-hook", ok: true},
		{command: `'/my tools/bimri-hook' hook`, binary: "/my tools/bimri-hook", ok: true},
		{command: `'/it'\''s/bimri-hook' hook`, binary: "/it's/bimri-hook", ok: true},
		{command: `"$HOME/bin/bimri-hook" hook`},
		{command: `env X=1 bimri-hook hook`},
		{command: `~/bin/bimri-hook hook`},
		{command: `"a"b"/bimri-hook" hook`},
		{command: `bimri-hook remember`},
	}
	for _, tc := range cases {
		got, ok := HookBinary(tc.command)
		if got != tc.binary || ok != tc.ok {
			t.Errorf("HookBinary(%q) = %q, %v; want %q, %v", tc.command, got, ok, tc.binary, tc.ok)
		}
	}
}
