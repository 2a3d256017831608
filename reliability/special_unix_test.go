//go:build unix

package reliability

import "syscall"

// mkfifo makes a named pipe, which nothing will ever write to.
func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }
