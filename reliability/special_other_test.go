//go:build !unix

package reliability

import "errors"

// mkfifo: named pipes in the filesystem are a Unix notion.
func mkfifo(string) error { return errors.New("no named pipes on this platform") }
