package main

import (
	"archive/zip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// The bundle is a zip holding manifest.json (MCPB manifest 0.3: a binary
// server, per-platform overrides, the memory folder as a user setting)
// and, in server/, bimri-hook-mcp for the six release targets with the
// script that picks one on macOS and Linux.
//
// Claude Desktop picks a platform's override by the OS alone
// (process.platform: darwin, linux, win32), not the architecture, so on
// macOS and Linux the command is a small sh script that runs the binary
// of the machine's architecture; on Windows it is the x64 binary, which
// Windows on ARM also runs (the arm64 binary is in the bundle for those
// who run it by hand).

// target is one release platform.
type target struct{ OS, Arch string }

// targets are the six release targets, as make cross and make release
// build them.
func targets() []target {
	return []target{{"linux", "amd64"}, {"linux", "arm64"}, {"darwin", "amd64"}, {"darwin", "arm64"}, {"windows", "amd64"}, {"windows", "arm64"}}
}

// serverFile is the server's file name for t in the bundle's server/.
func serverFile(t target) string {
	name := "bimri-hook-mcp-" + t.OS + "-" + t.Arch
	if t.OS == "windows" {
		name += ".exe"
	}
	return name
}

// folderSetting is the user setting that names the memory's folder.
const folderSetting = "memory_folder"

// script picks the binary of this machine on macOS and Linux.
const script = `#!/bin/sh
# Claude Desktop runs this on macOS and Linux (its overrides go by the OS,
# not the architecture): run the bimri-hook-mcp of this machine.
dir=$(dirname "$0")
case $(uname -s)-$(uname -m) in
Darwin-arm64) target=darwin-arm64 ;;
Darwin-x86_64) target=darwin-amd64 ;;
Linux-aarch64 | Linux-arm64) target=linux-arm64 ;;
Linux-x86_64 | Linux-amd64) target=linux-amd64 ;;
*)
	echo "bimri-hook: this bundle has no bimri-hook-mcp for $(uname -s) $(uname -m)" >&2
	exit 1
	;;
esac
exec "$dir/bimri-hook-mcp-$target" "$@"
`

// scriptName is script's file name in server/.
const scriptName = "bimri-hook-mcp.sh"

// manifest is manifest.json for version.
func manifest(version string) ([]byte, error) {
	dirArgs := []string{"--dir", "${user_config." + folderSetting + "}"}
	unix := map[string]any{"command": "/bin/sh", "args": append([]string{"${__dirname}/server/" + scriptName}, dirArgs...)}
	windows := map[string]any{"command": "${__dirname}/server/" + serverFile(target{"windows", "amd64"}), "args": dirArgs}
	m := map[string]any{
		"manifest_version": "0.3",
		"name":             "bimri-hook",
		"display_name":     "BIMRI memory",
		"version":          version,
		"description":      "Persistent project memory: one bimri.md per folder, read at the start of a conversation and kept small by importance, freshness and pruning.",
		"long_description": "The memory tool gives Claude the folder's memory (lasting facts, decisions, the latest work, patterns); remember records an entry; recall searches the file and its archive; forget and revive move entries out of and back into memory. Backups, weights, pruning and budgets are done by the server, never by the model.",
		"author":           map[string]any{"name": "bimri"},
		"repository":       map[string]any{"type": "git", "url": "https://github.com/bimri/bimri-hook"},
		"homepage":         "https://github.com/bimri/bimri-hook",
		"license":          "MIT",
		"keywords":         []string{"memory", "context", "notes"},
		"server": map[string]any{
			"type":        "binary",
			"entry_point": "server/" + scriptName,
			"mcp_config": map[string]any{
				"command":            unix["command"],
				"args":               unix["args"],
				"platform_overrides": map[string]any{"darwin": unix, "linux": unix, "win32": windows},
			},
		},
		"tools": []map[string]string{
			{"name": "memory", "description": "The folder's memory as a session start gives it; call it first."},
			{"name": "remember", "description": "Record an entry (importance 1-5, tags), consolidate entries, promote one, or write a pattern."},
			{"name": "recall", "description": "Search the memory and its archive: ranked entries with ID, date, importance, tags and where each lives."},
			{"name": "forget", "description": "Move an entry or pattern to the archive, with the reason."},
			{"name": "revive", "description": "Bring an archived entry back into active memory."},
		},
		"compatibility": map[string]any{"platforms": []string{"darwin", "win32", "linux"}},
		"user_config": map[string]any{
			folderSetting: map[string]any{
				"type":        "directory",
				"title":       "Memory folder",
				"description": "The folder whose memory Claude keeps: bimri.md, its backup and archive live there (created on first use). A project folder, or one folder for all your conversations.",
				"required":    true,
			},
		},
	}
	data, err := json.MarshalIndent(m, "", "  ")
	return append(data, '\n'), err
}

// built is where the release build (make release, scripts/release)
// leaves bimri-hook-mcp for t, in its build folder: <os>-<arch>/.
func built(buildDir string, t target) string {
	name := "bimri-hook-mcp"
	if t.OS == "windows" {
		name += ".exe"
	}
	return filepath.Join(buildDir, t.OS+"-"+t.Arch, name)
}

// write writes the bundle for version to w, with the servers the release
// built into buildDir (built). Dates are fixed, so the same inputs give
// the same bytes.
func write(w io.Writer, version, buildDir string) error {
	manifest, err := manifest(version)
	if err != nil {
		return err
	}
	z := zip.NewWriter(w)
	add := func(name string, mode os.FileMode, data []byte) error {
		h := &zip.FileHeader{Name: name, Method: zip.Deflate, Modified: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
		h.SetMode(mode)
		f, err := z.CreateHeader(h)
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		return err
	}
	if err := add("manifest.json", 0o644, manifest); err != nil {
		return err
	}
	if err := add("server/"+scriptName, 0o755, []byte(script)); err != nil {
		return err
	}
	for _, t := range targets() {
		data, err := os.ReadFile(built(buildDir, t))
		if err != nil {
			return fmt.Errorf("the %s/%s server: %w (make release builds it)", t.OS, t.Arch, err)
		}
		if err := add("server/"+serverFile(t), 0o755, data); err != nil {
			return err
		}
	}
	return z.Close()
}
