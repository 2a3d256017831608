package install

// Wiring Cursor: its hooks.json, as its documentation gives it (no Cursor
// client runs here to measure).

import (
	"errors"
	"fmt"
	"io"
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

// WireCursor is install --agent cursor in scope: it wires command into
// the Cursor hooks.json, says what it did and returns the file.
func WireCursor(w io.Writer, scope, root string, command wiring.Command) (SettingsFile, error) {
	file, err := CursorHooksFor(scope, root)
	if err != nil {
		return file, err
	}
	changed, err := installClient(file, cursorReceipt(file), func(b []byte, prev wiring.Receipt) ([]byte, wiring.Receipt, bool, error) {
		return wiring.InstallCursor(b, command, prev)
	})
	if err != nil {
		return file, err
	}
	verb := "already wired"
	if changed {
		verb = "wired"
	}
	fmt.Fprintf(w, "Cursor: %s %s (%s), from Cursor's documentation: not tried on a Cursor client\n", verb, file.Path, EventList(wiring.CursorEvents()))
	return file, nil
}

// UnwireCursor is uninstall --agent cursor in scope.
func UnwireCursor(w io.Writer, scope, root string) error {
	file, err := CursorHooksFor(scope, root)
	if err != nil {
		return err
	}
	changed, err := uninstallClient(file, cursorReceipt(file), wiring.UninstallCursor)
	if err != nil {
		return err
	}
	if changed {
		fmt.Fprintf(w, "Cursor: took bimri-hook's hooks out of %s\n", file.Path)
	} else {
		fmt.Fprintf(w, "Cursor: nothing of bimri-hook's in %s\n", file.Path)
	}
	return nil
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
