//go:build unix

package atomicfile

import (
	"errors"
	"syscall"
)

// processLive says whether a process with ID pid exists: signal 0 checks
// without sending anything, and a process of another user answers EPERM.
func processLive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
