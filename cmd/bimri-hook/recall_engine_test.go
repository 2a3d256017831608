package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// engineArchive is an archive of entries (ID, date, text): the same
// workspace every recall surface is asked of.
var engineArchive = [][3]string{
	{"aa000001", "2026-11-06", "Moved the reminder jobs to a zanzibar-queue worker pool."},
	{"aa000002", "2026-11-09", "Switched the session cache from memcached to Redis: memcached lost keys on restart."},
	{"aa000003", "2026-11-24", "Fixed the flaky billing export test by freezing the clock."},
	{"aa000004", "2026-11-25", "Reviewed the onboarding copy with design."},
	{"aa000005", "2026-11-26", "Bumped the Postgres driver to the latest minor version."},
	{"aa000006", "2026-10-14", "The deploy broke: the migration locked the appointments table for ten minutes."},
	{"aa000007", "2026-08-03", "Deploy pipeline now runs database migrations before the web pods roll."},
}

// TestOneRecallEngine: the UserPromptSubmit hook, the MCP recall tool and
// search give the same answer to the same prompt, times included.
func TestOneRecallEngine(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for _, e := range engineArchive {
		fmt.Fprintf(&b, "\n[IMPORTANCE:3] [TIMESTAMP:%s] [TAGS:work] [WEIGHT:0.8] [ID:%s] [TIER:2] [ARCHIVED:2026-11-27] [REASON:weight 0.8 below threshold 1.5]\n%s\n", e[1], e[0], e[2])
	}
	if err := os.WriteFile(filepath.Join(dir, "bimri-archive.md"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) // a Monday
	mcp := mcpClient(t, dir, []string{"BIMRI_TODAY=2026-11-30"}, nil, "--dir", dir)
	idRE := regexp.MustCompile(`\(id ([0-9a-f]{8})[;)]`)
	for i, c := range []struct {
		prompt string
		want   []string // what recall must give first
	}{
		{"Where do the zanzibar-queue reminder jobs run now?", []string{"aa000001"}},
		{"Why did we switch the cache recently?", []string{"aa000002"}},
		{"What broke the deploy in October?", []string{"aa000006"}},
		{"What did we do last week?", []string{"aa000005", "aa000004", "aa000003"}},
	} {
		in, _ := json.Marshal(map[string]string{"hook_event_name": "UserPromptSubmit", "session_id": fmt.Sprint("s", i), "cwd": dir, "prompt": c.prompt})
		var out, errOut bytes.Buffer
		if code := run([]string{"bimri-hook", "hook"}, bytes.NewReader(in), &out, &errOut, now); code != 0 {
			t.Fatalf("hook: exit %d: %s", code, errOut.String())
		}
		var hook []string
		for _, m := range idRE.FindAllStringSubmatch(out.String(), -1) {
			hook = append(hook, m[1])
		}
		out.Reset()
		if code := run([]string{"bimri-hook", "--dir", dir, "search", "--json", "--limit", "5", c.prompt}, nil, &out, &errOut, now); code != 0 {
			t.Fatalf("search %q: exit %d: %s", c.prompt, code, errOut.String())
		}
		var found []struct{ ID string }
		if err := json.Unmarshal(out.Bytes(), &found); err != nil {
			t.Fatal(err)
		}
		var search []string
		for _, f := range found {
			search = append(search, f.ID)
		}
		_, structured := mustCall(t, mcp, "recall", map[string]any{"query": c.prompt, "limit": 5})
		var tool []string
		items, _ := structured["items"].([]any)
		for _, it := range items {
			tool = append(tool, it.(map[string]any)["id"].(string))
		}
		if !slices.Equal(hook[:min(len(hook), len(c.want))], c.want) {
			t.Errorf("%q: the hook recalls %v, want %v first", c.prompt, hook, c.want)
		}
		if !slices.Equal(hook, search) || !slices.Equal(hook, tool) {
			t.Errorf("%q: hook %v, search %v, MCP recall %v: want one answer", c.prompt, hook, search, tool)
		}
	}
}
