package doctor

import (
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/internal/install"
	"github.com/bimri/bimri-hook/wiring"
	"github.com/matryer/is"
)

func TestCheckLockTimeout(t *testing.T) {
	settings := install.Status{Places: install.Places{File: install.SettingsFile{Scope: "project"}}, Wiring: wiring.Wiring{Handlers: []wiring.Handler{
		{Event: "Stop", Timeout: 10}, {Event: "SessionEnd", Timeout: 5}, {Event: "PreCompact"},
	}}}
	plugin := install.Status{Places: install.Places{File: install.SettingsFile{Scope: "user"}}, Wiring: wiring.Wiring{Plugins: []string{"bimri-hook@market"}}}
	tests := []struct {
		name  string
		wait  time.Duration
		wired []install.Status
		warn  []string // pieces of the warning; none means no check reported
	}{
		{name: "the default", wait: 2 * time.Second, wired: []install.Status{settings, plugin}},
		{name: "just fits Stop's 10 s", wait: 8 * time.Second, wired: []install.Status{settings}},
		{name: "too long for Stop", wait: 9 * time.Second, wired: []install.Status{settings},
			warn: []string{"Stop in project settings (timeout 10s)"}},
		{name: "SessionEnd caps its own wait", wait: 4 * time.Second, wired: []install.Status{{Places: install.Places{File: install.SettingsFile{Scope: "project"}}, Wiring: wiring.Wiring{Handlers: []wiring.Handler{{Event: "SessionEnd", Timeout: 5}}}}}},
		{name: "no timeout is Claude Code's 60 s", wait: 59 * time.Second, wired: []install.Status{settings},
			warn: []string{"Stop in project settings", "PreCompact in project settings (timeout 1m0s)"}},
		{name: "the plugin's timeouts", wait: 30 * time.Second, wired: []install.Status{plugin},
			warn: []string{"Stop in the plugin (timeout 10s)", "SessionStart in the plugin"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			var out strings.Builder
			d := &doctor{w: &out}
			d.checkLockTimeout(tc.wait, tc.wired)
			if tc.warn == nil {
				is.Equal(out.String(), "")
				return
			}
			is.Equal(strings.Count(out.String(), "\n"), 1)
			is.True(strings.HasPrefix(out.String(), "WARN lock_timeout: "))
			for _, w := range tc.warn {
				if !strings.Contains(out.String(), w) {
					t.Errorf("%q does not say %q", out.String(), w)
				}
			}
		})
	}
}
