//go:build bench && unix

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestResetRewritesOnlyWhatARunChanged: a reset gives back every saved
// file as saved and removes what a run added, but leaves in place (same
// inode) a file no run touched.
func TestResetRewritesOnlyWhatARunChanged(t *testing.T) {
	saved := time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)
	w := &workspace{root: t.TempDir(),
		files:  map[string][]byte{"bimri.md": []byte("memory"), "archive.md": []byte("archive"), ".claude/bimri/recalls.json": []byte("{}")},
		mtimes: map[string]time.Time{"archive.md": saved}}
	if err := w.reset(); err != nil {
		t.Fatal(err)
	}
	path := func(rel string) string { return filepath.Join(w.root, filepath.FromSlash(rel)) }
	inode := func(rel string) uint64 {
		info, err := os.Stat(path(rel))
		if err != nil {
			t.Fatal(err)
		}
		return info.Sys().(*syscall.Stat_t).Ino
	}
	untouched := inode("archive.md")

	// A run: one file written in place, one replaced (same size), one
	// file and one folder added.
	if err := os.WriteFile(path(".claude/bimri/recalls.json"), []byte(`{"x":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path("new.md"), []byte("MEMORY"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path("new.md"), path("bimri.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(path("tmp/deeper"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path(".claude/bimri/lock"), nil, 0o600); err != nil {
		t.Fatal(err)
	}

	if err := w.reset(); err != nil {
		t.Fatal(err)
	}
	for rel, want := range w.files {
		if got, err := os.ReadFile(path(rel)); err != nil || string(got) != string(want) {
			t.Errorf("%s after the reset: %q, %v; want %q", rel, got, err, want)
		}
	}
	for _, rel := range []string{"tmp", ".claude/bimri/lock", "new.md"} {
		if _, err := os.Lstat(path(rel)); !os.IsNotExist(err) {
			t.Errorf("%s survived the reset (%v)", rel, err)
		}
	}
	if got := inode("archive.md"); got != untouched {
		t.Errorf("archive.md, untouched, was written again (inode %d, was %d)", got, untouched)
	}
	if info, err := os.Stat(path("archive.md")); err != nil || !info.ModTime().Equal(saved) {
		t.Errorf("archive.md's time after the reset: %v, %v; want %v", info.ModTime(), err, saved)
	}
}
