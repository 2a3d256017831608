package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

// jsonPath is a path as it appears inside a JSON string.
func jsonPath(p string) string { return strings.ReplaceAll(p, `\`, `\\`) }

// The trust note is for workspaces Claude Code does not trust yet, and
// never for user scope, whose permission rules need no trust.
func TestInstallTrustNote(t *testing.T) {
	cases := []struct {
		name     string
		scope    string
		trusted  bool
		wantNote bool
	}{
		{name: "project, untrusted", scope: "project", wantNote: true},
		{name: "local, untrusted", scope: "local", wantNote: true},
		{name: "project, trusted", scope: "project", trusted: true},
		{name: "user", scope: "user"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			home, root := t.TempDir(), t.TempDir()
			t.Setenv("HOME", home)
			t.Setenv("USERPROFILE", home)
			t.Setenv("CLAUDE_CONFIG_DIR", "")
			t.Setenv("CLAUDE_PROJECT_DIR", "")
			t.Setenv("BIMRI_HOOK_BIN", "bimri-hook")
			if tc.trusted {
				config := `{"projects": {"` + jsonPath(root) + `": {"hasTrustDialogAccepted": true}}}`
				is.NoErr(os.WriteFile(filepath.Join(home, ".claude.json"), []byte(config), 0o644))
			}
			var stdout, stderr bytes.Buffer
			code := run([]string{"bimri-hook", "install", "--dir", root, "--scope", tc.scope}, strings.NewReader(""), &stdout, &stderr, time.Now())
			is.Equal(code, 0)
			is.Equal(stderr.String(), "")
			is.Equal(strings.Contains(stdout.String(), "note: Claude Code applies a workspace's permission rules only once"), tc.wantNote)
		})
	}
}

// Every error of install, uninstall and doctor is exit code 1 and one
// stderr line with the prefix once, and nothing on stdout.
func TestInstallErrors(t *testing.T) {
	home, root := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	t.Setenv("BIMRI_HOOK_BIN", "bimri-hook")
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(root))
	notJSON := filepath.Join(t.TempDir(), "settings")
	if err := os.MkdirAll(filepath.Join(notJSON, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(notJSON, ".claude", "settings.json"), []byte("[1, 2]"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args   []string
		stderr string
	}{
		{[]string{"install", "--dir", root, "--scope", "team"}, `bimri-hook: --scope "team" is not one of project, local, user` + "\n"},
		{[]string{"uninstall", "--dir", root, "--scope", ""}, `bimri-hook: --scope "" is not one of project, local, user` + "\n"},
		{[]string{"install", "--dir", notJSON}, "bimri-hook: " + filepath.Join(notJSON, ".claude", "settings.json") + ": not a JSON object but an array\n"},
		{[]string{"install", "--dir", root, "--binary", filepath.Join(root, "missing", "bimri-hook")}, ""},
		{[]string{"install", "--dir", root, "--binary", "memo"}, `bimri-hook: binary "memo" does not have "bimri-hook" in its path, so uninstall and doctor could not recognise its hooks; rename it or give --binary` + "\n"},
		{[]string{"install", "--dir", root, "--git"}, "bimri-hook: --git: " + root + " is not in a git repository (run git init first, or leave out --git)\n"},
		{[]string{"doctor", "--dir", root}, "bimri-hook: doctor found 1 problem\n"},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			is := is.New(t)
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"bimri-hook"}, tc.args...), strings.NewReader(""), &stdout, &stderr, time.Now())
			is.Equal(code, 1)
			is.Equal(strings.Count(stderr.String(), "\n"), 1) // one line
			is.True(strings.HasPrefix(stderr.String(), "bimri-hook: "))
			is.True(!strings.HasPrefix(stderr.String(), "bimri-hook: bimri-hook:")) // prefixed once
			if tc.stderr != "" {
				is.Equal(stderr.String(), tc.stderr)
			}
			if tc.args[0] != "doctor" {
				is.Equal(stdout.String(), "") // nothing done, nothing said
			}
		})
	}
	_, err := os.Stat(filepath.Join(root, ".claude"))
	is.New(t).True(os.IsNotExist(err)) // no failed install wrote anything
}
