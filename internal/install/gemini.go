package install

// Wiring the Gemini CLI: its hooks and MCP server in its settings.json.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/bimri/bimri-hook/internal/workspace"
	"github.com/bimri/bimri-hook/wiring"
)

// GeminiSettingsFor is the Gemini settings.json of a scope:
// <root>/.gemini/settings.json for project, ~/.gemini/settings.json for
// user, where ~ is $GEMINI_CLI_HOME when set, as Gemini reads it.
func GeminiSettingsFor(scope, root string) (SettingsFile, error) {
	switch scope {
	case ScopeProject:
		return SettingsFile{scope, filepath.Join(root, ".gemini", "settings.json")}, nil
	case ScopeUser:
		home := os.Getenv("GEMINI_CLI_HOME")
		if home == "" {
			home = workspace.Home()
		}
		if home == "" {
			return SettingsFile{}, errors.New("no home folder for Gemini's settings (set GEMINI_CLI_HOME)")
		}
		return SettingsFile{scope, filepath.Join(home, ".gemini", "settings.json")}, nil
	}
	return SettingsFile{}, fmt.Errorf("--scope %q: the Gemini CLI has project and user settings", scope)
}

// geminiReceipt is the file whose receipt says what install added to a
// Gemini settings.json: beside it at user scope; at project scope in the
// workspace's .claude folder, where .gitignore already keeps receipts
// out of git, as for Codex.
func geminiReceipt(file SettingsFile) SettingsFile {
	if file.Scope != ScopeProject {
		return file
	}
	root := filepath.Dir(filepath.Dir(file.Path))
	return SettingsFile{file.Scope, filepath.Join(root, ".claude", "gemini-settings.json")}
}

// WireGemini is install --agent gemini in scope: it wires command into
// the Gemini settings.json, the hooks and the MCP server, says what it did
// and returns the file.
func WireGemini(w io.Writer, scope, root string, command wiring.Command) (SettingsFile, error) {
	file, err := GeminiSettingsFor(scope, root)
	if err != nil {
		return file, err
	}
	changed, err := installClient(file, geminiReceipt(file), func(b []byte, prev wiring.Receipt) ([]byte, wiring.Receipt, bool, error) {
		return wiring.InstallGemini(b, command, prev)
	})
	if err != nil {
		return file, err
	}
	verb := "already wired"
	if changed {
		verb = "wired"
	}
	fmt.Fprintf(w, "Gemini: %s %s (%s) and its MCP server %q\n", verb, file.Path, EventList(wiring.GeminiEvents()), wiring.MCPServer)
	if file.Scope == ScopeProject {
		fmt.Fprintf(w, "Gemini: Gemini reads %s only in a folder you trust, and warns once before it runs a project's new hooks\n", filepath.Dir(file.Path))
	}
	return file, nil
}

// UnwireGemini is uninstall --agent gemini in scope: it takes out of the
// settings.json what WireGemini put there, and the file and its folder
// when install created them and nothing else is left.
func UnwireGemini(w io.Writer, scope, root string) error {
	file, err := GeminiSettingsFor(scope, root)
	if err != nil {
		return err
	}
	changed, err := uninstallClient(file, geminiReceipt(file), wiring.UninstallGemini)
	if err != nil {
		return err
	}
	if changed {
		fmt.Fprintf(w, "Gemini: took bimri-hook's hooks and MCP server out of %s\n", file.Path)
	} else {
		fmt.Fprintf(w, "Gemini: nothing of bimri-hook's in %s\n", file.Path)
	}
	return nil
}

// installClient edits another client's file with install, and keeps the
// receipt of what it added in receiptOf's receipt.
func installClient(file, receiptOf SettingsFile, install func([]byte, wiring.Receipt) ([]byte, wiring.Receipt, bool, error)) (changed bool, err error) {
	_, changed, err = installWith(file, receiptOf, install)
	return changed, err
}

// uninstallClient takes out of file what installClient put there, guided
// by receiptOf's receipt.
func uninstallClient(file, receiptOf SettingsFile, uninstall func([]byte, wiring.Receipt) ([]byte, bool, bool, error)) (changed bool, err error) {
	before, _, err := ReadOptional(file.Path)
	if err != nil {
		return false, fmt.Errorf("read %s: %w", file.Path, err)
	}
	receipt, hasReceipt, err := readReceipt(receiptOf)
	if err != nil {
		return false, err
	}
	after, remove, changed, err := uninstall(before, receipt)
	if err != nil {
		return false, fmt.Errorf("%s: %w", file.Path, err)
	}
	if err := putBack(file, receiptOf, after, remove, changed, hasReceipt); err != nil {
		return false, err
	}
	return changed, nil
}

// GeminiStatus is what doctor says of Gemini's wiring in one scope.
type GeminiStatus struct {
	Settings SettingsFile
	Events   []string // the events that run bimri-hook's hook
	MCP      bool     // the MCP server is registered
	Err      error
}

// CheckGemini reads the Gemini wiring of file.
func CheckGemini(file SettingsFile) GeminiStatus {
	st := GeminiStatus{Settings: file}
	data, _, err := ReadOptional(file.Path)
	if err != nil {
		st.Err = err
		return st
	}
	st.Events, st.MCP, st.Err = wiring.GeminiWired(data)
	return st
}

// EventsText names the events of a status for doctor.
func (st GeminiStatus) EventsText() string { return strings.Join(st.Events, ", ") }

// putBack ends an uninstall of another client's file: the file removed
// when install created it and nothing else is left (with its folder, if
// that was all it held), else written as after when it changed; and the
// receipt removed, with a .claude folder install made for it alone.
func putBack(file, receiptOf SettingsFile, after []byte, remove, changed, hasReceipt bool) error {
	switch {
	case remove:
		if err := os.Remove(file.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		_ = os.Remove(filepath.Dir(file.Path))
	case changed:
		if err := writeReplacing(file.Path, after); err != nil {
			return err
		}
	}
	if hasReceipt {
		if err := os.Remove(receiptPath(receiptOf)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		_ = os.Remove(filepath.Dir(receiptPath(receiptOf)))
	}
	return nil
}
