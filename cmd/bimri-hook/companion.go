package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// companion finds program (bimri-hook-mcp, bimri-hook-browse: programs of
// their own, so that their libraries never start with a hook) beside this
// executable, named as this one is with program's suffix after bimri-hook:
// bimri-hook-mcp.exe beside bimri-hook.exe, bimri-hook-mcp-linux-amd64
// beside the plugin's bimri-hook-linux-amd64 (scripts/release
// PluginPath), bimri-hook-mcp-0.1.0 beside the plugin's development build
// bimri-hook-0.1.0 (scripts/launch.sh). Then program itself beside this
// executable, then on PATH. A symbolic link to this executable (install
// --link) is followed first, so the link finds the plugin's programs.
func companion(program string) (string, bool) {
	if exe, err := executable(); err == nil {
		dir, name := filepath.Split(exe)
		var names []string
		if rest, ok := strings.CutPrefix(name, "bimri-hook"); ok {
			names = append(names, program+rest)
		}
		names = append(names, program, program+".exe")
		for _, n := range names {
			p := filepath.Join(dir, n)
			if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
				return p, true
			}
		}
	}
	if p, err := exec.LookPath(program); err == nil {
		return p, true
	}
	return "", false
}

// executable is this program's own file, links followed.
func executable() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return exe, nil
}
