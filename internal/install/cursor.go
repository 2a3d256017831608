package install

// Wiring Cursor: its hooks.json, as its documentation gives it (no Cursor
// client runs here to measure).

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/bimri/bimri-hook/internal/workspace"
	"github.com/bimri/bimri-hook/wiring"
)

// CursorHooksFor is the Cursor hooks.json of a scope:
// <root>/.cursor/hooks.json for project, ~/.cursor/hooks.json for user.
func CursorHooksFor(scope, root string) (SettingsFile, error) {
	switch scope {
	case ScopeProject:
		return SettingsFile{scope, filepath.Join(root, ".cursor", "hooks.json")}, nil
	case ScopeUser:
		home := workspace.Home()
		if home == "" {
			return SettingsFile{}, errors.New("no home folder for Cursor's hooks.json")
		}
		return SettingsFile{scope, filepath.Join(home, ".cursor", "hooks.json")}, nil
	}
	return SettingsFile{}, fmt.Errorf("--scope %q: Cursor has project and user hooks", scope)
}

// cursorReceipt is the file whose receipt says what install added to a
// Cursor hooks.json: beside it at user scope; at project scope in the
// workspace's .claude folder, as for the other clients.
func cursorReceipt(file SettingsFile) SettingsFile {
	if file.Scope != ScopeProject {
		return file
	}
	root := filepath.Dir(filepath.Dir(file.Path))
	return SettingsFile{file.Scope, filepath.Join(root, ".claude", "cursor-hooks.json")}
}

// InstallCursor wires command into the Cursor hooks.json of file.
func InstallCursor(file SettingsFile, command wiring.Command) (bool, error) {
	return installClient(file, cursorReceipt(file), func(b []byte, prev wiring.Receipt) ([]byte, wiring.Receipt, bool, error) {
		return wiring.InstallCursor(b, command, prev)
	})
}

// UninstallCursor takes out of file what InstallCursor put there.
func UninstallCursor(file SettingsFile) (bool, error) {
	return uninstallClient(file, cursorReceipt(file), wiring.UninstallCursor)
}

// CheckCursor lists the events the Cursor hooks.json of file runs
// bimri-hook's hook at.
func CheckCursor(file SettingsFile) ([]string, error) {
	data, _, err := ReadOptional(file.Path)
	if err != nil {
		return nil, err
	}
	return wiring.CursorWired(data)
}
