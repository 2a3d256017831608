package install

import (
	"encoding/json"

	"github.com/bimri/bimri-hook/wiring"
)

// readReceipt reads the receipt at path of what an install added to a
// file (wiring.Receipt), for uninstall.
func readReceipt(path string) (wiring.Receipt, bool, error) {
	var r wiring.Receipt
	data, exists, err := ReadOptional(path)
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

func writeReceipt(path string, r wiring.Receipt) error {
	data, _ := json.Marshal(r) // a struct of strings
	return writeReplacing(path, append(data, '\n'))
}
