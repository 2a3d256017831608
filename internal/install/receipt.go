package install

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/bimri/bimri-hook/wiring"
)

// receiptPath is where install keeps the receipt of what it added to a
// settings file (wiring.Receipt), beside the file: uninstall reads it to
// take out exactly that, whoever runs it.
func receiptPath(file SettingsFile) string { return file.Path + ".bimri-receipt" }

func readReceipt(file SettingsFile) (wiring.Receipt, bool, error) {
	var r wiring.Receipt
	data, exists, err := ReadOptional(receiptPath(file))
	if err != nil || !exists {
		return r, false, err
	}
	if err := json.Unmarshal(data, &r); err != nil {
		// A damaged receipt only costs exactness: uninstall then removes
		// bimri-hook's entries and the containers they leave empty.
		return wiring.Receipt{}, false, nil
	}
	return r, true, nil
}

// Install wires command into file, and keeps the receipt of what it added.
func Install(file SettingsFile, command wiring.Command) (was wiring.Wiring, changed bool, err error) {
	prev, _, err := readReceipt(file)
	if err != nil {
		return was, false, fmt.Errorf("read %s: %w", receiptPath(file), err)
	}
	var receipt wiring.Receipt
	was, changed, err = editSettings(file, func(b []byte) ([]byte, bool, error) {
		out, r, changed, err := wiring.InstallReceipt(b, command, prev)
		receipt = r
		return out, changed, err
	})
	if err != nil || !changed {
		return was, changed, err
	}
	data, _ := json.Marshal(receipt) // a struct of strings
	if err := writeReplacing(receiptPath(file), append(data, '\n')); err != nil {
		return was, changed, fmt.Errorf("write %s: %w", receiptPath(file), err)
	}
	return was, changed, nil
}

// Uninstall takes out of file what Install added: exactly, with the
// receipt, giving back the bytes the file had before (and no file where
// there was none); without one, bimri-hook's entries and the containers
// they leave empty.
func Uninstall(file SettingsFile) (was wiring.Wiring, changed bool, err error) {
	receipt, hasReceipt, err := readReceipt(file)
	if err != nil {
		return was, false, fmt.Errorf("read %s: %w", receiptPath(file), err)
	}
	remove := false
	was, changed, err = editSettings(file, func(b []byte) ([]byte, bool, error) {
		if !hasReceipt {
			return wiring.Uninstall(b)
		}
		out, rm, changed, err := wiring.UninstallReceipt(b, receipt)
		remove = rm
		return out, changed, err
	})
	if err != nil {
		return was, changed, err
	}
	if remove {
		if err := os.Remove(file.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return was, changed, fmt.Errorf("remove %s: %w", file.Path, err)
		}
	}
	if hasReceipt {
		if err := os.Remove(receiptPath(file)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return was, changed, fmt.Errorf("remove %s: %w", receiptPath(file), err)
		}
	}
	return was, changed, nil
}
