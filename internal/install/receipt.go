package install

import (
	"encoding/json"
	"fmt"

	"github.com/bimri/bimri-hook/wiring"
)

// receiptPath is where install keeps the receipt of what it added to a
// file (wiring.Receipt), for uninstall.
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
	before, _, err := ReadOptional(file.Path)
	if err != nil {
		return was, false, fmt.Errorf("read %s: %w", file.Path, err)
	}
	prev, _, err := readReceipt(file)
	if err != nil {
		return was, false, fmt.Errorf("read %s: %w", receiptPath(file), err)
	}
	was, _ = wiring.Inspect(before)
	after, r, changed, err := wiring.InstallReceipt(before, command, prev)
	if err != nil {
		return was, false, fmt.Errorf("%s: %w", file.Path, err)
	}
	if !changed {
		return was, false, nil
	}
	if err := writeReplacing(file.Path, after); err != nil {
		return was, false, err
	}
	return was, true, writeReceipt(file, r)
}

// writeReceipt keeps r as the receipt of file.
func writeReceipt(file SettingsFile, r wiring.Receipt) error {
	data, _ := json.Marshal(r) // a struct of strings
	return writeReplacing(receiptPath(file), append(data, '\n'))
}

// Uninstall takes out of file what Install added: exactly, with the
// receipt; without one, our entries and the containers they leave empty.
func Uninstall(file SettingsFile) (was wiring.Wiring, changed bool, err error) {
	receipt, hasReceipt, err := readReceipt(file)
	if err != nil {
		return was, false, fmt.Errorf("read %s: %w", receiptPath(file), err)
	}
	before, _, err := ReadOptional(file.Path)
	if err != nil {
		return was, false, fmt.Errorf("read settings: %w", err)
	}
	if was, err = wiring.Inspect(before); err != nil {
		return was, false, fmt.Errorf("%s: %w", file.Path, err)
	}
	r := &receipt
	if !hasReceipt {
		r = nil
	}
	after, remove, changed, err := wiring.Uninstall(before, r)
	switch {
	case err != nil:
		return was, false, fmt.Errorf("%s: %w", file.Path, err)
	case remove:
		err = removeIfThere(file.Path)
	case changed:
		err = writeReplacing(file.Path, after)
	}
	if err == nil && hasReceipt {
		err = removeIfThere(receiptPath(file))
	}
	return was, changed, err
}
