//go:build !unix

package atomicfile

import "os"

// processLive says whether a process with ID pid exists. On Windows
// FindProcess opens the process, and fails when there is none; where it
// cannot tell, the process counts as live, and its temporary files are
// removed once StaleAfter old.
func processLive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	_ = p.Release()
	return true
}
