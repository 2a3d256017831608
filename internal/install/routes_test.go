package install

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/bimri/bimri-hook/internal/workspace"
	"github.com/bimri/bimri-hook/wiring"
	"github.com/matryer/is"
	"github.com/tidwall/gjson"
)

// For every route that writes settings, the command the hook gives the
// agent (workspace.Binary, as the shell starts the hook command written)
// is the one the written rule allows.
func TestRoutesCommandMatchesRule(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, wiring.Name)
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("BIMRI_HOOK_BIN", exe) // install's own binary: this exe
	example, err := os.ReadFile(filepath.Join("..", "..", "examples", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	routes := []struct {
		name   string
		onPath bool   // exe is PATH's bimri-hook
		scope  string // "" for examples/settings.json copied by hand
		bare   bool   // the route names the bare bimri-hook
	}{
		{name: "install project, on PATH", onPath: true, scope: ScopeProject, bare: true},
		{name: "install project, not on PATH", scope: ScopeProject},
		{name: "install local", onPath: true, scope: scopeLocal},
		{name: "install user", onPath: true, scope: ScopeUser},
		{name: "examples/settings.json", onPath: true, bare: true},
	}
	for _, r := range routes {
		t.Run(r.name, func(t *testing.T) {
			is := is.New(t)
			t.Setenv("PATH", t.TempDir())
			if r.onPath {
				t.Setenv("PATH", dir)
			}
			settings := example
			if r.scope != "" {
				binary, err := BinaryFor(r.scope, "")
				is.NoErr(err)
				settings, _, _, err = wiring.Claude.Install(nil, wiring.Command{Binary: binary}, wiring.Receipt{})
				is.NoErr(err)
			}
			hook := gjson.GetBytes(settings, "hooks.Stop.0.hooks.0.command").String()
			argv0, ok := wiring.HookBinary(hook)
			is.True(ok)
			is.Equal(argv0 == wiring.Name, r.bare)
			// What the hook started by that command tells the agent.
			given := exe
			if workspace.StartedFromPath(argv0, exe) {
				given = wiring.Name
			}
			var rules []string
			for _, v := range gjson.GetBytes(settings, "permissions.allow").Array() {
				rules = append(rules, v.String())
			}
			for _, rule := range (wiring.Command{Binary: given}).Rules() {
				is.True(slices.Contains(rules, rule)) // the rules allow the commands given
			}
		})
	}
}
