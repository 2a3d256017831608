//go:build unix

package atomicfile

import (
	"io/fs"
	"syscall"
)

// soleLink says whether the file has one name only.
func soleLink(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && st.Nlink == 1
}
