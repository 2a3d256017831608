package safefile

import "golang.org/x/sys/unix"

// swap exchanges the files at a and b atomically, or (exclusive) renames
// a to b only if nothing is at b. errNoSwap: the file system cannot.
func swap(a, b string, exclusive bool) error {
	flag := uint(unix.RENAME_EXCHANGE)
	if exclusive {
		flag = unix.RENAME_NOREPLACE
	}
	return noSwap(unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, flag))
}
