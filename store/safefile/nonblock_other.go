//go:build !unix

package safefile

// openNonBlock is not needed where opening a file cannot block on a pipe.
const openNonBlock = 0
