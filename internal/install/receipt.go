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
	before, changed, err := installWith(file, file, func(b []byte, prev wiring.Receipt) ([]byte, wiring.Receipt, bool, error) {
		return wiring.InstallReceipt(b, command, prev)
	})
	was, _ = wiring.Inspect(before)
	return was, changed, err
}

// installWith edits file as install computes from its bytes and the
// receipt kept for it in receiptOf's place, and writes back the file and
// the new receipt when the file changed.
func installWith(file, receiptOf SettingsFile, install func([]byte, wiring.Receipt) ([]byte, wiring.Receipt, bool, error)) (before []byte, changed bool, err error) {
	if before, _, err = ReadOptional(file.Path); err != nil {
		return nil, false, fmt.Errorf("read %s: %w", file.Path, err)
	}
	prev, _, err := readReceipt(receiptOf)
	if err != nil {
		return before, false, fmt.Errorf("read %s: %w", receiptPath(receiptOf), err)
	}
	after, r, changed, err := install(before, prev)
	if err != nil {
		return before, false, fmt.Errorf("%s: %w", file.Path, err)
	}
	if !changed {
		return before, false, nil
	}
	if err := writeReplacing(file.Path, after); err != nil {
		return before, false, fmt.Errorf("write %s: %w", file.Path, err)
	}
	return before, true, writeReceipt(receiptOf, r)
}

// writeReceipt keeps r as the receipt of file.
func writeReceipt(file SettingsFile, r wiring.Receipt) error {
	data, _ := json.Marshal(r) // a struct of strings
	if err := writeReplacing(receiptPath(file), append(data, '\n')); err != nil {
		return fmt.Errorf("write %s: %w", receiptPath(file), err)
	}
	return nil
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
