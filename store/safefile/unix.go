//go:build unix

package safefile

import (
	"io/fs"
	"syscall"
)

// openNonBlock keeps the open of a named pipe with no writer from
// blocking; on a regular file it changes nothing.
const openNonBlock = syscall.O_NONBLOCK

// soleLink says whether the file has one name only.
func soleLink(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && st.Nlink == 1
}

// noSwap says errNoSwap for a system or file system that cannot swap
// names (an old kernel, some network file systems: ENOTSUP, which is
// EOPNOTSUPP on Linux), err otherwise.
func noSwap(err error) error {
	switch err {
	case syscall.ENOSYS, syscall.EINVAL, syscall.ENOTSUP:
		return errNoSwap
	}
	return err
}
