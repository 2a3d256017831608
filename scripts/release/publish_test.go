package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bimri/bimri-hook/internal/slowtest"
)

// TestPublishPlugin runs scripts/publish-plugin.sh, the release
// workflow's step that puts dist/plugin on the release branch, as the
// workflow does (in a shallow checkout of main whose origin is the
// remote), against a local remote: the first release makes the branch,
// holding the plugin folder alone; the next is one commit on top of it,
// files gone and changed included; the same folder again adds nothing.
// Each time a clone as Claude Code makes it (--depth 1, branch release)
// holds exactly the folder, modes included.
func TestPublishPlugin(t *testing.T) {
	slowtest.Gate(t) // builds the plugin and publishes it into git repositories
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("publish-plugin.sh needs git: %v", err)
	}
	script, err := filepath.Abs("../publish-plugin.sh")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	env := append(os.Environ(), "HOME="+tmp, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+filepath.Join(tmp, "gitconfig"),
		"GIT_AUTHOR_NAME=release", "GIT_AUTHOR_EMAIL=release@example.invalid",
		"GIT_COMMITTER_NAME=release", "GIT_COMMITTER_EMAIL=release@example.invalid")
	git := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	remote := filepath.Join(tmp, "remote.git")
	git(tmp, "init", "-q", "--bare", "-b", "main", remote)
	src := filepath.Join(tmp, "src")
	writeTree(t, src, map[string]string{"go.mod": "module x\n", "main.go": "package main\n"})
	git(src, "init", "-q", "-b", "main")
	git(src, "add", ".")
	git(src, "commit", "-q", "-m", "main")
	git(src, "push", "-q", remote, "main")

	// publish runs the script in a new shallow checkout of main, as a
	// workflow run has.
	publish := func(plugin string) (string, error) {
		t.Helper()
		checkout, err := os.MkdirTemp(tmp, "checkout-")
		if err != nil {
			t.Fatal(err)
		}
		git(tmp, "clone", "-q", "--depth", "1", "file://"+remote, checkout)
		cmd := exec.Command("sh", script, plugin, "release v0")
		cmd.Dir, cmd.Env = checkout, env
		out, err := cmd.CombinedOutput()
		t.Logf("publish-plugin.sh %s:\n%s", filepath.Base(plugin), out)
		return string(out), err
	}
	// released is what Claude Code gets: a clone of the branch.
	released := func() string {
		t.Helper()
		dir, err := os.MkdirTemp(tmp, "installed-")
		if err != nil {
			t.Fatal(err)
		}
		git(tmp, "clone", "-q", "--depth", "1", "--branch", "release", "file://"+remote, dir)
		return dir
	}

	first := filepath.Join(tmp, "plugin-1")
	writeTree(t, first, map[string]string{
		".claude-plugin/plugin.json":   `{"name":"bimri-hook"}`,
		"bin/bimri-hook":               "#!/bin/sh\n",
		"libexec/bimri-hook-linux-x":   "old binary",
		"libexec/bimri-hook-darwin-x":  "binary",
		"skills/bimri-memory/SKILL.md": "skill",
	})
	out, err := publish(first)
	if err != nil || !strings.Contains(out, "published") {
		t.Fatalf("first release: %v", err)
	}
	sameTree(t, released(), first)
	if n := git(remote, "rev-list", "--count", "release"); n != "1" {
		t.Errorf("the first release makes a branch of %s commits, want 1", n)
	}

	second := filepath.Join(tmp, "plugin-2")
	writeTree(t, second, map[string]string{
		".claude-plugin/plugin.json":  `{"name":"bimri-hook","version":"2"}`,
		"bin/bimri-hook":              "#!/bin/sh\n",
		"libexec/bimri-hook-darwin-x": "binary",
		"libexec/bimri-hook-linux-y":  "new binary",
	})
	if _, err := publish(second); err != nil {
		t.Fatalf("second release: %v", err)
	}
	sameTree(t, released(), second)
	if n := git(remote, "rev-list", "--count", "release"); n != "2" {
		t.Errorf("after the second release the branch has %s commits, want 2: history kept, nothing forced", n)
	}

	out, err = publish(second)
	if err != nil || !strings.Contains(out, "nothing to publish") {
		t.Errorf("the same folder again: %v, want nothing to publish", err)
	}
	if n := git(remote, "rev-list", "--count", "release"); n != "2" {
		t.Errorf("the same folder again made a commit: %s commits", n)
	}

	if _, err := publish(src); err == nil {
		t.Errorf("a folder that is no plugin was published")
	}
}

// writeTree writes files under dir; bin/ and libexec/ files executable.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		mode := os.FileMode(0o644)
		if strings.HasPrefix(name, "bin/") || strings.HasPrefix(name, "libexec/") {
			mode = 0o755
		}
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
	}
}

// sameTree: got (a clone, .git aside) holds exactly want's files, with
// their bytes and executable bits.
func sameTree(t *testing.T, got, want string) {
	t.Helper()
	read := func(root string) map[string]string {
		files := map[string]string{}
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == ".git" {
					return filepath.SkipDir
				}
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			files[filepath.ToSlash(rel)] = info.Mode().Perm().String()[3:4] + string(b)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return files
	}
	g, w := read(got), read(want)
	for name, body := range w {
		if g[name] != body {
			t.Errorf("the release branch's %s is %q, want %q (first character: the owner's x bit)", name, g[name], body)
		}
	}
	for name := range g {
		if _, ok := w[name]; !ok {
			t.Errorf("the release branch holds %s, which the plugin folder has not", name)
		}
	}
}
