//go:build linux || darwin

package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestTryItMatchesCI: the README's "Try it" sits near the top, names
// every program .ci/run makes sure of (CI installs exactly what a
// newcomer is told to), and the npm packages make test fetches at the
// versions these tests pin. Quick: it only reads files.
func TestTryItMatchesCI(t *testing.T) {
	root := repoRoot(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	ci, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(readme), "\n")
	start := -1
	for i, l := range lines {
		if l == "## Try it" {
			start = i
			break
		}
	}
	if start < 0 || start > 40 {
		t.Fatalf("README's \"## Try it\" is at line %d, want it within the first 40", start+1)
	}
	end := start + 1
	for end < len(lines) && !strings.HasPrefix(lines[end], "## ") {
		end++
	}
	tryIt := strings.Join(lines[start:end], "\n")
	for _, cmd := range []string{"make demo", "make test"} {
		if !strings.Contains(tryIt, cmd) {
			t.Errorf("Try it does not give %q", cmd)
		}
	}
	names := map[string]string{"go": "Go 1.26", "make": "make", "git": "git", "tmux": "tmux", "node": "Node.js 22", "npm": "npm"}
	needed := regexp.MustCompile(`(?m)\bneed ([a-z]+)\b`).FindAllStringSubmatch(string(ci), -1)
	if len(needed) == 0 {
		t.Fatal(".ci/run checks no program")
	}
	seen := map[string]bool{}
	for _, m := range needed {
		seen[m[1]] = true
		word, ok := names[m[1]]
		if !ok {
			t.Errorf(".ci/run needs %s, which this test does not know how Try it names", m[1])
			continue
		}
		if !strings.Contains(tryIt, word) {
			t.Errorf(".ci/run installs or requires %s, which Try it does not list (as %q)", m[1], word)
		}
	}
	for prog := range names {
		if !seen[prog] {
			t.Errorf("Try it lists %s, which .ci/run does not make sure of", prog)
		}
	}
	for _, p := range []npmPackage{claudeCode, mcpInspector, mcpbCLI} {
		if !strings.Contains(tryIt, p.Version) {
			t.Errorf("Try it does not say make test fetches %s %s", p.Name, p.Version)
		}
	}
}
