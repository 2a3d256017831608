package wiring

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/matryer/is"
)

var update = flag.Bool("update", false, "rewrite golden files and the generated example and plugin files")

// golden compares got with the file at path, or rewrites it under -update.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./wiring -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run go test ./wiring -update to accept):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// jsonText is s as it appears inside a JSON string.
func jsonText(s string) string {
	return strings.Trim(jsonString(s), `"`)
}

func TestInstallUninstall(t *testing.T) {
	const usual = "/usr/local/bin/bimri-hook"
	cases := []struct {
		name   string // golden files: testdata/golden/<name>.*.json
		input  string // in testdata/settings
		binary string
		// clean: the input has nothing of bimri-hook's and no empty list
		// that Install fills, so uninstalling gives it back byte for byte.
		clean bool
	}{
		{name: "empty", input: "empty.json", binary: usual},
		{name: "empty-object", input: "empty-object.json", binary: usual, clean: true},
		{name: "two-spaces", input: "two-spaces.json", binary: usual, clean: true},
		{name: "tabs", input: "tabs.json", binary: usual, clean: true},
		{name: "others-hooks", input: "others-hooks.json", binary: usual, clean: true},
		{name: "compact", input: "compact.json", binary: usual, clean: true},
		{name: "crlf", input: "crlf.json", binary: usual, clean: true},
		{name: "one-line-lists", input: "one-line-lists.json", binary: usual},
		{name: "already-installed", input: "already-installed.json", binary: usual},
		{name: "windows", input: "two-spaces.json", binary: `C:\Program Files\bimri\bimri-hook.exe`, clean: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			in, err := os.ReadFile(filepath.Join("testdata", "settings", tc.input))
			is.NoErr(err)
			c := Command{Binary: tc.binary}

			installed, changed, err := install(in, c)
			is.NoErr(err)
			is.True(changed)
			is.True(json.Valid(installed))
			golden(t, filepath.Join("testdata", "golden", tc.name+".install.json"), installed)
			is.Equal(strings.Count(string(installed), jsonText(c.Hook())), len(Events())) // one handler per event
			for _, rule := range c.Rules() {
				is.Equal(strings.Count(string(installed), jsonText(rule)), 1) // one rule per command the hooks teach
			}

			again, changed, err := install(installed, c)
			is.NoErr(err)
			is.True(!changed) // installing twice changes nothing
			is.Equal(string(again), string(installed))

			// A new path replaces the old one where it stands.
			moved := Command{Binary: "/home/me/new place/bimri-hook"}
			reinstalled, changed, err := install(installed, moved)
			is.NoErr(err)
			is.True(changed)
			want := strings.ReplaceAll(string(installed), jsonText(c.Hook()), jsonText(moved.Hook()))
			for i, rule := range c.Rules() {
				want = strings.ReplaceAll(want, jsonText(rule), jsonText(moved.Rules()[i]))
			}
			is.Equal(string(reinstalled), want)

			uninstalled, _, changed, err := Claude.Uninstall(installed, nil)
			is.NoErr(err)
			is.True(changed)
			if tc.clean {
				is.Equal(string(uninstalled), string(in)) // uninstall gives back the original bytes
			} else {
				golden(t, filepath.Join("testdata", "golden", tc.name+".uninstall.json"), uninstalled)
			}
			is.True(!strings.Contains(string(uninstalled), Name+`\" hook`))
			for _, sub := range MemoryCommands {
				is.True(!strings.Contains(string(uninstalled), sub+":*)"))
			}

			again, _, changed, err = Claude.Uninstall(uninstalled, nil)
			is.NoErr(err)
			is.True(!changed)
			is.Equal(string(again), string(uninstalled))
		})
	}
}

// Others' hooks that merely look like ours stay.
func TestUninstallKeepsOthers(t *testing.T) {
	is := is.New(t)
	in, err := os.ReadFile(filepath.Join("testdata", "settings", "others-hooks.json"))
	is.NoErr(err)
	out, _, changed, err := Claude.Uninstall(in, nil)
	is.NoErr(err)
	is.True(!changed)
	is.Equal(string(out), string(in))
}

func TestInstallEmptyInputs(t *testing.T) {
	c := Command{Binary: "bimri-hook"}
	want, _, err := install(nil, c)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{"", " ", "\n", "\r\n\t"} {
		is := is.New(t)
		out, changed, err := install([]byte(in), c)
		is.NoErr(err)
		is.True(changed)
		is.Equal(string(out), string(want))
		out, _, changed, err = Claude.Uninstall([]byte(in), nil)
		is.NoErr(err)
		is.True(!changed)
		is.Equal(string(out), in)
	}
}

func TestInvalidSettings(t *testing.T) {
	c := Command{Binary: "/usr/local/bin/bimri-hook"}
	cases := []struct {
		name, in, err string
		uninstallOK   bool // Uninstall has nothing to do there, so no error
	}{
		{name: "truncated", in: `{"model": "opus"`, err: "not valid JSON"},
		{name: "trailing", in: `{"a": 1} {"b": 2}`, err: "not valid JSON"},
		{name: "comment", in: "{\n  // mine\n  \"a\": 1\n}", err: "not valid JSON"},
		{name: "trailing comma", in: `{"a": 1,}`, err: "not valid JSON"},
		{name: "array", in: `[]`, err: "not a JSON object but an array"},
		{name: "string", in: `"settings"`, err: "not a JSON object but a string"},
		{name: "hooks string", in: `{"hooks": "none"}`, err: `"hooks" is a string, not an object`},
		{name: "hooks array", in: `{"hooks": []}`, err: `"hooks" is an array, not an object`},
		{name: "event object", in: `{"hooks": {"Stop": {}}}`, err: `"hooks.Stop" is an object, not an array`, uninstallOK: true},
		{name: "permissions array", in: `{"permissions": []}`, err: `"permissions" is an array, not an object`},
		{name: "allow string", in: `{"permissions": {"allow": "Read"}}`, err: `"permissions.allow" is a string, not an array`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			out, changed, err := install([]byte(tc.in), c)
			is.True(err != nil)
			is.True(strings.Contains(err.Error(), tc.err)) // names the problem
			is.True(out == nil && !changed)

			out, _, changed, err = Claude.Uninstall([]byte(tc.in), nil)
			if tc.uninstallOK {
				is.NoErr(err)
				is.Equal(string(out), tc.in)
				return
			}
			is.True(err != nil)
			is.True(strings.Contains(err.Error(), tc.err))
			is.True(out == nil && !changed)
		})
	}
}

func TestInstallBadBinary(t *testing.T) {
	for _, binary := range []string{"", "/bin/bimri-hook\n--evil"} {
		_, _, err := install(nil, Command{Binary: binary})
		if err == nil {
			t.Errorf("Install with binary %q: no error", binary)
		}
	}
}

func TestHooks(t *testing.T) {
	is := is.New(t)
	var got struct {
		Hooks map[string][]struct {
			Matcher *string `json:"matcher"`
			Hooks   []struct {
				Type    string `json:"type"`
				Command string `json:"command"`
				Timeout int    `json:"timeout"`
			} `json:"hooks"`
		}
	}
	raw, _, err := install(nil, Command{Binary: Name})
	is.NoErr(err)
	is.NoErr(json.Unmarshal(raw, &got))
	is.Equal(len(got.Hooks), 6)
	want := map[string]int{"SessionStart": 10, "UserPromptSubmit": 10, "Stop": 10, "PreCompact": 10, "SessionEnd": 5, "SubagentStart": 10}
	for event, timeout := range want {
		groups := got.Hooks[event]
		is.Equal(len(groups), 1)
		is.True(groups[0].Matcher == nil) // every source, reason and trigger
		is.Equal(len(groups[0].Hooks), 1)
		h := groups[0].Hooks[0]
		is.Equal(h.Type, "command")
		is.Equal(h.Command, `"bimri-hook" hook`)
		is.Equal(h.Timeout, timeout)
	}
	// Events are written in the order a session meets them.
	is.True(strings.Index(string(raw), "SessionStart") < strings.Index(string(raw), "SessionEnd"))
}

// examples/settings.json is what Install writes into an empty file for a
// binary on PATH: regenerate it rather than edit it.
func TestExampleSettings(t *testing.T) {
	out, _, err := install(nil, Command{Binary: Name})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, filepath.Join("..", "examples", "settings.json"), out)
}

// install is Claude.Install into a file no install has a receipt for,
// without the receipt.
func install(settings []byte, c Command) ([]byte, bool, error) {
	out, _, changed, err := Claude.Install(settings, c, Receipt{})
	return out, changed, err
}
