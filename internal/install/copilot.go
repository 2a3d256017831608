package install

// Wiring the GitHub Copilot CLI: bimri-hook's hooks file in its hooks
// folder, and the MCP server in its MCP config.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/bimri/bimri-hook/internal/workspace"
	"github.com/bimri/bimri-hook/wiring"
)

// CopilotFiles are the files install writes for Copilot in one scope.
type CopilotFiles struct{ ownFiles }

// CopilotFilesFor is Copilot's files of a scope: <root>/.github/hooks/
// and <root>/.github/mcp.json for project; hooks/ and mcp-config.json in
// $COPILOT_HOME, else ~/.copilot, for user.
func CopilotFilesFor(scope, root string) (CopilotFiles, error) {
	var dir, config string
	switch scope {
	case ScopeProject:
		dir = filepath.Join(root, ".github")
		config = filepath.Join(dir, "mcp.json")
	case ScopeUser:
		dir = os.Getenv("COPILOT_HOME")
		if home := workspace.Home(); dir == "" && home != "" {
			dir = filepath.Join(home, ".copilot")
		}
		if dir == "" {
			return CopilotFiles{}, errors.New("no home folder for Copilot's config (set COPILOT_HOME)")
		}
		config = filepath.Join(dir, "mcp-config.json")
	default:
		return CopilotFiles{}, fmt.Errorf("--scope %q: the Copilot CLI has project and user config", scope)
	}
	f := ownFiles{
		Config:  SettingsFile{scope, config},
		Own:     filepath.Join(dir, "hooks", wiring.CopilotHooksFile),
		Receipt: SettingsFile{scope, config},
		Folders: [][2]string{{"hooks folder", filepath.Join(dir, "hooks")}, {"copilot folder", dir}},
	}
	if scope == ScopeProject {
		// In the workspace's .claude folder, where .gitignore keeps
		// receipts out of git, as for the other clients.
		f.Receipt.Path = filepath.Join(root, ".claude", "copilot-mcp.json")
	}
	return CopilotFiles{f}, nil
}

// copilotWiring is what install writes for Copilot, running command.
func copilotWiring(command wiring.Command) ownWiring {
	return ownWiring{
		what:   "hooks file",
		want:   wiring.CopilotHooks(command),
		isOurs: wiring.IsCopilotHooks,
		install: func(config []byte, prev wiring.Receipt) ([]byte, wiring.Receipt, bool, error) {
			return wiring.InstallCopilotMCP(config, command, prev)
		},
		uninstall: wiring.UninstallCopilotMCP,
	}
}

// WireCopilot is install --agent copilot in scope: it writes bimri-hook's
// hooks file, running command, registers the MCP server, says what it did
// and returns the config a project shares.
func WireCopilot(w io.Writer, scope, root string, command wiring.Command) (SettingsFile, error) {
	f, err := CopilotFilesFor(scope, root)
	if err != nil {
		return f.Config, err
	}
	changed, err := installOwn(f.ownFiles, copilotWiring(command))
	if err != nil {
		return f.Config, err
	}
	verb := "already wired"
	if changed {
		verb = "wired"
	}
	fmt.Fprintf(w, "Copilot: %s %s (%s) and its MCP server %q in %s\n", verb, f.Own, EventList(wiring.CopilotEvents()), wiring.MCPServer, f.Config.Path)
	if scope == ScopeProject {
		fmt.Fprintf(w, "Copilot: Copilot reads %s only in a folder you trust (its first-run dialog); a copilot -p in another skips them without a word\n", filepath.Dir(f.Own))
	}
	return f.Config, nil
}

// UnwireCopilot is uninstall --agent copilot in scope: it takes out what
// WireCopilot put in, and says so.
func UnwireCopilot(w io.Writer, scope, root string) error {
	f, err := CopilotFilesFor(scope, root)
	if err != nil {
		return err
	}
	changed, err := uninstallOwn(f.ownFiles, copilotWiring(wiring.Command{}))
	if err != nil {
		return err
	}
	if changed {
		fmt.Fprintf(w, "Copilot: took bimri-hook's hooks and MCP server out of %s and %s\n", f.Own, f.Config.Path)
	} else {
		fmt.Fprintf(w, "Copilot: nothing of bimri-hook's in %s or %s\n", f.Own, f.Config.Path)
	}
	return nil
}

// CopilotStatus is what doctor says of Copilot's wiring in one scope.
type CopilotStatus struct {
	Files CopilotFiles
	Hooks bool // bimri-hook's hooks file is in place
	MCP   bool // the MCP server is registered
	Err   error
}

// CheckCopilot reads the Copilot wiring of f.
func CheckCopilot(f CopilotFiles) CopilotStatus {
	st := CopilotStatus{Files: f}
	st.Hooks, st.MCP, st.Err = checkOwn(f.ownFiles, wiring.IsCopilotHooks, wiring.CopilotMCPWired)
	return st
}
