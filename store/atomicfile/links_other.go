//go:build !unix

package atomicfile

import "io/fs"

// soleLink says whether the file has one name only. Where the count of
// names is not at hand, it says no, and a backup is copied.
func soleLink(fs.FileInfo) bool { return false }
