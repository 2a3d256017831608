package install

// Clients wired by a file of bimri-hook's own (OpenCode's plugin, the
// Copilot CLI's hooks file) and the MCP server in a JSON config of theirs.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/bimri/bimri-hook/wiring"
)

// ownFiles are where one client's wiring lives in one scope.
type ownFiles struct {
	Config  SettingsFile // the client's config holding the MCP server
	Own     string       // bimri-hook's own file
	Receipt SettingsFile // whose receipt says what install added
	// Folders are the folders above Own that install may create,
	// innermost first, with the receipt's name for each.
	Folders [][2]string
}

// ownWiring is what install writes for one client: the own file's bytes
// and the edits of its config.
type ownWiring struct {
	what      string // the own file, for messages: "plugin"
	want      []byte
	isOurs    func([]byte) bool
	install   func(config []byte, prev wiring.Receipt) ([]byte, wiring.Receipt, bool, error)
	uninstall func(config []byte, r wiring.Receipt) ([]byte, bool, bool, error)
}

// installOwn writes f.Own and registers the MCP server in f.Config. It
// says whether either changed. An own file of that name that is not
// bimri-hook's is refused, not overwritten.
func installOwn(f ownFiles, w ownWiring) (changed bool, err error) {
	before, _, err := ReadOptional(f.Config.Path)
	if err != nil {
		return false, fmt.Errorf("read %s: %w", f.Config.Path, err)
	}
	prev, _, err := readReceipt(f.Receipt)
	if err != nil {
		return false, fmt.Errorf("read %s: %w", receiptPath(f.Receipt), err)
	}
	own, ownExists, err := ReadOptional(f.Own)
	if err != nil {
		return false, fmt.Errorf("read %s: %w", f.Own, err)
	}
	if ownExists && !w.isOurs(own) {
		return false, fmt.Errorf("%s is not bimri-hook's %s: rename it, then try again", f.Own, w.what)
	}
	after, receipt, configChanged, err := w.install(before, prev)
	if err != nil {
		return false, fmt.Errorf("%s: %w", f.Config.Path, err)
	}
	for _, folder := range f.Folders {
		_, err := os.Stat(folder[1])
		receipt.Note(folder[0], err == nil)
	}
	ownChanged := string(own) != string(w.want)
	if !configChanged && !ownChanged {
		return false, nil
	}
	data, _ := json.Marshal(receipt)
	if err := writeReplacing(receiptPath(f.Receipt), append(data, '\n')); err != nil {
		return false, fmt.Errorf("write %s: %w", receiptPath(f.Receipt), err)
	}
	if ownChanged {
		if err := writeReplacing(f.Own, w.want); err != nil {
			return false, fmt.Errorf("write %s: %w", f.Own, err)
		}
	}
	if configChanged {
		if err := writeReplacing(f.Config.Path, after); err != nil {
			return false, fmt.Errorf("write %s: %w", f.Config.Path, err)
		}
	}
	return true, nil
}

// uninstallOwn takes out what installOwn put in: the own file and the
// folders install made for it alone, the MCP server, and the config when
// install created it and nothing else is left.
func uninstallOwn(f ownFiles, w ownWiring) (changed bool, err error) {
	before, _, err := ReadOptional(f.Config.Path)
	if err != nil {
		return false, fmt.Errorf("read %s: %w", f.Config.Path, err)
	}
	receipt, hasReceipt, err := readReceipt(f.Receipt)
	if err != nil {
		return false, err
	}
	own, ownExists, err := ReadOptional(f.Own)
	if err != nil {
		return false, fmt.Errorf("read %s: %w", f.Own, err)
	}
	if ownExists && w.isOurs(own) {
		if err := os.Remove(f.Own); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return false, err
		}
		changed = true
	}
	after, remove, configChanged, err := w.uninstall(before, receipt)
	if err != nil {
		return false, fmt.Errorf("%s: %w", f.Config.Path, err)
	}
	if remove {
		if err := os.Remove(f.Config.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return false, err
		}
	} else if configChanged {
		if err := writeReplacing(f.Config.Path, after); err != nil {
			return false, err
		}
	}
	if err := putBack(f.Config, f.Receipt, nil, false, false, hasReceipt); err != nil {
		return false, err
	}
	for _, folder := range f.Folders {
		if receipt.Made(folder[0]) {
			_ = os.Remove(folder[1]) // only when empty: nothing of the user's goes
		}
	}
	return changed || configChanged, nil
}

// checkOwn reads whether f's own file is bimri-hook's (isOurs) and
// whether its config registers the MCP server (mcpWired), for doctor.
func checkOwn(f ownFiles, isOurs func([]byte) bool, mcpWired func([]byte) (bool, error)) (own, mcp bool, err error) {
	data, _, err := ReadOptional(f.Own)
	if err != nil {
		return false, false, err
	}
	config, _, err := ReadOptional(f.Config.Path)
	if err != nil {
		return false, false, err
	}
	mcp, err = mcpWired(config)
	return isOurs(data), mcp, err
}
