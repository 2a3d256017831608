package safefile

import "golang.org/x/sys/unix"

// swap exchanges the files at a and b atomically, or (exclusive) renames
// a to b only if nothing is at b. errNoSwap: the file system cannot.
func swap(a, b string, exclusive bool) error {
	flag := uint32(unix.RENAME_SWAP)
	if exclusive {
		flag = unix.RENAME_EXCL
	}
	return noSwap(unix.RenamexNp(a, b, flag))
}
