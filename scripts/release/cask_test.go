package main

import (
	"strings"
	"testing"
)

// The cask's template executes and names every program a release
// carries, each with its quarantine flag cleared on macOS.
func TestCask(t *testing.T) {
	out, err := cask("1.2.3", map[string]string{})
	if err != nil {
		t.Fatal(err)
	}
	for _, prog := range programs {
		if !strings.Contains(string(out), `binary "`+prog+`"`) || !strings.Contains(string(out), "#{staged_path}/"+prog+`"`) {
			t.Errorf("the cask does not carry %s:\n%s", prog, out)
		}
	}
}
