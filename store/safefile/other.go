//go:build !unix

package safefile

import "io/fs"

// openNonBlock is not needed where opening a file cannot block on a pipe.
const openNonBlock = 0

// soleLink says whether the file has one name only. Where the count of
// names is not at hand, it says no, and a backup is copied.
func soleLink(fs.FileInfo) bool { return false }
