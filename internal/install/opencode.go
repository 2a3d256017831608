package install

// Wiring OpenCode: bimri-hook's plugin file in its plugins folder, and the
// MCP server in its opencode.json.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/bimri/bimri-hook/internal/workspace"
	"github.com/bimri/bimri-hook/wiring"
)

// OpenCodeFiles are the files install writes for OpenCode in one scope.
type OpenCodeFiles struct {
	Config SettingsFile // opencode.json
	Plugin string       // <folder>/plugins/bimri-hook.js
}

// OpenCodeFilesFor is OpenCode's files of a scope: <root>/opencode.json
// and <root>/.opencode/plugins/ for project; for user, opencode.json and
// plugins/ in $XDG_CONFIG_HOME/opencode, else ~/.config/opencode, where
// OpenCode reads them on every platform.
func OpenCodeFilesFor(scope, root string) (OpenCodeFiles, error) {
	switch scope {
	case ScopeProject:
		return OpenCodeFiles{
			Config: SettingsFile{scope, filepath.Join(root, "opencode.json")},
			Plugin: filepath.Join(root, ".opencode", "plugins", wiring.OpenCodePluginFile),
		}, nil
	case ScopeUser:
		dir := os.Getenv("XDG_CONFIG_HOME")
		if dir == "" {
			if home := workspace.Home(); home != "" {
				dir = filepath.Join(home, ".config")
			}
		}
		if dir == "" {
			return OpenCodeFiles{}, errors.New("no home folder for OpenCode's config (set XDG_CONFIG_HOME)")
		}
		dir = filepath.Join(dir, "opencode")
		return OpenCodeFiles{
			Config: SettingsFile{scope, filepath.Join(dir, "opencode.json")},
			Plugin: filepath.Join(dir, "plugins", wiring.OpenCodePluginFile),
		}, nil
	}
	return OpenCodeFiles{}, fmt.Errorf("--scope %q: OpenCode has project and user config", scope)
}

// openCodeReceipt is the file whose receipt says what install added for
// OpenCode: beside opencode.json at user scope; at project scope in the
// workspace's .claude folder, where .gitignore keeps receipts out of git.
func openCodeReceipt(f OpenCodeFiles) SettingsFile {
	if f.Config.Scope != ScopeProject {
		return f.Config
	}
	root := filepath.Dir(f.Config.Path)
	return SettingsFile{f.Config.Scope, filepath.Join(root, ".claude", "opencode.json")}
}

// pluginFolders are the folders above the plugin file that install may
// create, innermost first, with the receipt's name for each: plugins/ and
// the folder above it, .opencode in a project, the user's OpenCode config
// folder.
func pluginFolders(f OpenCodeFiles) [][2]string {
	plugins := filepath.Dir(f.Plugin)
	return [][2]string{{"plugins folder", plugins}, {"opencode folder", filepath.Dir(plugins)}}
}

// WireOpenCode is install --agent opencode in scope: it writes
// bimri-hook's plugin, running command, registers the MCP server in
// opencode.json, says what it did and returns the config a project
// shares. A plugin file of that name that is not bimri-hook's is
// refused, not overwritten.
func WireOpenCode(w io.Writer, scope, root string, command wiring.Command) (SettingsFile, error) {
	f, err := OpenCodeFilesFor(scope, root)
	if err != nil {
		return f.Config, err
	}
	changed, err := installOwn(f.own(), openCodeWiring(command))
	if err != nil {
		return f.Config, err
	}
	verb := "already wired"
	if changed {
		verb = "wired"
	}
	fmt.Fprintf(w, "OpenCode: %s %s (memory, recall, the session counted at its first idle) and its MCP server %q in %s\n", verb, f.Plugin, wiring.MCPServer, f.Config.Path)
	return f.Config, nil
}

// UnwireOpenCode is uninstall --agent opencode in scope: it takes out
// what WireOpenCode put in (the plugin file and the folders install made
// for it alone, the MCP server, opencode.json when install created it
// and nothing else is left), and says so.
func UnwireOpenCode(w io.Writer, scope, root string) error {
	f, err := OpenCodeFilesFor(scope, root)
	if err != nil {
		return err
	}
	changed, err := uninstallOwn(f.own(), openCodeWiring(wiring.Command{}))
	if err != nil {
		return err
	}
	if changed {
		fmt.Fprintf(w, "OpenCode: took bimri-hook's plugin and MCP server out of %s and %s\n", f.Plugin, f.Config.Path)
	} else {
		fmt.Fprintf(w, "OpenCode: nothing of bimri-hook's in %s or %s\n", f.Plugin, f.Config.Path)
	}
	return nil
}

// own is f as installOwn takes it.
func (f OpenCodeFiles) own() ownFiles {
	return ownFiles{Config: f.Config, Own: f.Plugin, Receipt: openCodeReceipt(f), Folders: pluginFolders(f)}
}

// openCodeWiring is what install writes for OpenCode, running command.
func openCodeWiring(command wiring.Command) ownWiring {
	return ownWiring{
		what:   "plugin",
		want:   wiring.OpenCodePlugin(command),
		isOurs: wiring.IsOpenCodePlugin,
		install: func(config []byte, prev wiring.Receipt) ([]byte, wiring.Receipt, bool, error) {
			return wiring.InstallOpenCode(config, command, prev)
		},
		uninstall: wiring.UninstallOpenCode,
	}
}

// OpenCodeStatus is what doctor says of OpenCode's wiring in one scope.
type OpenCodeStatus struct {
	Files  OpenCodeFiles
	Plugin bool // bimri-hook's plugin is in place
	MCP    bool // the MCP server is registered
	Err    error
}

// CheckOpenCode reads the OpenCode wiring of f.
func CheckOpenCode(f OpenCodeFiles) OpenCodeStatus {
	st := OpenCodeStatus{Files: f}
	st.Plugin, st.MCP, st.Err = checkOwn(f.own(), wiring.IsOpenCodePlugin, wiring.OpenCodeMCPWired)
	return st
}
