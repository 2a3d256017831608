//go:build unix

package safefile

import "syscall"

// openNonBlock keeps the open of a named pipe with no writer from
// blocking; on a regular file it changes nothing.
const openNonBlock = syscall.O_NONBLOCK
