package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/matryer/is"
)

func TestWorkspaceTrusted(t *testing.T) {
	root := t.TempDir()
	other := t.TempDir()
	cases := []struct {
		name    string
		config  string // ~/.claude.json; "" for none
		trusted bool
	}{
		{name: "no file"},
		{name: "trusted", config: `{"projects": {"ROOT": {"hasTrustDialogAccepted": true}}}`, trusted: true},
		{name: "declined", config: `{"projects": {"ROOT": {"hasTrustDialogAccepted": false}}}`},
		{name: "not asked yet", config: `{"projects": {"ROOT": {"allowedTools": []}}}`},
		{name: "another folder", config: `{"projects": {"OTHER": {"hasTrustDialogAccepted": true}}}`},
		{name: "a string is not true", config: `{"projects": {"ROOT": {"hasTrustDialogAccepted": "true"}}}`},
		{name: "not JSON", config: `{"projects": {"ROOT": {"hasTrustDialogAccepted": true}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			home := t.TempDir()
			t.Setenv("HOME", home)
			t.Setenv("USERPROFILE", home)
			t.Setenv("CLAUDE_CONFIG_DIR", "")
			if tc.config != "" {
				config := strings.NewReplacer("ROOT", jsonPath(root), "OTHER", jsonPath(other)).Replace(tc.config)
				is.NoErr(os.WriteFile(filepath.Join(home, ".claude.json"), []byte(config), 0o644))
			}
			is.Equal(WorkspaceTrusted(root), tc.trusted)
		})
	}
}

// Claude Code keeps .claude.json in CLAUDE_CONFIG_DIR when that is set.
func TestWorkspaceTrustedConfigDir(t *testing.T) {
	is := is.New(t)
	root, dir := t.TempDir(), t.TempDir()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", dir)
	is.True(!WorkspaceTrusted(root))
	config := `{"projects": {"` + jsonPath(root) + `": {"hasTrustDialogAccepted": true}}}`
	is.NoErr(os.WriteFile(filepath.Join(dir, ".claude.json"), []byte(config), 0o644))
	is.True(WorkspaceTrusted(root))
}

// jsonPath is a path as it appears inside a JSON string.
func jsonPath(p string) string { return strings.ReplaceAll(p, `\`, `\\`) }
